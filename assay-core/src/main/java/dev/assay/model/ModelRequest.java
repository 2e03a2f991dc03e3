package dev.assay.model;

import dev.assay.tools.ToolSpec;
import java.time.Duration;
import java.util.List;

/**
 * One call to a chat model.
 *
 * @param messages the conversation so far, oldest first
 * @param tools tools offered natively (function calling); empty in text mode or without tools
 * @param temperature sampling temperature; null for the provider's default
 * @param seed sampling seed where the API supports one; null for none
 * @param maxTokens cap on output tokens; null for the provider's default
 * @param timeout time limit for this one call, retries included
 */
public record ModelRequest(
        List<ChatMessage> messages,
        List<ToolSpec> tools,
        Double temperature,
        Long seed,
        Integer maxTokens,
        Duration timeout) {
    public ModelRequest {
        messages = List.copyOf(messages);
        tools = tools == null ? List.of() : List.copyOf(tools);
    }
}
