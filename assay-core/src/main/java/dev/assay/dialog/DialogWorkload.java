package dev.assay.dialog;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.dialog.internal.DialogReplayer;
import dev.assay.dialog.internal.ProfileMetric;
import dev.assay.dialog.internal.PythonJson;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import dev.assay.run.ItemContext;
import dev.assay.run.MetricContext;
import dev.assay.run.MetricRegistry;
import dev.assay.run.Workload;
import dev.assay.score.Weights;
import dev.assay.store.Store;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A dialog evaluation as the engine runs it: one item per dataset line, in dataset order, each a dialog replayed turn
 * by turn against the system under test ({@link DialogReplayer}: per-turn time limit and retries), reported to the
 * engine's listeners turn by turn and stored as it ends. Once every dialog has ended (or the run was cancelled), the
 * M1–M5 metrics are computed over the run's stored items with the dataset's ground truth, and the reference files are
 * written into the run directory: {@code dialog_trace.jsonl} in dataset order, {@code turn_eval.jsonl},
 * {@code metrics_summary.json}, {@code report.md} and {@code run_manifest.json} (docs/dialog-metrics.md). Resuming the
 * run keeps the dialogs that ended {@code ok} or {@code skipped} and replays the rest. Thread-safe.
 */
public final class DialogWorkload implements Workload {
    /** The file of the run's traces, one dialog per line. */
    public static final String TRACE_FILE = "dialog_trace.jsonl";

    /**
     * What a dialog run computed.
     *
     * @param manifest the manifest written
     * @param scores traces, rows and metrics
     */
    public record Computed(RunManifest manifest, Scoring.Result scores) {}

    private final Dataset dataset;
    private final DialogSubject subject;
    private final DialogRunConfig config;
    private final Path runDirectory;
    private final Optional<ExplainabilityJudge> judge;
    private final String userId;
    private final ObjectNode request;
    private final DialogReplayer replayer;
    /**
     * The dataset position each item replays: one item per dialog id, the id's last line. The reference keeps one
     * result per id (the last line's) in its dictionaries, and an item is stored under its id: a repeated id made two
     * items of one id, the second overwriting the first, and the run could never count its items right. The stored item
     * counts for every line of its id ({@link ProfileMetric}), so the traces still hold one line per dataset line.
     */
    private final List<Integer> itemPositions;

    private final Map<String, Integer> seqById = new HashMap<>();
    private final AtomicInteger replayedHere = new AtomicInteger();
    private final AtomicReference<Computed> computed = new AtomicReference<>();

    /**
     * @param dataset the dialogs
     * @param subject the system under test
     * @param config the run's settings; its run id is the run's
     * @param runDirectory where the reference files go (created when the run ends)
     * @param judge the LLM judge of {@value ExplainabilityJudge#METRIC}; empty for none (the default)
     * @param userId who runs it; empty when not given
     * @param request the run's description ({@link dev.assay.run.EvalSpec#toJson()}), stored with the run so that it
     *     can be resumed from it; null for a run that is not described so (it is resumed only by running it again under
     *     its id)
     */
    public DialogWorkload(
            Dataset dataset,
            DialogSubject subject,
            DialogRunConfig config,
            Path runDirectory,
            Optional<ExplainabilityJudge> judge,
            String userId,
            ObjectNode request) {
        this.dataset = Objects.requireNonNull(dataset, "dataset");
        this.subject = Objects.requireNonNull(subject, "subject");
        this.config = Objects.requireNonNull(config, "config");
        this.runDirectory = Objects.requireNonNull(runDirectory, "runDirectory");
        this.judge = Objects.requireNonNull(judge, "judge");
        this.userId = userId == null ? "" : userId;
        this.request = request == null ? null : request.deepCopy();
        this.replayer = new DialogReplayer(subject, config);
        List<Dialog> dialogs = dataset.dialogs();
        var lastPosition = new HashMap<String, Integer>();
        for (int position = 0; position < dialogs.size(); position++) {
            lastPosition.put(dialogs.get(position).dialogId(), position);
        }
        this.itemPositions = lastPosition.values().stream().sorted().toList();
        for (int seq = 0; seq < itemPositions.size(); seq++) {
            seqById.put(dialogs.get(itemPositions.get(seq)).dialogId(), seq);
        }
    }

    /** {@return the dialogs, in dataset order} */
    public Dataset dataset() {
        return dataset;
    }

    /** {@return the run's settings} */
    public DialogRunConfig config() {
        return config;
    }

    /** {@return the LLM judge of {@value ExplainabilityJudge#METRIC}; empty for none} */
    public Optional<ExplainabilityJudge> judge() {
        return judge;
    }

    /** {@return the metrics and manifest, once the run has ended} */
    public Optional<Computed> computed() {
        return Optional.ofNullable(computed.get());
    }

    @Override
    public String requestedRunId() {
        return config.runId();
    }

    @Override
    public Run newRun(String runId, Instant started) {
        return new Run(
                runId,
                RunKind.DIALOG,
                userId,
                config.modelName(),
                "",
                RunStatus.RUNNING,
                datasetName(config.datasetPath()),
                "",
                DialogRunRecords.config(
                        manifest(started, started, 0, Counters.of(List.of())).toJson(), request),
                List.of(),
                Map.of(),
                null,
                Counts.of(itemCount(), List.of()),
                started,
                null,
                0,
                null);
    }

