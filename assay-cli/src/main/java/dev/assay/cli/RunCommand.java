package dev.assay.cli;

import dev.assay.cases.SuiteFormat;
import dev.assay.check.CheckerRegistry;
import dev.assay.config.AssayConfig;
import dev.assay.queue.CaseQueue;
import dev.assay.queue.QueuedWorkload;
import dev.assay.run.CaseWorkload;
import dev.assay.run.Prepared;
import dev.assay.run.RunSettings;
import dev.assay.store.Stores;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code assay run}: evaluates suites against a model, an agent service or a recording, stores the run, prints a
 * summary and writes reports. Its options are grouped by what they describe, each group a mixin that adds its part to
 * the command line's {@link RunSettings}; {@link ContinuedRun} continues a stored run and {@link RunAndReport} runs and
 * reports either.
 */
@Command(
        name = "run",
        aliases = "eval",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Evaluate one or more suites (files or directories of cases) against a model, an agent service "
                + "(--agent) or recorded transcripts (--replay).")
final class RunCommand implements Callable<Integer>, EnvironmentFactory.NeedsEnvironment {
    CommandSpec spec;

    @Mixin
    DatabaseOption database;

    @Parameters(
            arity = "0..*",
            paramLabel = "<suite>",
            description = "Case files or directories (JSON, JSONL, YAML), or datasets with --input-field "
                    + "(docs/datasets.md); none with --resume or --retry-errors.")
    List<Path> suites = List.of();

    @Option(
            names = "--resume",
            paramLabel = "<run-id>",
            description = "Continue a run that ended without finishing (killed, interrupted, cancelled) from its "
                    + "stored description: its finished items are kept and only the other cases run.")
    String resume;

    @Option(
            names = "--retry-errors",
            paramLabel = "<run-id>",
            description = "Run again the items of a stored run that ended in error (and any it did not finish); "
                    + "the others are kept.")
    String retryErrors;

    @Option(
            names = "--stored-cases",
            description = "With --resume or --retry-errors: run the cases the run was started with, as the database "
                    + "keeps them, even when its suite files have changed since (without it such a run is refused).")
    boolean storedCases;

    @Option(
            names = "--config",
            paramLabel = "<file>",
            description = "An assay.yaml naming targets, MCP servers, judge models and defaults (default: ./assay.yaml "
                    + "when it exists). Flags given on the command line win.")
    Path configFile;

    @Mixin
    RunSubjectOptions subjectFlags;

    @Mixin
    DatasetOptionsMixin datasetFlags;

    @Mixin
    RunCaseOptions cases;

    @Mixin
    RunLoopOptions loop;

    @Mixin
    RunLimitOptions limits;

    @Mixin
    RunScoringOptions scoring;

    @Option(
            names = "--dry-run",
            description = "Estimate what the run would cost and call nothing: the prompts' tokens (characters / 4) or, "
                    + "where the database holds runs of the suite by the model, what their items used. docs/cost.md.")
    boolean dryRun;

    @Option(names = "--user-id", paramLabel = "<id>", description = "Recorded with the run.")
    String userId;

    @Option(
            names = "--workspace-dir",
            paramLabel = "<dir>",
            description = "Where case workspaces are created (default: $ASSAY_HOME/workspaces).")
    Path workspaceDir;

    @Option(
            names = "--queue",
            description = "Put the cases on a queue in the database (PostgreSQL, --db) for workers on any machine "
                    + "(assay worker) instead of running them here, and follow the run until it ends; the suite files "
                    + "must be at the same paths on the workers.")
    boolean queue;

    @Mixin
    RunEngineOptions engineFlags;

    @Mixin
    RunOutputOptions output;

    private Map<String, String> env = Map.of();

    /** picocli gives the command its model here, once, before any help is printed: the help's order is set then. */
    @Spec
    void spec(CommandSpec commandSpec) {
        this.spec = commandSpec;
        RunHelp.listOptionsInOrder(commandSpec);
    }

    @Override
    public void environment(Map<String, String> environment) {
        this.env = environment;
    }

