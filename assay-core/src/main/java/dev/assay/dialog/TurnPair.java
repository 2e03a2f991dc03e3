package dev.assay.dialog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Objects;

/**
 * One user→assistant pair of a dataset dialog, after alignment (docs/dialog-metrics.md §2.1).
 *
 * @param turnPairId 1-based pair number
 * @param userTurnAbsIdx 0-based position of the user turn in the dialog's {@code turns}
 * @param gtAssistantAbsIdx 0-based position of the answering assistant turn
 * @param userText the user's text; empty when absent
 * @param gtAssistantText the reference assistant text; empty when absent
 * @param gtTurnTags the assistant turn's {@code turn_tags}, or an empty object when it has none
 */
public record TurnPair(
        int turnPairId,
        int userTurnAbsIdx,
        int gtAssistantAbsIdx,
        String userText,
        String gtAssistantText,
        JsonNode gtTurnTags) {
    public TurnPair {
        userText = Objects.requireNonNullElse(userText, "");
        gtAssistantText = Objects.requireNonNullElse(gtAssistantText, "");
        gtTurnTags = gtTurnTags == null ? JsonNodeFactory.instance.objectNode() : gtTurnTags.deepCopy();
    }
}
