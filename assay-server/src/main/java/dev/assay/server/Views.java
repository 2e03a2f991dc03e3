package dev.assay.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.Run;
import java.time.Instant;
import java.util.Map;

/** The JSON shapes the API sends besides the stored records themselves. */
final class Views {
    private static final int PROMPT_PREVIEW = 180;

    private Views() {}

    /** An item without its transcript: what lists and the live log show. The full item is one request away. */
    static ObjectNode itemSummary(Item item) {
        ObjectNode node = (ObjectNode) Json.tree(item);
        node.remove("transcript");
        return node;
    }

    /**
     * The {@code eval_progress} payload: counts in the plan's names plus ours, scores, and the case or dialog that just
     * started or moved on.
     *
     * @param currentId the item that just started or moved on, or null
     * @param prompt its prompt (shortened here), or null to leave it out
     */
    static ObjectNode progress(Run run, String currentId, String prompt) {
        Counts counts = run.counts();
        ObjectNode node = Json.object();
        node.put("run_id", run.runId());
        node.put("status", run.status().wireName());
        node.put("completed", counts.completed());
        node.put("total", counts.total());
        node.put("passed", counts.passed());
        node.put("failed", counts.failed());
        node.put("partial", counts.partial());
        node.put("skipped", counts.skipped());
        node.put("errors", counts.error());
        node.put("cancelled", counts.cancelled());
        node.set("dimension_scores", Json.tree(run.dimensionScores()));
        node.put("total_score", run.totalScore());
        node.put("elapsed_s", run.elapsedS());
        if (currentId != null) {
            node.put("current_case_id", currentId);
        }
        if (prompt != null) {
            node.put("current_prompt", prompt.length() > PROMPT_PREVIEW ? prompt.substring(0, PROMPT_PREVIEW) : prompt);
        }
        return node;
    }

    /**
     * A run in the reference server's record shape (docs/api.md, "Reference aliases"): its counter names, epoch-second
     * times and scores on 0..100, on top of Assay's fields.
     */
    static ObjectNode wunderRun(Run run) {
        ObjectNode node = (ObjectNode) Json.tree(run);
        Counts counts = run.counts();
        node.put("case_count", counts.total());
        node.put("passed_count", counts.passed());
        node.put("failed_count", counts.failed() + counts.partial());
        node.put("skipped_count", counts.skipped() + counts.cancelled());
        node.put("error_count", counts.error());
        node.put("started_time", epochSeconds(run.startedAt()));
        node.put("finished_time", epochSeconds(run.finishedAt()));
        node.put("total_score", run.totalScore() == null ? null : run.totalScore() * 100);
        ObjectNode dimensions = node.putObject("dimension_scores");
        for (Map.Entry<String, Double> entry : run.dimensionScores().entrySet()) {
            dimensions.put(entry.getKey(), entry.getValue() * 100);
        }
        node.put("error", run.error() == null ? null : run.error().message());
        return node;
    }

    /** An item in the reference server's record shape: epoch-second times, the error as text. */
    static ObjectNode wunderItem(Item item) {
        ObjectNode node = itemSummary(item);
        node.put("started_time", epochSeconds(item.startedAt()));
        node.put("finished_time", epochSeconds(item.finishedAt()));
        node.put("error", item.error() == null ? null : item.error().message());
        return node;
    }

    private static Double epochSeconds(Instant instant) {
        return instant == null ? null : instant.toEpochMilli() / 1000.0;
    }
}
