package dev.assay.dialog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One line of a dialog dataset, valid or not.
 *
 * @param datasetIndex 1-based physical line number in the dataset file (blank lines count)
 * @param dialogId the line's {@code dialog_id}; {@code invalid_json_line_<n>} for a line that is not a JSON object and
 *     {@code dialog_<n>} for an object without an id
 * @param source the parsed object as read; an empty object for an invalid JSON line
 * @param skipReason why the dialog is not replayed; null for a valid dialog
 * @param pairs the aligned user→assistant pairs; empty for an invalid dialog
 */
public record Dialog(
        int datasetIndex, String dialogId, ObjectNode source, SkipReason skipReason, List<TurnPair> pairs) {
    public Dialog {
        Objects.requireNonNull(dialogId, "dialogId");
        source = source == null ? JsonNodeFactory.instance.objectNode() : source.deepCopy();
        pairs = List.copyOf(pairs);
    }

    /**
     * Classifies and aligns a parsed dataset line (contract §3; docs/dialog-metrics.md §2.1).
     *
     * @param datasetIndex the 1-based line number
     * @param parsed the line's JSON, or null when it did not parse
     */
    public static Dialog of(int datasetIndex, JsonNode parsed) {
        if (parsed == null || !parsed.isObject()) {
            return new Dialog(
                    datasetIndex, "invalid_json_line_" + datasetIndex, null, SkipReason.INVALID_JSON, List.of());
        }
        var object = (ObjectNode) parsed;
        JsonNode id = object.get("dialog_id");
        String dialogId = id == null || id.isNull() || id.asText().isEmpty() ? "dialog_" + datasetIndex : id.asText();
        JsonNode turns = object.get("turns");
        if (turns == null || !turns.isArray() || turns.isEmpty()) {
            return new Dialog(datasetIndex, dialogId, object, SkipReason.MISSING_TURNS, List.of());
        }
        JsonNode profile = object.get("profile_gt");
        if (profile == null || !profile.isObject()) {
            return new Dialog(datasetIndex, dialogId, object, SkipReason.MISSING_PROFILE_GT, List.of());
        }
        List<TurnPair> pairs = align(turns);
        if (pairs.isEmpty()) {
            return new Dialog(datasetIndex, dialogId, object, SkipReason.INVALID_TURN_SEQUENCE, List.of());
        }
        if (pairs.stream().noneMatch(pair -> pair.gtTurnTags().isObject())) {
            return new Dialog(datasetIndex, dialogId, object, SkipReason.MISSING_GT_TAGS, List.of());
        }
        return new Dialog(datasetIndex, dialogId, object, null, pairs);
    }

    /**
     * Pairs each user turn with the next assistant turn. As in the reference, further user turns before that assistant
     * are ignored (only the first of consecutive user turns is used), a trailing user turn without an answer is
     * dropped, and missing or empty tags become an empty object.
     */
    public static List<TurnPair> align(JsonNode turns) {
        var pairs = new ArrayList<TurnPair>();
        int i = 0;
        while (i < turns.size()) {
            if (!"user".equals(role(turns.get(i)))) {
                i++;
                continue;
            }
            int j = i + 1;
            while (j < turns.size() && !"assistant".equals(role(turns.get(j)))) {
                j++;
            }
            if (j >= turns.size()) {
                break;
            }
            JsonNode tags = turns.get(j).get("turn_tags");
            pairs.add(new TurnPair(
                    pairs.size() + 1,
                    i,
                    j,
                    text(turns.get(i)),
                    text(turns.get(j)),
                    truthy(tags) ? tags : JsonNodeFactory.instance.objectNode()));
            i = j + 1;
        }
        return pairs;
    }

    /** {@return whether the dialog is replayed and scored} */
    public boolean valid() {
        return skipReason == null;
    }

    /** {@return {@code scenario_type}, or null when absent} */
    public String scenarioType() {
        return textOrNull(source.get("scenario_type"));
    }

    /** {@return {@code difficulty}, or null when absent} */
    public String difficulty() {
        return textOrNull(source.get("difficulty"));
    }

    /** {@return {@code profile_gt} when it is an object, otherwise an empty object} */
    public ObjectNode profileGt() {
        JsonNode profile = source.get("profile_gt");
        return profile != null && profile.isObject() && valid()
                ? (ObjectNode) profile.deepCopy()
                : JsonNodeFactory.instance.objectNode();
    }

    /** {@return {@code blueprint} when it is an object and the dialog is valid, otherwise an empty object} */
    public ObjectNode blueprint() {
        JsonNode blueprint = source.get("blueprint");
        return blueprint != null && blueprint.isObject() && valid()
                ? (ObjectNode) blueprint.deepCopy()
                : JsonNodeFactory.instance.objectNode();
    }

    /** {@return the dataset's {@code turns} for a valid dialog, otherwise an empty array} */
    public ArrayNode rawTurns() {
        JsonNode turns = source.get("turns");
        return turns != null && turns.isArray() && valid()
                ? (ArrayNode) turns.deepCopy()
                : JsonNodeFactory.instance.arrayNode();
    }

    public static String text(JsonNode turn) {
        JsonNode text = turn == null ? null : turn.get("text");
        return text == null || text.isNull() ? "" : text.asText();
    }

    private static String role(JsonNode turn) {
        JsonNode role = turn == null ? null : turn.get("role");
        return role == null ? null : role.asText();
    }

    private static String textOrNull(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }

    /** Python truthiness, which decides whether the reference keeps a turn's tags or uses {@code {}}. */
    private static boolean truthy(JsonNode node) {
        if (node == null || node.isNull()) {
            return false;
        }
        if (node.isContainerNode()) {
            return !node.isEmpty();
        }
        if (node.isTextual()) {
            return !node.textValue().isEmpty();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        return !node.isNumber() || node.doubleValue() != 0.0;
    }
}
