package dev.assay.dialog.internal;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.dialog.Dialog;
import dev.assay.dialog.DialogRunRecords;
import dev.assay.dialog.DialogTrace;
import dev.assay.dialog.DialogWorkload;
import dev.assay.dialog.Scoring;
import dev.assay.result.Item;
import dev.assay.run.Metric;
import dev.assay.run.MetricContext;
import dev.assay.run.MetricsProfile;
import dev.assay.run.ScoreOptions;
import dev.assay.score.Scores;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * M1–M5 under one metrics profile (docs/dialog-metrics.md), the metric of a dialog run: its name is the profile's
 * ({@code memfin-v1}, {@code memfin-v1-corrected}), so a dialog run finds its metric by its profile. Each stored dialog
 * is turned into its trace with the dataset's ground truth as it is counted, and the metrics are computed over the
 * traces in dataset order, so the numbers are the reference's bit for bit. The dimension scores are each metric's
 * headline and the total their mean ({@link DialogRunRecords}). It applies to dialog runs only. Thread-safe
 * (immutable).
 */
public abstract sealed class ProfileMetric implements Metric permits ProfileMetric.MemfinV1, ProfileMetric.Corrected {
    private final MetricsProfile profile;

    private ProfileMetric(MetricsProfile profile) {
        this.profile = profile;
    }

    /** {@code memfin-v1}: the reference's rules ({@link MetricsProfile#MEMFIN_V1}). */
    public static final class MemfinV1 extends ProfileMetric {
        public MemfinV1() {
            super(MetricsProfile.MEMFIN_V1);
        }
    }

    /** {@code memfin-v1-corrected}: {@link MetricsProfile#CORRECTED}. */
    public static final class Corrected extends ProfileMetric {
        public Corrected() {
            super(MetricsProfile.CORRECTED);
        }
    }

    @Override
    public String name() {
        return profile.wireName();
    }

    /** @throws AssayException {@code metric.not_applicable} for a run that is not a dialog run */
    @Override
    public Scored begin(MetricContext context) {
        if (!(context.workload() instanceof DialogWorkload dialogs)) {
            throw new AssayException(Problem.of(
                            "metric.not_applicable",
                            "the metric " + name() + " is computed over dialog runs only ("
                                    + "assay dialog run --metrics-profile)")
                    .withDetail("metric", name()));
        }
        return new Scored(context.run().runId(), dialogs, profile);
    }

    /**
     * The metrics of one dialog run, with the traces, turn rows and summary they were computed from (what the run's
     * reference files are written from). Not thread-safe.
     */
    public static final class Scored implements Metric.Tally {
        private final String runId;
        private final DialogWorkload workload;
        private final ScoreOptions options;
        private final Map<String, List<Integer>> positionsById = new HashMap<>();
        private final TreeMap<Integer, DialogTrace> traces = new TreeMap<>();
        private Scoring.Result scores;

        private Scored(String runId, DialogWorkload workload, MetricsProfile profile) {
            this.runId = runId;
            this.workload = workload;
            this.options = new ScoreOptions(profile, workload.config().score().blankMemoryKeys());
            List<Dialog> dialogs = workload.dataset().dialogs();
            for (int position = 0; position < dialogs.size(); position++) {
                positionsById
                        .computeIfAbsent(dialogs.get(position).dialogId(), id -> new ArrayList<>())
                        .add(position);
            }
        }

        /** Counts a stored dialog as the trace of each dataset line of its id; a cancelled one has none. */
        @Override
        public void accept(Item item) {
            List<Dialog> dialogs = workload.dataset().dialogs();
            for (int position : positionsById.getOrDefault(item.caseId(), List.of())) {
                Optional<DialogTrace> trace = DialogRunRecords.trace(runId, dialogs.get(position), item);
                if (trace.isPresent()) {
                    traces.put(position, trace.get());
                } else {
                    traces.remove(position);
                }
                scores = null;
            }
        }

        /** {@return M1–M5 headlines as dimension scores ({@code m1}…{@code m5}, {@code m5_judge}), their mean} */
        @Override
        public Scores result() {
            return DialogRunRecords.scores(scores());
        }

        /** {@return the traces, rows and metrics (with the LLM judge's when the run has one) of the dialogs counted} */
        public Scoring.Result scores() {
            if (scores == null) {
                scores = Scoring.score(
                        List.copyOf(traces.values()),
                        Optional.empty(),
                        runId,
                        workload.config().datasetPath(),
                        options,
                        workload.judge());
            }
            return scores;
        }
    }
}
