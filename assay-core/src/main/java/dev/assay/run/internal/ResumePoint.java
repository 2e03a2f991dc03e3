package dev.assay.run.internal;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.run.Workload;
import dev.assay.store.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where a stored run that ended without finishing continues: its record, running again with the counts of the items it
 * keeps, and those items ({@link Workload#keptOnResume}); the other cases run again under the same run id.
 *
 * @param run the run's record as it continues, not yet stored
 * @param kept the stored items that stand
 */
public record ResumePoint(Run run, List<Item> kept) {
    /** Items are read a page at a time, so that resuming a run of any size keeps only the items that stand. */
    private static final int PAGE = 500;

    /**
     * {@return where the workload's run continues, read from the store}
     *
     * @param workload the run's work, rebuilt from its stored description; it carries the run id
     * @param retryErrors whether items in {@code error} run again
     * @throws AssayException {@code run.not_found}, {@code run.still_running} for a run that has not ended, or the
     *     workload's refusal ({@link Workload#resumeRefusal}: {@code run.suite_changed})
     */
    public static ResumePoint of(Store store, Workload workload, boolean retryErrors) {
        String runId = Objects.requireNonNull(workload.requestedRunId(), "the run id of the run to resume");
        Run stored = store.findRun(runId)
                .orElseThrow(() -> new AssayException(Problem.of("run.not_found", "no run " + runId + " is stored")
                        .withDetail("run_id", runId)));
        if (stored.status() == RunStatus.RUNNING) {
            throw new AssayException(Problem.of(
                            "run.still_running",
                            "run " + runId + " is still running; " + "it can be resumed once it has ended")
                    .withDetail("run_id", runId));
        }
        workload.resumeRefusal(store, stored).ifPresent(problem -> {
            throw new AssayException(problem);
        });
        var kept = new ArrayList<Item>();
        for (int offset = 0; ; offset += PAGE) {
            List<Item> page = store.listItems(runId, offset, PAGE);
            page.stream()
                    .filter(item -> workload.keptOnResume(item, retryErrors))
                    .forEach(kept::add);
            if (page.size() < PAGE) {
                break;
            }
        }
        Run run = stored.withProgress(
                RunStatus.RUNNING,
                stored.dimensionScores(),
                stored.totalScore(),
                Counts.of(workload.itemCount(), kept.stream().map(Item::status).toList()),
                null,
                stored.elapsedS(),
                null);
        return new ResumePoint(run, List.copyOf(kept));
    }
}
