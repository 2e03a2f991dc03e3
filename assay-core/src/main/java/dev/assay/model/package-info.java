/**
 * Chat models: the {@link dev.assay.model.ChatModel} interface, its requests and responses, the retry loop every
 * provider shares, and the offline mock.
 */
package dev.assay.model;
