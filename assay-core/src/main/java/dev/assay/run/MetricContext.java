package dev.assay.run;

import dev.assay.result.Run;
import java.util.Objects;

/**
 * What a metric is told about the run it is computed over. Thread-safe (immutable).
 *
 * @param run the run's record as it stood when the computation began: id, kind, configuration snapshot
 * @param workload the run's work: its weights ({@link Workload#weights()}), and for a workload's own metrics what they
 *     need of it (a dialog dataset's ground truth)
 */
public record MetricContext(Run run, Workload workload) {
    public MetricContext {
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(workload, "workload");
    }
}
