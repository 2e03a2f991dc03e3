package dev.assay.cli;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.dialog.Dataset;
import dev.assay.dialog.DialogPreparation;
import dev.assay.dialog.DialogRunConfig;
import dev.assay.dialog.DialogWorkload;
import dev.assay.dialog.EvalSummary;
import dev.assay.dialog.ExplainabilityJudge;
import dev.assay.dialog.JudgeScores;
import dev.assay.dialog.MetricResult;
import dev.assay.dialog.Scoring;
import dev.assay.dialog.TraceFile;
import dev.assay.model.ChatModel;
import dev.assay.model.ModelOptions;
import dev.assay.model.RetryPolicy;
import dev.assay.result.Item;
import dev.assay.run.Engine;
import dev.assay.run.EvalSpec;
import dev.assay.run.FieldMapping;
import dev.assay.run.MetricsProfile;
import dev.assay.run.RunHandle;
import dev.assay.run.RunListener;
import dev.assay.run.RunSettings;
import dev.assay.run.ScoreOptions;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code assay dialog}: multi-turn dialog evaluation with the MemFin M1–M5 metrics (docs/dialog.md). Exit codes are
 * those of every command ({@link ExitCodes}): 0 done, 2 invalid usage or input, 3 could not run.
 */
@Command(
        name = "dialog",
        description = "Multi-turn dialog evaluation (MemFin metrics M1-M5).",
        mixinStandardHelpOptions = true,
        subcommands = {DialogCommand.Score.class, DialogCommand.Run.class})
final class DialogCommand implements Callable<Integer> {
    private final Function<ModelOptions, ChatModel> models;

    @Spec
    CommandSpec spec;

    /** @param models creates the chat model described by {@code --model}, {@code --base-url}, {@code --api-key-env} */
    DialogCommand(Function<ModelOptions, ChatModel> models) {
        this.models = Objects.requireNonNull(models, "models");
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return ExitCodes.USAGE;
    }

    /** Options shared by scoring and running. */
    static final class ScoringOptions {
        @Option(
                names = "--metrics-profile",
                paramLabel = "NAME",
                defaultValue = "memfin-v1",
                description =
                        "Metric rules: memfin-v1 (reference, bugs included) or memfin-v1-corrected; default ${DEFAULT-VALUE}.")
        String profile;

        @Option(
                names = "--blank-memory-keys",
                description =
                        "Memory-less baseline: ignore every memory_required_keys_gt, so M1 reports 0.0 with no eligible turn (recorded in the manifest).")
        boolean blankMemoryKeys;

        ScoreOptions toOptions() {
            return new ScoreOptions(MetricsProfile.parse(profile), blankMemoryKeys);
        }
    }

    /** {@code dialog score}: metrics from recorded traces, without calling anything. */
    @Command(
            name = "score",
            mixinStandardHelpOptions = true,
            description =
                    "Compute the metrics of recorded dialog traces and write turn_eval.jsonl, metrics_summary.json and report.md.")
    static final class Score implements Callable<Integer>, EnvironmentFactory.NeedsEnvironment {
        @Spec
        CommandSpec spec;

        @ParentCommand
        DialogCommand parent;

        private Map<String, String> env = Map.of();

        @Option(
                names = "--traces",
                required = true,
                paramLabel = "FILE",
                description = "The dialog_trace.jsonl to score.")
        Path traces;

        @Option(
                names = "--dataset",
                paramLabel = "FILE",
                description =
                        "Dataset whose ground truth replaces the one embedded in the traces (joined on dialog_id).")
        Path dataset;

        @Option(
                names = {"-o", "--out"},
                paramLabel = "DIR",
                description = "Where to write the files; default: the traces file's directory.")
        Path outDir;

        @Option(
                names = "--run-id",
                paramLabel = "ID",
                description = "Run id for the outputs; default: the traces' own.")
        String runId;

        @picocli.CommandLine.Mixin
        ScoringOptions scoring = new ScoringOptions();

