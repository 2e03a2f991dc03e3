package dev.assay.transcript;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Problem;
import java.time.Instant;

/**
 * What happened while a target worked on a case, in order. The JSON {@code type} names are stored and never renamed.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = TranscriptEvent.ModelTurn.class, name = "model_turn"),
    @JsonSubTypes.Type(value = TranscriptEvent.ToolCall.class, name = "tool_call"),
    @JsonSubTypes.Type(value = TranscriptEvent.ToolOutput.class, name = "tool_output"),
    @JsonSubTypes.Type(value = TranscriptEvent.FinalAnswer.class, name = "final_answer"),
    @JsonSubTypes.Type(value = TranscriptEvent.SubjectError.class, name = "target_error"),
    @JsonSubTypes.Type(value = TranscriptEvent.UserTurn.class, name = "user_turn"),
})
public sealed interface TranscriptEvent {
    /** {@return when the event was recorded} */
    Instant at();

    /**
     * One model response.
     *
     * @param text the visible text as the model wrote it (tool-call markup included in text mode)
     * @param reasoning separate reasoning content when the API returns it; empty otherwise
     * @param usage token counts; zeros when the API reports none
     */
    record ModelTurn(Instant at, String text, String reasoning, Usage usage) implements TranscriptEvent {
        public ModelTurn {
            text = text == null ? "" : text;
            reasoning = reasoning == null ? "" : reasoning;
            usage = usage == null ? Usage.NONE : usage;
        }
    }

    /**
     * A tool call the system under test made.
     *
     * @param callId the call's id (from the API, or generated); pairs it with its {@link ToolOutput}
     * @param tool the canonical tool name (aliases resolved through {@code ToolNames})
     * @param rawName the name exactly as the model wrote it
     * @param arguments the arguments object; a non-object payload is wrapped as {@code {"raw": ...}}
     */
    record ToolCall(Instant at, String callId, String tool, String rawName, JsonNode arguments)
            implements TranscriptEvent {}

    /**
     * The result of a tool call.
     *
     * @param callId the id of the call it answers
     * @param tool the canonical tool name
     * @param ok whether the tool succeeded
     * @param output what the tool returned (possibly truncated)
     * @param error why it failed; null when ok
     */
    record ToolOutput(Instant at, String callId, String tool, boolean ok, String output, Problem error)
            implements TranscriptEvent {}

    /**
     * The answer the system under test gave as final (a {@code final_answer} tool call, a {@code final} event, or the
     * last model text without tool calls).
     */
    record FinalAnswer(Instant at, String text) implements TranscriptEvent {}

    /** The target failed (timeout, HTTP error, malformed response, an {@code error} event). */
    record SubjectError(Instant at, Problem problem) implements TranscriptEvent {}

    /**
     * One message of the simulated user in a conversation case, as the user model wrote it (the stop token included).
     *
     * @param text the message
     * @param usage the user model's token counts; not the system under test's, so not in {@link Transcript#usage()}
     */
    record UserTurn(Instant at, String text, Usage usage) implements TranscriptEvent {
        public UserTurn {
            text = text == null ? "" : text;
            usage = usage == null ? Usage.NONE : usage;
        }
    }
}
