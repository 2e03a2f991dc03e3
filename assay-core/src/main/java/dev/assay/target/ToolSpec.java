package dev.assay.target;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A tool offered to the model.
 *
 * @param name        the tool's name
 * @param description one paragraph the model reads
 * @param parameters  the JSON schema of its arguments
 */
public record ToolSpec(String name, String description, JsonNode parameters) {
}
