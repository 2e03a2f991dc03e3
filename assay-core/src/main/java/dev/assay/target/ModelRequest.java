package dev.assay.target;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;

/**
 * One chat-completion request.
 *
 * @param messages    the conversation so far, oldest first
 * @param tools       tools offered; empty for none
 * @param temperature sampling temperature; null for the provider default
 * @param seed        sampling seed; null for none
 * @param maxTokens   output token limit; null for the provider default
 * @param timeout     how long to wait for the reply; null for the model's default
 */
public record ModelRequest(List<ChatMessage> messages, List<ToolSpec> tools, Double temperature, Long seed,
                           Integer maxTokens, Duration timeout) {
    public ModelRequest {
        messages = List.copyOf(messages);
        tools = tools == null ? List.of() : List.copyOf(tools);
    }
}
