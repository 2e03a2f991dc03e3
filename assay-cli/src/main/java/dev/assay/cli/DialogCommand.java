package dev.assay.cli;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.check.CheckerRegistry;
import dev.assay.dialog.AgentServiceSubject;
import dev.assay.dialog.ChatModelSubject;
import dev.assay.dialog.Dataset;
import dev.assay.dialog.DialogRunConfig;
import dev.assay.dialog.DialogSubject;
import dev.assay.dialog.DialogWorkload;
import dev.assay.dialog.EvalSummary;
import dev.assay.dialog.ExplainabilityJudge;
import dev.assay.dialog.FieldMapping;
import dev.assay.dialog.JudgeScores;
import dev.assay.dialog.MetricResult;
import dev.assay.dialog.MetricsProfile;
import dev.assay.dialog.ScoreOptions;
import dev.assay.dialog.Scoring;
import dev.assay.dialog.SseAgentService;
import dev.assay.dialog.TraceFile;
import dev.assay.model.ChatModel;
import dev.assay.model.ModelOptions;
import dev.assay.model.RetryPolicy;
import dev.assay.result.Item;
import dev.assay.run.Engine;
import dev.assay.run.RunHandle;
import dev.assay.run.RunListener;
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
import java.util.function.Function;
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
                                + problem.details().get("line") + ": " + problem.message()));
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

        @Parameters(index = "0", paramLabel = "DATASET", description = "The dialog dataset (JSONL).")
        Path dataset;

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
                defaultValue = "1",
                converter = OptionValues.AtLeastOne.class,
                description = "Dialogs replayed in parallel; default ${DEFAULT-VALUE}.")
        int workersDialog;

        @Option(
                names = "--turn-timeout",
                paramLabel = "SECONDS",
                defaultValue = "120",
                converter = OptionValues.AtLeastOne.class,
                description = "Time limit of one call of one turn; default ${DEFAULT-VALUE}.")
        int turnTimeoutSeconds;

        @Option(
                names = "--turn-retries",
                paramLabel = "N",
                defaultValue = "1",
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
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            try {
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
                // Created before any turn is replayed, so a misconfigured judge fails the run at once.
                Optional<ExplainabilityJudge> judge = judgeOptions.judge(parent.models, database.home());
                Dataset data = Dataset.load(dataset);
                data.skipCounts()
                        .forEach((reason, count) -> err.println("skipped " + count + " line(s): " + reason.wireName()));
                String prompt = systemPrompt == null ? "" : Files.readString(systemPrompt, StandardCharsets.UTF_8);
                String id = runId != null
                        ? runId
                        : LocalDateTime.now(ZoneId.systemDefault())
                                .format(DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss"));
                Duration turnTimeout = Duration.ofSeconds(turnTimeoutSeconds);
                DialogSubject target;
                DialogRunConfig config;
                if (agent.given()) {
                    FieldMapping mapping;
                    try {
                        mapping = FieldMapping.parse(fieldMapping);
                    } catch (AssayException e) {
                        throw new ParameterException(
                                spec.commandLine(),
                                "--field-mapping: " + e.problem().message());
                    }
                    // Requests are retried within a turn's time limit before --turn-retries retries the turn.
                    var service = SseAgentService.open(
                            agent.settings(null, false, "", RetryPolicy.defaults(), workersDialog),
                            id,
                            env::get,
                            line -> err.println("  " + line));
                    target = new AgentServiceSubject(service, mapping);
                    config = new DialogRunConfig(
                            id,
                            dataset.toString(),
                            service.name(),
                            promptVersion(prompt),
                            workersDialog,
                            turnTimeout,
                            turnRetries,
                            scoring.toOptions(),
                            mapping);
                } else {
                    target = new ChatModelSubject(
                            parent.models.apply(model.toOptions(false, turnTimeout, null)),
                            prompt,
                            model.temperature,
                            model.seed);
                    config = new DialogRunConfig(
                            id,
                            dataset.toString(),
                            model.model,
                            promptVersion(prompt),
                            workersDialog,
                            turnTimeout,
                            turnRetries,
                            scoring.toOptions(),
                            null);
                }
                Path runDir = outDir.resolve(id);
                var workload = new DialogWorkload(data, target, config, runDir, judge, "");
                try (Store store = database.open()) {
                    // Re-using the id of a dialog run that ended resumes it: its ok and skipped dialogs are kept.
                    Optional<dev.assay.result.Run> earlier = store.findRun(id);
                    earlier.filter(existing -> !existing.kind().equals(dev.assay.result.Run.DIALOG))
                            .ifPresent(existing -> {
                                throw new AssayException(Problem.of(
                                                "config.run_id_taken",
                                                "run id " + id + " belongs to a " + existing.kind()
                                                        + " run; choose another")
                                        .withDetail("field", "run_id"));
                            });
                    var engine = new Engine(store, CheckerRegistry.builtins());
                    RunListener progress = new RunListener() {
                        @Override
                        public void itemFinished(dev.assay.result.Run run, Item item) {
                            err.println("dialog " + (item.seq() + 1) + " " + item.caseId() + ": "
                                    + item.status().wireName());
                            err.flush();
                        }

                        @Override
                        public void log(dev.assay.result.Run run, String message) {
                            err.println("  " + message);
                            err.flush();
                        }
                    };
                    RunHandle handle = earlier.isPresent()
                            ? engine.resume(workload, false, progress)
                            : engine.start(workload, progress);
                    CancelOnSignal cancelOnSignal = CancelOnSignal.install(handle, err);
                    try {
                        dev.assay.result.Run record = handle.await();
                        DialogWorkload.Outcome outcome = workload.outcome()
                                .orElseThrow(() -> new AssayException(
                                        record.error() != null
                                                ? record.error()
                                                : Problem.of(
                                                        "dialog.not_scored",
                                                        "the dialog run ended without its metrics")));
                        printSummary(out, outcome.scores());
                        out.println("run directory: " + runDir);
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
                    } finally {
                        cancelOnSignal.close();
                    }
                }
                return ExitCodes.OK;
            } catch (IOException e) {
                throw new AssayException(Problem.of("dialog.input_unreadable", e.toString()), e);
            }
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
