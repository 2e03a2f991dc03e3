/**
 * Systems under test: the {@link dev.assay.subject.Subject} interface and Assay's own agent loop, which drives a chat
 * model with workspace and MCP tools. Agent services over SSE and recorded transcripts are in the subpackages.
 */
package dev.assay.subject;
