package dev.assay.dialog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Dialog counts of a run (docs/dialog-metrics.md §2.7).
 *
 * @param totalDialogs traces
 * @param validDialogs traces of valid dialogs
 * @param skippedDialogs traces with status skipped
 * @param failedDialogs traces with status failed ({@code partial} dialogs are counted in none of these)
 * @param totalTurnPairs turns over all traces
 */
public record Counters(int totalDialogs, int validDialogs, int skippedDialogs, int failedDialogs, int totalTurnPairs) {

    /** {@return the counters of these traces} */
    public static Counters of(List<DialogTrace> traces) {
        return new Counters(
                traces.size(),
                (int) traces.stream().filter(DialogTrace::validDialog).count(),
                (int) traces.stream()
                        .filter(t -> t.dialogStatus() == DialogStatus.SKIPPED)
                        .count(),
                (int) traces.stream()
                        .filter(t -> t.dialogStatus() == DialogStatus.FAILED)
                        .count(),
                traces.stream().mapToInt(t -> t.turns().size()).sum());
    }

    /** {@return the JSON object as written in summaries and manifests} */
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("total_dialogs", totalDialogs);
        node.put("valid_dialogs", validDialogs);
        node.put("skipped_dialogs", skippedDialogs);
        node.put("failed_dialogs", failedDialogs);
        node.put("total_turn_pairs", totalTurnPairs);
        return node;
    }

    /** {@return counters read from JSON; absent fields are 0} */
    public static Counters fromJson(JsonNode node) {
        return new Counters(
                node.path("total_dialogs").asInt(),
                node.path("valid_dialogs").asInt(),
                node.path("skipped_dialogs").asInt(),
                node.path("failed_dialogs").asInt(),
                node.path("total_turn_pairs").asInt());
    }
}
