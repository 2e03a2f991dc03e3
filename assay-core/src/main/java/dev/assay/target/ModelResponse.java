package dev.assay.target;

import dev.assay.transcript.Usage;
import java.util.List;

/**
 * A model's reply.
 *
 * @param text         the answer text; empty when the reply only has tool calls
 * @param reasoning    reasoning text the provider returned; empty when none
 * @param toolCalls    requested tool calls; empty for none
 * @param usage        token counts; {@link Usage#NONE} when unknown
 * @param finishReason the provider's finish reason; empty when unknown
 */
public record ModelResponse(String text, String reasoning, List<ToolCallRequest> toolCalls, Usage usage,
                            String finishReason) {
    public ModelResponse {
        text = text == null ? "" : text;
        reasoning = reasoning == null ? "" : reasoning;
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        usage = usage == null ? Usage.NONE : usage;
        finishReason = finishReason == null ? "" : finishReason;
    }
}
