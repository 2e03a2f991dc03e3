/**
 * Models behind OpenAI's Chat Completions API (and compatible servers), through the official {@code openai-java} SDK,
 * with native tool calls and streaming.
 */
package dev.assay.model.openai;
