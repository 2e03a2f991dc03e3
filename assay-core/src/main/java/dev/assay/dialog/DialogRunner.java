package dev.assay.dialog;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Runs a dialog evaluation into a run directory: replays the dataset's dialogs (in parallel, turns in order), appends
 * each finished dialog to {@code dialog_trace.jsonl}, then rewrites it in dataset order and writes
 * {@code turn_eval.jsonl}, {@code metrics_summary.json}, {@code report.md} and {@code run_manifest.json}. Re-running
 * with the same directory resumes: dialogs already complete (status ok or skipped) are kept, the rest are replayed.
 * Thread-safe; one call is one run.
 */
public final class DialogRunner {
    public static final String TRACE_FILE = "dialog_trace.jsonl";

    private DialogRunner() {}

    /**
     * The outcome of a run.
     *
     * @param manifest the manifest written
     * @param scores traces, rows and metrics
     */
    public record Outcome(RunManifest manifest, Scoring.Result scores) {}

    /**
     * Runs (or resumes) a dialog evaluation.
     *
     * @param dataset the dataset
     * @param target the target
     * @param config the run's settings
     * @param runDir the run directory (created if absent)
     * @param progress told of each dialog as it finishes (from worker threads)
     * @throws AssayException {@code dialog.run_dir_unwritable} when the run directory cannot be written
     */
    public static Outcome run(
            Dataset dataset,
            DialogSubject target,
            DialogRunConfig config,
            Path runDir,
            Consumer<DialogTrace> progress) {
        return run(dataset, target, config, runDir, progress, Optional.empty());
    }

    /**
     * Runs (or resumes) a dialog evaluation and, when a judge is given, grades the M5-eligible turns with it
     * ({@value ExplainabilityJudge#METRIC}, written to {@code judge_summary.json} and {@code judge_eval.jsonl}, the
     * judge recorded in the manifest).
     *
     * @param dataset the dataset
     * @param target the target
     * @param config the run's settings
     * @param runDir the run directory (created if absent)
     * @param progress told of each dialog as it finishes (from worker threads)
     * @param judge the LLM judge; empty for none (the default)
     * @throws AssayException {@code dialog.run_dir_unwritable} when the run directory cannot be written
     */
    public static Outcome run(
            Dataset dataset,
            DialogSubject target,
            DialogRunConfig config,
            Path runDir,
            Consumer<DialogTrace> progress,
            Optional<ExplainabilityJudge> judge) {
        try {
            Files.createDirectories(runDir);
            Path traceFile = runDir.resolve(TRACE_FILE);
            List<DialogTrace> earlier =
                    Files.exists(traceFile) ? TraceFile.read(traceFile).traces() : List.of();
            Set<String> complete = new HashSet<>();
            var traces = new LinkedHashMap<String, DialogTrace>();
            for (DialogTrace trace : earlier) {
                if (trace.dialogStatus() == DialogStatus.OK || trace.dialogStatus() == DialogStatus.SKIPPED) {
                    complete.add(trace.dialogId());
                    traces.put(trace.dialogId(), trace);
                }
            }
            Instant startedAt = startedAt(runDir).orElse(Instant.now());
            List<Dialog> todo = dataset.dialogs().stream()
                    .filter(d -> !complete.contains(d.dialogId()))
                    .toList();
            for (DialogTrace trace : replay(todo, target, config, traceFile, progress)) {
                traces.put(trace.dialogId(), trace);
            }
            List<DialogTrace> sorted = TraceFile.sorted(traces.values());
            TraceFile.write(traceFile, sorted);
            Scoring.Result scores = Scoring.score(
                    sorted, Optional.empty(), config.runId(), config.datasetPath(), config.score(), judge);
            Scoring.write(runDir, scores);
            var manifest = new RunManifest(
                    config,
                    target.name(),
                    startedAt,
                    Instant.now(),
                    complete.size(),
                    scores.summary().counters(),
                    config.fingerprint(target.name()),
                    judge.map(ExplainabilityJudge::describe).orElse(null));
            Files.writeString(
                    runDir.resolve(RunManifest.FILE), PythonJson.indented(manifest.toJson()), StandardCharsets.UTF_8);
            return new Outcome(manifest, scores);
        } catch (IOException e) {
            throw new AssayException(
                    Problem.of("dialog.run_dir_unwritable", "cannot write the run directory " + runDir + ": " + e)
                            .withDetail("path", runDir.toString()),
                    e);
        }
    }

    private static List<DialogTrace> replay(
            List<Dialog> dialogs,
            DialogSubject target,
            DialogRunConfig config,
            Path traceFile,
            Consumer<DialogTrace> progress)
            throws IOException {
        var replayer = new DialogReplayer(target, config);
        var appendLock = new Object();
        var futures = new ArrayList<Future<DialogTrace>>();
        try (ExecutorService workers = Executors.newFixedThreadPool(
                config.workersDialog(), Thread.ofVirtual().name("dialog-", 0).factory())) {
            for (Dialog dialog : dialogs) {
                futures.add(workers.submit(() -> {
                    DialogTrace trace = replayer.replay(dialog);
                    // Appended as dialogs finish so that a crash loses nothing; rewritten in dataset order at the end.
                    synchronized (appendLock) {
                        Files.writeString(
                                traceFile,
                                TraceFile.line(trace) + "\n",
                                StandardCharsets.UTF_8,
                                StandardOpenOption.CREATE,
                                StandardOpenOption.APPEND);
                    }
                    progress.accept(trace);
                    return trace;
                }));
            }
        }
        var traces = new ArrayList<DialogTrace>();
        for (int i = 0; i < futures.size(); i++) {
            traces.add(result(futures.get(i), dialogs.get(i), config.runId()));
        }
        return traces;
    }

    private static DialogTrace result(Future<DialogTrace> future, Dialog dialog, String runId) {
        try {
            return future.get();
        } catch (ExecutionException e) {
            return DialogTrace.of(
                    runId, dialog, DialogStatus.FAILED, List.of(), "unhandled_dialog_exception: " + e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return DialogTrace.of(
                    runId, dialog, DialogStatus.FAILED, List.of(), "unhandled_dialog_exception: interrupted");
        }
    }

    private static Optional<Instant> startedAt(Path runDir) {
        Path manifest = runDir.resolve(RunManifest.FILE);
        if (!Files.exists(manifest)) {
            return Optional.empty();
        }
        try {
            JsonNode node = Json.parse(Files.readString(manifest, StandardCharsets.UTF_8));
            return Optional.of(Instant.parse(node.path("started_at").asText()));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
