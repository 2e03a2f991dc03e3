package dev.assay.model;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A tool call as a model asked for it, before execution.
 *
 * @param id the call id the API gave (native mode) or one Assay generated (text mode)
 * @param name the name exactly as the model wrote it (not yet canonical)
 * @param arguments the arguments object; a non-object payload is wrapped as {@code {"raw": ...}}
 */
public record ToolCallRequest(String id, String name, JsonNode arguments) {}
