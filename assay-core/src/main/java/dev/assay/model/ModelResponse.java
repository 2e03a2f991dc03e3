package dev.assay.model;

import dev.assay.transcript.Usage;
import java.util.List;

/**
 * What a chat model answered.
 *
 * @param text the visible text; empty when the model only called tools
 * @param reasoning separate reasoning content where the API returns it; empty otherwise
 * @param toolCalls native tool calls; empty in text mode (they are parsed from {@code text} instead)
 * @param usage token counts
 * @param finishReason the provider's stop reason ({@code stop}, {@code tool_calls}, {@code length}...)
 */
public record ModelResponse(
        String text, String reasoning, List<ToolCallRequest> toolCalls, Usage usage, String finishReason) {
    public ModelResponse {
        text = text == null ? "" : text;
        reasoning = reasoning == null ? "" : reasoning;
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        usage = usage == null ? Usage.NONE : usage;
        finishReason = finishReason == null ? "" : finishReason;
    }
}
