package dev.assay.run;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.store.Store;

/**
 * Runs that no process runs any more ({@code interrupted}: killed, out of memory, database gone) can be resumed, or
 * given up: cancelled like a run stopped by its user, its finished items kept. Front ends (the CLI's {@code runs
 * cancel}, the API's cancel of a run no server runs) call it. Thread-safe (stateless).
 */
public final class InterruptedRuns {
    private InterruptedRuns() {}

    /**
     * {@return an interrupted run cancelled, as it is now stored} Its counts and scores stay those of its stored items,
     * and it can still be resumed or deleted, as any cancelled run.
     *
     * @throws AssayException {@code run.not_found}; {@code run.still_running} for a run whose process is alive (stop
     *     that process, or cancel it where it runs); {@code run.not_running} for a run that ended otherwise
     */
    public static Run cancel(Store store, String runId) {
        Run run = store.findRun(runId)
                .orElseThrow(() -> new AssayException(
                        Problem.of("run.not_found", "no run " + runId).withDetail("run_id", runId)));
        if (run.status() == RunStatus.RUNNING) {
            throw new AssayException(Problem.of(
                            "run.still_running",
                            "run " + runId + " is running in another process: stop that process, or cancel the run "
                                    + "where it runs")
                    .withDetail("run_id", runId));
        }
        if (run.status() != RunStatus.INTERRUPTED) {
            throw new AssayException(Problem.of(
                            "run.not_running",
                            "run " + runId + " has already ended "
                                    + run.status().wireName())
                    .withDetail("run_id", runId));
        }
        Run cancelled = run.withProgress(
                RunStatus.CANCELLED,
                run.dimensionScores(),
                run.totalScore(),
                run.counts(),
                run.finishedAt(),
                run.elapsedS(),
                Problem.of(
                                "run.cancelled",
                                "cancelled after it was interrupted; its "
                                        + run.counts().completed() + " finished items are kept")
                        .withDetail(
                                "interrupted_by",
                                run.error() == null ? "" : run.error().type()));
        if (!store.updateRunIf(cancelled, RunStatus.INTERRUPTED)) {
            // Resumed (or ended) by another process since it was read: that process's record stands.
            return cancel(store, runId);
        }
        return cancelled;
    }
}