        @picocli.CommandLine.Mixin
        JudgeOptionsMixin judgeOptions = new JudgeOptionsMixin();

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            try {
                Path dir = outDir != null
                        ? outDir
                        : Optional.ofNullable(traces.toAbsolutePath().getParent())
                                .orElse(Path.of("."));
                OutputDirectories.requireWritable(spec.commandLine(), "--out", dir);
                ScoreOptions options = scoring.toOptions();
                Optional<ExplainabilityJudge> judge = judgeOptions.judge(parent.models, AssayHome.of(env));
                TraceFile.Contents contents = TraceFile.read(traces);
                requireSomeTrace(contents);
                contents.problems()
                        .forEach(problem -> err.println("warning: " + problem.type() + " line "
                                + problem.details().get("line") + ": " + TerminalText.line(problem.message())));
                Optional<Dataset> joined = Optional.ofNullable(dataset).map(Dataset::load);
                String datasetPath = dataset != null ? dataset.toString() : "";
                Scoring.Result result = Scoring.score(contents.traces(), joined, runId, datasetPath, options, judge);
                Scoring.write(dir, result);
                printSummary(out, result);
                out.println("written: " + dir.resolve(Scoring.SUMMARY_FILE));
                if (result.judge().isPresent()) {
                    out.println("written: " + dir.resolve(JudgeScores.SUMMARY_FILE));
                }
                return ExitCodes.OK;
            } catch (IOException e) {
                throw new AssayException(Problem.of("dialog.output_unwritable", e.toString()), e);
            }
        }

        @Override
        public void environment(Map<String, String> environment) {
            this.env = environment;
        }