    @Override
    public Integer call() throws Exception {
        if (queue && (resume != null || retryErrors != null)) {
            throw new ParameterException(
                    spec.commandLine(), "--queue starts a new run; a continued run runs here, without --queue");
        }
        if (resume != null || retryErrors != null) {
            return continueRun();
        }
        if (storedCases) {
            throw new ParameterException(
                    spec.commandLine(), "--stored-cases continues a run: give it with --resume or --retry-errors");
        }
        if (queue && !database.url().startsWith("jdbc:postgresql://")) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--queue needs a PostgreSQL database (--db jdbc:postgresql://HOST/DB) that the workers reach too; "
                            + Stores.redact(database.url()) + " is not one");
        }
        if (suites.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "give at least one suite (or --resume RUN_ID)");
        }
        PrintWriter stderr = spec.commandLine().getErr();
        if (!(engineFlags.dbRetrySeconds > 0)) {
            throw new ParameterException(spec.commandLine(), "--db-retry must be more than 0 s");
        }
        AssayConfig config = configuration();
        // A suite that names its own systems under test (a promptfoo config's providers) needs no target flag, and
        // assay.yaml's default target does not replace them.
        boolean suiteNamesSubject = suites.size() == 1
                && SuiteFormat.of(suites.getFirst())
                        .flatMap(format -> format.subject(suites.getFirst()))
                        .isPresent();
        String configuredSubject =
                suiteNamesSubject && subjectFlags.subjectName == null ? null : subjectFlags.configured(config);
        // assay.yaml's defaults.models, when nothing else names what to evaluate.
        boolean configuredModels = config != null
                && !suiteNamesSubject
                && !subjectFlags.given()
                && subjectFlags.subjectName == null
                && config.defaults().namesSubject();
        int subjects = subjectFlags.named() + (configuredSubject != null ? 1 : 0) + (configuredModels ? 1 : 0);
        if (subjects > 1 || (subjects == 0 && !suiteNamesSubject)) {
            throw new ParameterException(
                    spec.commandLine(), "give exactly one of --model, --agent, --replay, --subject and --target");
        }
        if (output.out != null) {
            OutputDirectories.requireWritable(spec.commandLine(), "--out", output.out);
        }
        if (workspaceDir != null) {
            OutputDirectories.requireWritable(spec.commandLine(), "--workspace-dir", workspaceDir);
        }
        if (subjectFlags.agentWorkspace != null) {
            OutputDirectories.requireWritable(spec.commandLine(), "--agent-workspace", subjectFlags.agentWorkspace);
        }
        Path workspaces = subjectFlags.agentWorkspace != null ? subjectFlags.agentWorkspace : workspaces();
        CheckerRegistry checkers = CheckerRegistry.builtins();
        var sources = new ArrayList<RunSettings>();
        if (config != null) {
            sources.add(config.settings(configuredSubject));
        }
        sources.add(commandLine());
        if (dryRun) {
            return DryRun.estimate(
                    RunSettings.resolve(sources),
                    checkers,
                    database,
                    output.format.toString(),
                    spec.commandLine().getOut());
        }
        RunAndReport phase = runAndReport();
        RunAndReport.Preparation preparation = () -> {
            Prepared prepared = phase.prepare(RunSettings.resolve(sources), null, workspaces, checkers);
            prepared.skippedProblems().forEach(problem -> stderr.println("warning: " + problem));
            if (prepared.plan().subject() instanceof dev.assay.subject.AgentSubject
                    && prepared.sandbox() != null
                    && !prepared.sandbox().isolating()) {
                stderr.println("warning: bubblewrap is not usable here and --allow-unsandboxed-commands was given, so "
                        + "execute_command runs commands unconfined with your rights; install bubblewrap "
                        + "(apt-get install -y bubblewrap) to confine them");
            }
            return prepared;
        };
        if (!queue) {
            return phase.run(
                    preparation, Prepared::plan, (engine, store, plan, listener) -> engine.start(plan, listener));
        }
        try (CaseQueue queued = CaseQueue.open(database.url())) {
            return phase.run(
                    () -> {
                        Prepared prepared = preparation.prepare();
                        if (!output.quiet) {
                            stderr.println("  the cases go on the queue in " + Stores.redact(database.url())
                                    + "; workers (assay worker) run them");
                        }
                        return prepared;
                    },
                    Prepared::plan,
                    (engine, store, plan, listener) ->
                            engine.start(new QueuedWorkload(new CaseWorkload(plan), queued, store), listener));
        }
    }

    /** What the command line says about the run: only the options given, so lower sources keep the rest. */
    RunSettings commandLine() {
        var settings = new RunSettings().suites(suites).userId(userId);
        subjectFlags.addTo(settings, cases.language, limits.retryPolicy());
        loop.addTo(settings);
        limits.addTo(settings);
        scoring.addTo(settings);
        cases.addTo(settings);
        return settings.dataset(datasetFlags.mapping());
    }

    /** {@code --resume} / {@code --retry-errors}: the stored run's own description, continued under its id. */
    private int continueRun() throws Exception {
        var continued = new ContinuedRun(spec.commandLine(), resume, retryErrors, storedCases);
        continued.refuseOtherSettings(!suites.isEmpty() || subjectFlags.given() || subjectFlags.subjectName != null);
        AssayConfig config = configuration();
        CheckerRegistry checkers = CheckerRegistry.builtins();
        return continued.run(
                database, env, config, checkers, workspaces(), limits.budget(), limits.keepWorkspaces, runAndReport());
    }

    private RunAndReport runAndReport() {
        return new RunAndReport(spec.commandLine(), database, engineFlags, output, env);
    }

    private Path workspaces() {
        return workspaceDir != null ? workspaceDir : database.home().resolve("workspaces");
    }

    /** The configuration file: --config, else ./assay.yaml when it exists, else none. */
    private AssayConfig configuration() {
        return ConfigurationFile.load(configFile);
    }
}
