package dev.assay.dialog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One replayed dialog, a line of {@code dialog_trace.jsonl} (docs/dialog-metrics.md §1.1), in the reference's key
 * order. The trace embeds the dataset's ground truth ({@code profile_gt}, {@code blueprint}, {@code raw_turns}) because
 * the metrics read it from there, as the reference's do.
 *
 * @param traceVersion always {@code v1}
 * @param runId the run's id
 * @param dialogId the dataset's id, or the loader's placeholder for an invalid line
 * @param datasetIndex 1-based physical line number in the dataset
 * @param scenarioType copied from the dataset; null when absent
 * @param difficulty copied from the dataset; null when absent
 * @param dialogStatus ok, partial, skipped or failed
 * @param validDialog whether the dataset line is a valid dialog
 * @param skipReason the {@link SkipReason} wire name, or null for a valid dialog
 * @param sessionId {@code eval_session_<dialog_id>}
 * @param userId {@code eval_user_<dialog_id>}
 * @param turns the turns in order; empty for skipped and failed dialogs
 * @param dialogError why the dialog failed as a whole; null otherwise
 * @param profileGt the dataset's {@code profile_gt}; an empty object for an invalid dialog
 * @param blueprint the dataset's {@code blueprint}; an empty object for an invalid dialog
 * @param rawTurns the dataset's {@code turns}; an empty array for an invalid dialog
 */
public record DialogTrace(
        String traceVersion,
        String runId,
        String dialogId,
        int datasetIndex,
        String scenarioType,
        String difficulty,
        DialogStatus dialogStatus,
        boolean validDialog,
        String skipReason,
        String sessionId,
        String userId,
        List<TurnTrace> turns,
        String dialogError,
        JsonNode profileGt,
        JsonNode blueprint,
        JsonNode rawTurns) {

    public static final String VERSION = "v1";

    public DialogTrace {
        traceVersion = Objects.requireNonNullElse(traceVersion, VERSION);
        Objects.requireNonNull(dialogId, "dialogId");
        runId = Objects.requireNonNullElse(runId, "");
        Objects.requireNonNull(dialogStatus, "dialogStatus");
        turns = List.copyOf(turns);
        profileGt =
                profileGt == null || profileGt.isNull() ? JsonNodeFactory.instance.objectNode() : profileGt.deepCopy();
        blueprint =
                blueprint == null || blueprint.isNull() ? JsonNodeFactory.instance.objectNode() : blueprint.deepCopy();
        rawTurns = rawTurns == null || rawTurns.isNull() ? JsonNodeFactory.instance.arrayNode() : rawTurns.deepCopy();
    }

    /**
     * {@return the trace of a dialog before replay: no turns, status skipped for an invalid dialog}
     *
     * @param runId the run's id
     * @param dialog the dataset dialog
     * @param status the status to record
     * @param turns the turns played
     * @param error the dialog-level error, or null
     */
    public static DialogTrace of(
            String runId, Dialog dialog, DialogStatus status, List<TurnTrace> turns, String error) {
        return new DialogTrace(
                VERSION,
                runId,
                dialog.dialogId(),
                dialog.datasetIndex(),
                dialog.scenarioType(),
                dialog.difficulty(),
                status,
                dialog.valid(),
                dialog.valid() ? null : dialog.skipReason().wireName(),
                "eval_session_" + dialog.dialogId(),
                "eval_user_" + dialog.dialogId(),
                turns,
                error,
                dialog.profileGt(),
                dialog.blueprint(),
                dialog.rawTurns());
    }

    /**
     * {@return this trace with the dataset dialog's ground truth in place of the embedded one: its {@code profile_gt},
     * {@code blueprint}, {@code turns} and each turn's tags (matched by pair number)}
     *
     * @param dialog the dataset dialog with the same id
     */
    public DialogTrace withGroundTruth(Dialog dialog) {
        var joined = new ArrayList<TurnTrace>();
        for (TurnTrace turn : turns) {
            JsonNode tags = dialog.pairs().stream()
                    .filter(pair -> pair.turnPairId() == turn.turnPairId())
                    .map(TurnPair::gtTurnTags)
                    .findFirst()
                    .orElse(turn.gtTurnTags());
            joined.add(turn.withGtTurnTags(tags));
        }
        return new DialogTrace(
                traceVersion,
                runId,
                dialogId,
                datasetIndex,
                scenarioType,
                difficulty,
                dialogStatus,
                validDialog,
                skipReason,
                sessionId,
                userId,
                joined,
                dialogError,
                dialog.profileGt(),
                dialog.blueprint(),
                dialog.rawTurns());
    }

    /** {@return the trace JSON in the reference's key order} */
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("trace_version", traceVersion);
        node.put("run_id", runId);
        node.put("dialog_id", dialogId);
        node.put("dataset_index", datasetIndex);
        node.put("scenario_type", scenarioType);
        node.put("difficulty", difficulty);
        node.put("dialog_status", dialogStatus.wireName());
        node.put("valid_dialog", validDialog);
        node.put("skip_reason", skipReason);
        node.put("session_id", sessionId);
        node.put("user_id", userId);
        ArrayNode turnArray = node.putArray("turns");
        turns.forEach(turn -> turnArray.add(turn.toJson()));
        node.put("dialog_error", dialogError);
        node.set("profile_gt", profileGt.deepCopy());
        node.set("blueprint", blueprint.deepCopy());
        node.set("raw_turns", rawTurns.deepCopy());
        return node;
    }

    /** {@return the trace read leniently from JSON: absent fields take their empty values} */
    public static DialogTrace fromJson(JsonNode node) {
        var turns = new ArrayList<TurnTrace>();
        node.path("turns").forEach(turn -> turns.add(TurnTrace.fromJson(turn)));
        return new DialogTrace(
                TurnTrace.textOrNull(node.get("trace_version")),
                TurnTrace.textOrNull(node.get("run_id")),
                node.path("dialog_id").asText(""),
                node.path("dataset_index").asInt(0),
                TurnTrace.textOrNull(node.get("scenario_type")),
                TurnTrace.textOrNull(node.get("difficulty")),
                DialogStatus.parse(node.path("dialog_status").asText("")),
                node.path("valid_dialog").asBoolean(false),
                TurnTrace.textOrNull(node.get("skip_reason")),
                TurnTrace.textOrNull(node.get("session_id")),
                TurnTrace.textOrNull(node.get("user_id")),
                turns,
                TurnTrace.textOrNull(node.get("dialog_error")),
                node.get("profile_gt"),
                node.get("blueprint"),
                node.get("raw_turns"));
    }
}