    /** {@return one item per dialog id} (a dataset's lines, unless an id is repeated) */
    @Override
    public int itemCount() {
        return itemPositions.size();
    }

    @Override
    public int concurrency() {
        return config.workersDialog();
    }

    @Override
    public Weights weights() {
        return Weights.defaults();
    }

    @Override
    public WorkItem item(int seq) {
        Dialog dialog = dataset.dialogs().get(itemPositions.get(seq));
        String prompt =
                dialog.pairs().isEmpty() ? "" : dialog.pairs().getFirst().userText();
        return new WorkItem(dialog.dialogId(), prompt, context -> run(dialog, seq, context));
    }

    private Item run(Dialog dialog, int seq, ItemContext context) {
        Instant started = Instant.now();
        DialogTrace trace = replayer.replay(dialog, context.steps(), context.responses());
        replayedHere.incrementAndGet();
        // A cancel interrupts the turn in flight and the dialog stops there: it is not a replayed dialog, it runs again
        // when the run is resumed. The interrupt is cleared so that the item can be stored.
        if (Thread.interrupted() && context.cancelled().getAsBoolean()) {
            return cancelled(context.runId(), seq, trace, started);
        }
        Scoring.Result own =
                Scoring.score(List.of(trace), Optional.empty(), context.runId(), config.datasetPath(), config.score());
        return DialogRunRecords.item(context.runId(), seq, trace, own, started, Instant.now());
    }

    /** Keeps the dialogs that ended {@code ok} or {@code skipped}, as the reference does: the others are replayed. */
    @Override
    public boolean keptOnResume(Item item, boolean retryErrors) {
        return item.status() == ItemStatus.PASSED || item.status() == ItemStatus.SKIPPED;
    }

    /**
     * Computes the run's metric, the metrics profile's ({@link ProfileMetric}, found by name), over its stored dialogs
     * and writes the reference files.
     *
     * @throws AssayException {@code dialog.run_dir_unwritable}, or {@code dialog.invalid_metrics_profile} when a
     *     plug-in took the profile's name with a metric that is not a profile's
     */
    @Override
    public Run conclude(Run ended, Store store) {
        String profile = config.score().profile().wireName();
        if (!(plugins().metrics().get(profile, "metrics_profile").begin(new MetricContext(ended, this))
                instanceof ProfileMetric.Scored tally)) {
            throw new AssayException(Problem.of(
                    "dialog.invalid_metrics_profile",
                    "the metric named " + profile + " on the class path is not a dialog metrics profile"));
        }
        MetricRegistry.tally(store, ended.runId(), List.of(tally));
        Instant endedAt = ended.finishedAt() != null ? ended.finishedAt() : Instant.now();
        Scoring.Result scores = tally.scores();
        var manifest = manifest(
                ended.startedAt(),
                endedAt,
                Math.max(0, scores.traces().size() - replayedHere.get()),
                scores.summary().counters());
        var result = new Computed(manifest, scores);
        try {
            Files.createDirectories(runDirectory);
            TraceFile.write(runDirectory.resolve(TRACE_FILE), scores.traces());
            Scoring.write(runDirectory, scores);
            Files.writeString(
                    runDirectory.resolve(RunManifest.FILE),
                    PythonJson.indented(manifest.toJson()),
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssayException(
                    Problem.of("dialog.run_dir_unwritable", "cannot write the run directory " + runDirectory + ": " + e)
                            .withDetail("path", runDirectory.toString()),
                    e);
        }
        if (scores.judge().isPresent()) {
            // The judge grades the run's turns at the end: each dialog's item gets its grades.
            for (DialogTrace trace : scores.traces()) {
                store.upsertItem(DialogRunRecords.item(
                        ended.runId(), seqById.get(trace.dialogId()), trace, scores, ended.startedAt(), endedAt));
            }
        }
        computed.set(result);
        return DialogRunRecords.run(ended, result, request);
    }

    private Item cancelled(String runId, int seq, DialogTrace trace, Instant started) {
        Item replayed = DialogRunRecords.item(
                runId,
                seq,
                trace,
                Scoring.score(List.of(), Optional.empty(), runId, config.datasetPath(), config.score()),
                started,
                Instant.now());
        return new Item(
                replayed.runId(),
                replayed.caseId(),
                replayed.seq(),
                replayed.dimension(),
                ItemStatus.CANCELLED,
                0.0,
                replayed.maxScore(),
                replayed.weight(),
                replayed.prompt(),
                replayed.finalAnswer(),
                replayed.toolCalls(),
                replayed.checkerDetail(),
                Problem.of("run.cancelled", "the run was cancelled while this dialog was replayed"),
                replayed.transcript(),
                replayed.startedAt(),
                replayed.finishedAt(),
                replayed.elapsedS());
    }

    private RunManifest manifest(Instant startedAt, Instant endedAt, int resumed, Counters counters) {
        return new RunManifest(
                config,
                subject.name(),
                startedAt,
                endedAt,
                resumed,
                counters,
                config.fingerprint(subject.name()),
                judge.map(ExplainabilityJudge::describe).orElse(null));
    }

    private static String datasetName(String path) {
        String normalised = path.replace('\\', '/');
        return normalised.substring(normalised.lastIndexOf('/') + 1);
    }
}
