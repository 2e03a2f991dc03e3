package dev.assay.target;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;

/**
 * A tool call the model asked for.
 *
 * @param id        the provider's call id
 * @param name      the tool name as the model wrote it
 * @param arguments the arguments as JSON (an object, or a string when the model sent invalid JSON)
 */
public record ToolCallRequest(String id, String name, JsonNode arguments) {
    public ToolCallRequest {
        arguments = arguments == null ? NullNode.getInstance() : arguments;
    }
}
