package dev.assay.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Problem;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.score.Scores;
import dev.assay.score.Weights;
import dev.assay.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ends the runs whose process died: a run stored as running that has given no sign of life for longer than the silence
 * allowed (the engine beats every {@link Engine#HEARTBEAT}) becomes {@code interrupted}, its counts and scores
 * recomputed from the items it stored, so they equal what is kept and the run can be deleted. Front ends call it when
 * they open the store.
 */
public final class SilentRuns {
    /** The default silence: six missed heartbeats, far beyond a slow write or a paused JVM. */
    public static final Duration DEFAULT_SILENCE = Duration.ofSeconds(60);

    private static final int PAGE = 500;

    private SilentRuns() {}

    /** {@return the runs ended as interrupted, in their final form} */
    public static List<Run> interrupt(Store store, Duration silence) {
        var ended = new ArrayList<Run>();
        for (String runId : store.silentRuns(Instant.now().minus(silence))) {
            store.findRun(runId)
                    .filter(run -> run.status() == RunStatus.RUNNING)
                    .ifPresent(run -> {
                        Run interrupted = recounted(store, run, silence);
                        store.updateRun(interrupted);
                        ended.add(interrupted);
                    });
        }
        return ended;
    }

    private static Run recounted(Store store, Run run, Duration silence) {
        Metric.Tally tally = WeightedScore.tally(weights(run.config()));
        var statuses = new ArrayList<ItemStatus>();
        for (int offset = 0; ; offset += PAGE) {
            List<Item> page = store.listItems(run.runId(), offset, PAGE);
            for (Item item : page) {
                statuses.add(item.status());
                tally.accept(item);
            }
            if (page.size() < PAGE) {
                break;
            }
        }
        Scores scores = tally.result();
        Counts counts = Counts.of(run.counts().total(), statuses);
        Instant now = Instant.now();
        Problem problem = Problem.of(
                        "run.process_died",
                        "the process running this run stopped without ending it "
                                + "(no sign of life for " + silence.toSeconds()
                                + " s: killed, out of memory, power lost or "
                                + "database gone); its " + statuses.size() + " finished items are kept")
                .withDetail("stored", statuses.size());
        return run.withProgress(
                RunStatus.INTERRUPTED,
                scores.dimensionScores(),
                scores.total(),
                counts,
                now,
                Duration.between(run.startedAt(), now).toMillis() / 1000.0,
                problem);
    }

    /** The weights the run was scored with, as its configuration snapshot records them. */
    private static Weights weights(JsonNode config) {
        Map<String, Double> byDimension = new LinkedHashMap<>();
        config.path("weights")
                .properties()
                .forEach(entry ->
                        byDimension.put(entry.getKey(), entry.getValue().asDouble()));
        Weights.Scoring scoring = config.path("scoring").isTextual()
                ? Weights.Scoring.of(config.path("scoring").asText())
                : Weights.Scoring.ASSAY;
        return byDimension.isEmpty() ? Weights.preset(scoring) : new Weights(byDimension, scoring);
    }
}
