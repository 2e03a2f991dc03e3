package dev.assay.tools;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A tool as described to a model.
 *
 * @param name the name the model must use
 * @param description what it does
 * @param parameters JSON Schema of its arguments object
 */
public record ToolSpec(String name, String description, JsonNode parameters) {}
