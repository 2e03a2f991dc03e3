package dev.assay.target;

import java.util.List;
import java.util.Objects;

/**
 * One message of a conversation.
 *
 * @param role       {@code system}, {@code user}, {@code assistant} or {@code tool}
 * @param content    the text; empty when the message only carries tool calls
 * @param toolCalls  tool calls an assistant message requested; empty otherwise
 * @param toolCallId for a {@code tool} message, the call it answers; null otherwise
 */
public record ChatMessage(String role, String content, List<ToolCallRequest> toolCalls, String toolCallId) {
    public ChatMessage {
        Objects.requireNonNull(role, "role");
        content = content == null ? "" : content;
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    }

    public static ChatMessage user(String content) {
        return new ChatMessage("user", content, List.of(), null);
    }

    public static ChatMessage assistant(String content) {
        return new ChatMessage("assistant", content, List.of(), null);
    }

    public static ChatMessage system(String content) {
        return new ChatMessage("system", content, List.of(), null);
    }
}
