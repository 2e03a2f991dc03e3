package dev.assay.dialog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * What happened in one turn of a replayed dialog (docs/dialog-metrics.md §1.2). Written in this key order.
 *
 * @param turnPairId 1-based pair number
 * @param userTurnAbsIdx 0-based position of the user turn in the dataset dialog's {@code turns}
 * @param gtAssistantAbsIdx 0-based position of the reference assistant turn
 * @param userText the message sent
 * @param gtAssistantText the reference answer
 * @param gtTurnTags the reference turn's tags ({@code memory_required_keys_gt}, {@code risk_disclosure_required_gt},
 *     {@code compliance_label_gt}, {@code explainability_rubric_gt}); an empty object when none
 * @param predAssistantText the target's answer; empty on error
 * @param latencyMs milliseconds the turn took
 * @param turnStatus ok or error; only ok turns are eligible for M1, M3–M5
 * @param error what went wrong; null for an ok turn
 * @param recall the memory the target reports for this turn ({@code short_term_context}, {@code items[].content},
 *     {@code profile_context}, ...); JSON null when none
 * @param tools tool calls as {@code {tool_name, args, result_excerpt, latency_ms, error}}; an empty array when none
 * @param compliance the target's compliance check ({@code violations}, ...); JSON null when none
 * @param profileSnapshot the user profile the target holds after the turn; JSON null when none
 */
public record TurnTrace(
        int turnPairId,
        int userTurnAbsIdx,
        int gtAssistantAbsIdx,
        String userText,
        String gtAssistantText,
        JsonNode gtTurnTags,
        String predAssistantText,
        double latencyMs,
        TurnStatus turnStatus,
        String error,
        JsonNode recall,
        JsonNode tools,
        JsonNode compliance,
        JsonNode profileSnapshot) {
    public TurnTrace {
        userText = Objects.requireNonNullElse(userText, "");
        gtAssistantText = Objects.requireNonNullElse(gtAssistantText, "");
        gtTurnTags = gtTurnTags == null || gtTurnTags.isNull()
                ? JsonNodeFactory.instance.objectNode()
                : gtTurnTags.deepCopy();
        predAssistantText = Objects.requireNonNullElse(predAssistantText, "");
        Objects.requireNonNull(turnStatus, "turnStatus");
        recall = copyOrNull(recall);
        tools = tools == null || tools.isNull() ? JsonNodeFactory.instance.arrayNode() : tools.deepCopy();
        compliance = copyOrNull(compliance);
        profileSnapshot = copyOrNull(profileSnapshot);
    }

    /** {@return whether the target answered (the reference's {@code turn_status == "ok"})} */
    public boolean ok() {
        return turnStatus == TurnStatus.OK;
    }

    /** {@return a copy with other reference tags (used when the dataset's ground truth replaces the trace's)} */
    public TurnTrace withGtTurnTags(JsonNode tags) {
        return new TurnTrace(
                turnPairId,
                userTurnAbsIdx,
                gtAssistantAbsIdx,
                userText,
                gtAssistantText,
                tags,
                predAssistantText,
                latencyMs,
                turnStatus,
                error,
                recall,
                tools,
                compliance,
                profileSnapshot);
    }

    /** {@return the trace JSON in the reference's key order} */
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("turn_pair_id", turnPairId);
        node.put("user_turn_abs_idx", userTurnAbsIdx);
        node.put("gt_assistant_abs_idx", gtAssistantAbsIdx);
        node.put("user_text", userText);
        node.put("gt_assistant_text", gtAssistantText);
        node.set("gt_turn_tags", gtTurnTags.deepCopy());
        node.put("pred_assistant_text", predAssistantText);
        node.put("latency_ms", latencyMs);
        node.put("turn_status", turnStatus.wireName());
        node.put("error", error);
        node.set("recall", recall.deepCopy());
        node.set("tools", tools.deepCopy());
        node.set("compliance", compliance.deepCopy());
        node.set("profile_snapshot", profileSnapshot.deepCopy());
        return node;
    }

    /** {@return the turn read leniently from trace JSON: absent fields take their empty values} */
    public static TurnTrace fromJson(JsonNode node) {
        return new TurnTrace(
                node.path("turn_pair_id").asInt(0),
                node.path("user_turn_abs_idx").asInt(-1),
                node.path("gt_assistant_abs_idx").asInt(-1),
                textOrNull(node.get("user_text")),
                textOrNull(node.get("gt_assistant_text")),
                node.get("gt_turn_tags"),
                textOrNull(node.get("pred_assistant_text")),
                node.path("latency_ms").asDouble(0.0),
                TurnStatus.parse(
                        node.path("turn_status").asText(node.path("status").asText(""))),
                textOrNull(node.get("error")),
                node.get("recall"),
                node.get("tools"),
                node.get("compliance"),
                node.get("profile_snapshot"));
    }

    static String textOrNull(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }

    private static JsonNode copyOrNull(JsonNode node) {
        return node == null ? NullNode.getInstance() : node.deepCopy();
    }
}