        /**
         * A file without a single trace is not a trace file (a dataset, a report, the wrong path): scoring it would
         * "succeed" with no dialog.
         */
        private void requireSomeTrace(TraceFile.Contents contents) {
            if (!contents.traces().isEmpty()) {
                return;
            }
            Problem first =
                    contents.problems().isEmpty() ? null : contents.problems().getFirst();
            String where = first == null
                    ? traces.toString()
                    : traces + ":" + first.details().get("line");
            String why = first == null ? "the file is empty" : first.message();
            Problem problem = Problem.of(
                            "dialog.trace_unreadable",
                            where + ": no dialog trace in the file (" + why
                                    + "); --traces takes the dialog_trace.jsonl of a dialog run")
                    .withDetail("path", traces.toString());
            throw new AssayException(
                    first == null
                            ? problem
                            : problem.withDetail("line", first.details().get("line")));
        }
    }

    /** {@code dialog run}: replay a dataset against a model or an agent service and score it. */
    @Command(
            name = "run",
            mixinStandardHelpOptions = true,
            description = "Replay every valid dialog of a dataset against a model (--model) or an agent service "
                    + "(--agent), turn by turn, and score the run.")
    static final class Run implements Callable<Integer>, EnvironmentFactory.NeedsEnvironment {
        @Spec
        CommandSpec spec;

        private Map<String, String> env = Map.of();

        @ParentCommand
        DialogCommand parent;

        @Parameters(
                index = "0",
                arity = "0..1",
                paramLabel = "DATASET",
                description = "The dialog dataset (JSONL); none with --resume.")
        Path dataset;

        @Option(
                names = "--resume",
                paramLabel = "ID",
                description = "Continue a stored dialog run that ended without finishing from its stored description "
                        + "(as 'assay run --resume'): its ok and skipped dialogs are kept, the others replayed.")
        String resume;

        @picocli.CommandLine.Mixin
        ModelOptionsMixin model = new ModelOptionsMixin();

        @picocli.CommandLine.Mixin
        AgentOptionsMixin agent = new AgentOptionsMixin();

        @Option(
                names = "--field-mapping",
                paramLabel = "<field=pointer,...>",
                description = "With --agent: where the trace's recall, tools, compliance and profile_snapshot are in "
                        + "the agent's turn report, e.g. recall=/memory_recall,compliance= (see docs/dialog.md).")
        String fieldMapping;

        @picocli.CommandLine.Mixin
        DatabaseOption database;

        @Option(
                names = "--run-id",
                paramLabel = "ID",
                description =
                        "Run id; re-using one resumes its run directory. Default: the start time (yyyyMMdd_HHmmss).")
        String runId;

        @Option(
                names = {"-o", "--out"},
                paramLabel = "DIR",
                description = "Parent directory of run directories; default ${DEFAULT-VALUE}.",
                defaultValue = "runs/dialog")
        Path outDir;

        @Option(
                names = "--workers-dialog",
                paramLabel = "N",
                defaultValue = "" + EvalSpec.Dialogs.DEFAULT_CONCURRENCY,
                converter = OptionValues.AtLeastOne.class,
                description = "Dialogs replayed in parallel; default ${DEFAULT-VALUE}.")
        int workersDialog;

        @Option(
                names = "--turn-timeout",
                paramLabel = "SECONDS",
                defaultValue = "" + EvalSpec.Limits.DEFAULT_TIMEOUT_S,
                converter = OptionValues.AtLeastOne.class,
                description = "Time limit of one call of one turn; default ${DEFAULT-VALUE}.")
        int turnTimeoutSeconds;

        @Option(
                names = "--turn-retries",
                paramLabel = "N",
                defaultValue = "" + EvalSpec.Dialogs.DEFAULT_TURN_RETRIES,
                converter = OptionValues.NotNegative.class,
                description = "Extra attempts after a failed or timed-out call; default ${DEFAULT-VALUE}.")
        int turnRetries;

        @Option(
                names = "--system-prompt",
                paramLabel = "FILE",
                description = "System prompt sent first in every request.")
        Path systemPrompt;

        @Option(
                names = "--prompt-version",
                paramLabel = "LABEL",
                description = "Label of the prompt for the config fingerprint; default: a hash of the system prompt.")
        String promptVersion;

        @picocli.CommandLine.Mixin
        ScoringOptions scoring = new ScoringOptions();

        @picocli.CommandLine.Mixin
        JudgeOptionsMixin judgeOptions = new JudgeOptionsMixin();

        @Override
        public Integer call() throws InterruptedException {
            if (resume != null) {
                if (dataset != null || model.given() || agent.given() || runId != null) {
                    throw new ParameterException(
                            spec.commandLine(),
                            "a resumed dialog run takes its dataset and target from its stored description; give "
                                    + "only the run id");
                }
                return resume(resume, parent.models, database, env, spec.commandLine());
            }
            if (dataset == null) {
                throw new ParameterException(spec.commandLine(), "give the DATASET (or --resume RUN_ID)");
            }
            if (model.given() == agent.given()) {
                throw new ParameterException(spec.commandLine(), "give exactly one of --model and --agent");
            }
            if (fieldMapping != null && !agent.given()) {
                throw new ParameterException(spec.commandLine(), "--field-mapping applies to --agent only");
            }
            if (systemPrompt != null && agent.given()) {
                throw new ParameterException(
                        spec.commandLine(),
                        "--system-prompt applies to --model only; an agent service keeps its own prompt");
            }
            OutputDirectories.requireWritable(spec.commandLine(), "--out", outDir);
            String prompt;
            try {
                prompt = systemPrompt == null ? "" : Files.readString(systemPrompt, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new AssayException(Problem.of("dialog.input_unreadable", e.toString()), e);
            }
            String id = runId != null
                    ? runId
                    : LocalDateTime.now(ZoneId.systemDefault()).format(DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss"));
            Duration turnTimeout = Duration.ofSeconds(turnTimeoutSeconds);
            FieldMapping mapping = null;
            if (agent.given()) {
                try {
                    mapping = FieldMapping.parse(fieldMapping);
                } catch (AssayException e) {
                    throw new ParameterException(
                            spec.commandLine(),
                            "--field-mapping: " + e.problem().message());
                }
            }
            EvalSpec request = new RunSettings()
                    .dialogs(new EvalSpec.Dialogs(
                            dataset.toString(),
                            dataset,
                            outDir.resolve(id),
                            prompt,
                            promptVersion(prompt),
                            mapping,
                            turnRetries,
                            scoring.toOptions(),
                            judgeOptions.settings().orElse(null)))
                    .model(model.given() ? model.toOptions(spec.commandLine(), false, turnTimeout, null) : null)
                    .temperature(model.temperature)
                    .samplingSeed(model.seed)
                    // Requests are retried within a turn's time limit before --turn-retries retries the turn.
                    .agentService(
                            agent.given()
                                    ? agent.settings(null, false, "", RetryPolicy.defaults(), workersDialog)
                                    : null)
                    .concurrency(workersDialog)
                    .timeout(turnTimeout)
                    .resolve();
            Optional<dev.assay.result.Run> earlier;
            try (Store store = database.open()) {
                earlier = store.findRun(id);
            }
            earlier.filter(existing -> !existing.kind().equals(dev.assay.result.Run.DIALOG))
                    .ifPresent(existing -> {
                        throw new AssayException(Problem.of(
                                        "config.run_id_taken",
                                        "run id " + id + " belongs to a " + existing.kind() + " run; choose another")
                                .withDetail("field", "run_id"));
                    });
            // Re-using the id of a dialog run that ended resumes it with these flags: its ok and skipped dialogs are
            // kept.
            return execute(request, id, earlier.isPresent(), parent.models, database, env, spec.commandLine());
        }

        @Override
        public void environment(Map<String, String> environment) {
            this.env = environment;
        }

        private String promptVersion(String prompt) {
            if (promptVersion != null) {
                return promptVersion;
            }
            return DialogRunConfig.promptVersion(prompt);
        }
    }

    /**
     * Continues a stored dialog run from its stored spec ({@link EvalSpec#toResume}), as {@code assay run --resume} and
     * {@code assay dialog run --resume} do: the dialogs that ended ok or skipped are kept, the others replayed, their
     * answered turns from the run's stored answers.
     *
     * @throws AssayException {@code run.not_found}, {@code run.not_resumable}
     */
    static int resume(
            String runId,
            Function<ModelOptions, ChatModel> models,
            DatabaseOption database,
            Map<String, String> env,
            CommandLine commandLine)
            throws InterruptedException {
        dev.assay.result.Run stored;
        try (Store store = database.open()) {
            stored = store.findRun(runId)
                    .orElseThrow(() -> new AssayException(Problem.of("run.not_found", "no run " + runId + " is stored")
                            .withDetail("run_id", runId)));
        }
        if (!stored.kind().equals(dev.assay.result.Run.DIALOG)) {
            throw new AssayException(Problem.of(
                            "run.not_resumable",
                            "run " + runId + " cannot be resumed: it is a " + stored.kind() + " run, not a dialog run")
                    .withDetail("run_id", runId));
        }
        return execute(EvalSpec.toResume(stored), runId, true, models, database, env, commandLine);
    }

    /**
     * Runs a described dialog run through the engine, started afresh or resumed under {@code id}, prints its metrics
     * and {@return the exit code}
     */
    private static int execute(
            EvalSpec request,
            String id,
            boolean resumed,
            Function<ModelOptions, ChatModel> models,
            DatabaseOption database,
            Map<String, String> env,
            CommandLine commandLine)
            throws InterruptedException {
        PrintWriter out = commandLine.getOut();
        PrintWriter err = commandLine.getErr();
        Consumer<String> log = line -> err.println("  " + TerminalText.line(line));
        try (DialogPreparation.Prepared prepared = DialogPreparation.prepare(
                        request, id, models, env::get, log, JudgeOptionsMixin.cache(database.home()));
                Store store = database.open()) {
            prepared.data()
                    .skipCounts()
                    .forEach((reason, count) -> err.println("skipped " + count + " line(s): " + reason.wireName()));
            DialogWorkload workload = prepared.workload();
            var engine = new Engine(store);
            RunListener progress = new RunListener() {
                @Override
                public void itemFinished(dev.assay.result.Run run, Item item) {
                    err.println("dialog " + (item.seq() + 1) + " " + TerminalText.line(item.caseId()) + ": "
                            + item.status().wireName());
                    err.flush();
                }

                @Override
                public void log(dev.assay.result.Run run, String message) {
                    err.println("  " + TerminalText.line(message));
                    err.flush();
                }
            };
            RunHandle handle = resumed ? engine.resume(workload, false, progress) : engine.start(workload, progress);
            CancelOnSignal cancelOnSignal = CancelOnSignal.install(handle, err);
            try {
                dev.assay.result.Run record = handle.await();
                DialogWorkload.Outcome outcome = workload.outcome()
                        .orElseThrow(() -> new AssayException(
                                record.error() != null
                                        ? record.error()
                                        : Problem.of("dialog.not_scored", "the dialog run ended without its metrics")));
                printSummary(out, outcome.scores());
                out.println("run directory: " + request.dataset().dialogs().runDirectory());
                out.println("stored as run " + record.runId() + " in " + Stores.redact(database.url()));
                if (record.status() != dev.assay.result.RunStatus.FINISHED) {
                    err.println("run " + record.runId() + " "
                            + record.status().wireName()
                            + (record.error() == null
                                    ? ""
                                    : ": " + record.error().message()));
                    return record.status() == dev.assay.result.RunStatus.CANCELLED
                            ? ExitCodes.CANCELLED
                            : ExitCodes.CANNOT_RUN;
                }
                return ExitCodes.OK;
            } finally {
                cancelOnSignal.close();
            }
        }
    }

    static void printSummary(PrintWriter out, Scoring.Result result) {
        EvalSummary summary = result.summary();
        var c = summary.counters();
        out.printf(
                Locale.ROOT,
                "run %s: %d dialogs (%d valid, %d skipped, %d failed), %d turn pairs%n",
                summary.runId(),
                c.totalDialogs(),
                c.validDialogs(),
                c.skippedDialogs(),
                c.failedDialogs(),
                c.totalTurnPairs());
        summary.metrics().values().forEach(metric -> printMetric(out, metric));
        result.judge().ifPresent(judge -> {
            printMetric(out, judge.metric());
            out.println("judge errors: " + judge.metric().counts().get("judge_error_count"));
        });
        out.flush();
    }

    private static void printMetric(PrintWriter out, MetricResult metric) {
        var line = new StringBuilder(metric.metricName())
                .append(" (eligible ")
                .append(metric.counts().get("eligible_count"))
                .append("):");
        metric.micro()
                .forEach((key, value) ->
                        line.append(' ').append(key).append('=').append(String.format(Locale.ROOT, "%.6f", value)));
        out.println(line);
    }
}
