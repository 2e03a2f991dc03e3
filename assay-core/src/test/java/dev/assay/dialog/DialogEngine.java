package dev.assay.dialog;

import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.run.Engine;
import dev.assay.run.RunHandle;
import dev.assay.run.RunListener;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Runs a dialog evaluation through the engine, as {@code assay dialog run} does, with a SQLite database in the run
 * directory: a second run with the same run id and directory resumes the first.
 */
final class DialogEngine {
    private DialogEngine() {}

    /**
     * What a dialog run left.
     *
     * @param run its final record
     * @param items its stored items, in dataset order
     * @param computed the manifest and metrics it computed
     */
    public record Result(Run run, List<Item> items, DialogWorkload.Computed computed) {
        Scoring.Result scores() {
            return computed.scores();
        }

        RunManifest manifest() {
            return computed.manifest();
        }
    }

    static Result run(Dataset dataset, DialogSubject subject, DialogRunConfig config, Path runDirectory) {
        return run(dataset, subject, config, runDirectory, Optional.empty());
    }

    static Result run(
            Dataset dataset,
            DialogSubject subject,
            DialogRunConfig config,
            Path runDirectory,
            Optional<ExplainabilityJudge> judge) {
        Path database = runDirectory.resolve("assay.db");
        try {
            java.nio.file.Files.createDirectories(runDirectory);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        try (Store store = Stores.open("jdbc:sqlite:" + database)) {
            var workload = new DialogWorkload(dataset, subject, config, runDirectory, judge, "", null);
            var engine = new Engine(store);
            RunHandle handle = store.findRun(config.runId()).isPresent()
                    ? engine.resume(workload, false, RunListener.NONE)
                    : engine.start(workload, RunListener.NONE);
            Run run = handle.await();
            return new Result(
                    run,
                    store.listItems(run.runId(), 0, Integer.MAX_VALUE),
                    workload.computed().orElseThrow());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
