package dev.assay.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One message of a chat conversation, provider-neutral.
 *
 * @param role system, user, assistant or tool
 * @param content the text; empty for an assistant message that only calls tools
 * @param toolCalls tool calls an assistant message made (native mode); empty otherwise
 * @param toolCallId for a tool message: the id of the call it answers; null otherwise
 */
public record ChatMessage(Role role, String content, List<ToolCallRequest> toolCalls, String toolCallId) {

    /** Who speaks. */
    public enum Role {
        SYSTEM,
        USER,
        ASSISTANT,
        TOOL;

        @JsonValue
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public ChatMessage {
        Objects.requireNonNull(role, "role");
        content = content == null ? "" : content;
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    }

    public static ChatMessage system(String content) {
        return new ChatMessage(Role.SYSTEM, content, List.of(), null);
    }

    public static ChatMessage user(String content) {
        return new ChatMessage(Role.USER, content, List.of(), null);
    }

    public static ChatMessage assistant(String content, List<ToolCallRequest> toolCalls) {
        return new ChatMessage(Role.ASSISTANT, content, toolCalls, null);
    }

    public static ChatMessage tool(String toolCallId, String content) {
        return new ChatMessage(Role.TOOL, content, List.of(), toolCallId);
    }
}
