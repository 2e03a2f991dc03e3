package dev.assay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.Yaml;
import dev.assay.cases.Suite;
import dev.assay.cases.SuiteFormat;
import dev.assay.check.CheckerRegistry;
import dev.assay.config.AssayConfig;
import dev.assay.cost.Budget;
import dev.assay.model.ModelOptions;
import dev.assay.model.RetryPolicy;
import dev.assay.queue.CaseQueue;
import dev.assay.queue.QueuedWorkload;
import dev.assay.report.Reporters;
import dev.assay.report.RunReport;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import dev.assay.run.CaseWorkload;
import dev.assay.run.CostEstimate;
import dev.assay.run.Engine;
import dev.assay.run.EvalSpec;
import dev.assay.run.Prepared;
import dev.assay.run.RunHandle;
import dev.assay.run.RunListener;
import dev.assay.run.RunObserver;
import dev.assay.run.RunPlan;
import dev.assay.run.RunSettings;
import dev.assay.run.SilentRuns;
import dev.assay.run.StoredCases;
import dev.assay.score.Reducer;
import dev.assay.score.Weights;
import dev.assay.store.RunIds;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.subject.ToolMode;
import dev.assay.tools.McpServerConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code assay run}: evaluates suites against a model, an agent service or a recording, stores the run, prints a
 * summary and writes reports.
 */
@Command(
        name = "run",
        aliases = "eval",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Evaluate one or more suites (files or directories of cases) against a model, an agent service "
                + "(--agent) or recorded transcripts (--replay).")
final class RunCommand implements Callable<Integer>, EnvironmentFactory.NeedsEnvironment {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

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

    @Mixin
    ModelOptionsMixin modelFlags;

    @Mixin
    AgentOptionsMixin agentFlags;

    @Option(
            names = "--versus",
            paramLabel = "<model>",
            description = "Evaluate this model head to head against --model (A): each case runs against both. With "
                    + "--stop-when-decided the run stops as soon as one is shown better. docs/statistics.md.")
    String versus;

    @Option(
            names = "--versus-base-url",
            paramLabel = "<url>",
            converter = OptionValues.HttpUrl.class,
            description = "The --versus model's API root (default: --model's).")
    String versusBaseUrl;

    @Option(
            names = "--versus-api-key-env",
            paramLabel = "<name>",
            converter = OptionValues.EnvName.class,
            description = "The environment variable holding the --versus model's API key (default: --model's).")
    String versusApiKeyEnv;

    @Option(
            names = "--stop-when-decided",
            description = "With --versus: run the cases in a random order and start no further case once an "
                    + "always-valid sequential test on the paired scores decides which model is better (5 % "
                    + "false-decision rate); the run ends finished, and the reports say when, why and what it saved.")
    boolean stopWhenDecided;

    @Mixin
    DatasetOptionsMixin datasetFlags;

    @Option(
            names = "--agent-tools-url",
            paramLabel = "<url>",
            description = "GET this URL for the agent's tool list instead of --agent-tools.",
            converter = OptionValues.HttpUri.class)
    URI agentToolsUrl;

    @Option(
            names = "--agent-workspace",
            paramLabel = "<dir>",
            description = "A directory the agent shares with Assay: case workspaces are created here and their path "
                    + "is sent as {{workspace}}.")
    Path agentWorkspace;

    @Option(
            names = "--config",
            paramLabel = "<file>",
            description = "An assay.yaml naming targets, MCP servers, judge models and defaults (default: ./assay.yaml "
                    + "when it exists). Flags given on the command line win.")
    Path configFile;

    @Option(
            names = {"-t", "--target"},
            paramLabel = "<name>",
            description =
                    "A target named in the configuration file (default: its defaults.target when no --model, --subject, "
                            + "--agent or --replay is given).")
    String subjectName;

    @Option(
            names = "--tools",
            split = ",",
            paramLabel = "<tool>",
            description = "Offer only these tools to the model (final_answer is always offered); cases needing "
                    + "another tool are skipped.")
    List<String> allowedTools = new ArrayList<>();

    @Option(
            names = "--mcp-stdio",
            paramLabel = "<name=command args>",
            description = "An MCP server started as a child process, e.g. files=\"npx -y @modelcontextprotocol/"
                    + "server-filesystem /tmp\"; its tools are offered as name@tool. Repeatable.")
    Map<String, String> mcpStdio = new LinkedHashMap<>();

    @Option(
            names = "--mcp-url",
            paramLabel = "<name=url>",
            description = "An MCP server over streamable HTTP; its tools are offered as name@tool. Repeatable.")
    Map<String, String> mcpUrl = new LinkedHashMap<>();

    @Option(
            names = "--replay",
            paramLabel = "<file>",
            description = "Re-score recorded transcripts (JSONL from 'runs export', or a report.json) without calling "
                    + "anything; cases the file lacks are skipped.")
    Path replay;

    @Option(
            names = "--subject",
            paramLabel = "<name[:argument]>",
            description = "Evaluate a plug-in's system under test (docs/extending.md), passing it the argument.")
    String subject;

    @Option(
            names = {"-c", "--concurrency"},
            paramLabel = "<n>",
            converter = OptionValues.AtLeastOne.class,
            description = "Cases evaluated at once (default: " + EvalSpec.Limits.DEFAULT_CONCURRENCY + ").")
    Integer concurrency;

    @Option(
            names = "--timeout",
            paramLabel = "<seconds>",
            converter = OptionValues.PositiveSeconds.class,
            description = "Time limit per case unless the case sets timeout_s (default: "
                    + EvalSpec.Limits.DEFAULT_TIMEOUT_S + ").")
    Double timeoutSeconds;

    @Option(
            names = "--dimensions",
            split = ",",
            paramLabel = "<dimension>",
            description = "Only these dimensions, e.g. tool,logic.")
    List<String> dimensions = new ArrayList<>();

    @Option(names = "--language", paramLabel = "<tag>", description = "Only cases in this language (zh-CN, en-US).")
    String language;

    @Option(names = "--tags", split = ",", paramLabel = "<tag>", description = "Only cases with any of these tags.")
    List<String> tags = new ArrayList<>();

    @Option(names = "--ids", split = ",", paramLabel = "<id>", description = "Only these case ids.")
    List<String> ids = new ArrayList<>();

    @Option(
            names = "--limit",
            paramLabel = "<n>",
            converter = OptionValues.NotNegative.class,
            description = "At most this many cases (after --seed shuffling; 0 = all).")
    Integer limit;

    @Option(
            names = "--samples",
            paramLabel = "<n>",
            converter = OptionValues.AtLeastOne.class,
            description = "Answers drawn per case; above 1 each is an item <case id>#<k> and reports add pass@k "
                    + "(default: 1).")
    Integer samples;

    @Option(
            names = "--cluster-by",
            paramLabel = "<field>",
            description = "Cluster the reports' standard errors and 95% intervals by this case field (dimension, "
                    + "language, a field of the case file, or a FIELD:VALUE tag); stored with the run.")
    String clusterBy;

    @Option(
            names = "--reducer",
            paramLabel = "<name>",
            converter = OptionValues.ReducerName.class,
            description = "Count each case once in the reports' intervals, its samples reduced by mean, majority, "
                    + "max, pass_at_k or pass_hat_k (k = --samples); stored with the run.")
    Reducer reducer;

    @Option(
            names = "--weights",
            paramLabel = "<dim=w,...>",
            description = "Dimension weights for the total (default: tool=35,logic=25,common=20,complex=20).")
    String weights;

    @Option(
            names = "--scoring",
            paramLabel = "<preset>",
            description = "assay (default) or reference: the reference server's weights (tool=30,logic=25,common=15,"
                    + "complex=30), pass/fail items, a total over every dimension and its reading of a choice answer; "
                    + "--weights still override.")
    String scoring;

    @Option(
            names = "--metric",
            paramLabel = "<name>",
            description = "An extra metric by name (a plug-in's), computed over the run's items when it ends and shown"
                    + " under metrics in the reports; repeatable.")
    List<String> metrics = new ArrayList<>();

    @Option(
            names = "--user-model",
            paramLabel = "<model>",
            description = "The model that plays the simulated user of conversation cases (their user field), e.g."
                    + " openai:gpt-4o-mini; a case's user.model wins. It uses --base-url and the key options unless"
                    + " --user-base-url and --user-api-key-env are given.")
    String userModel;

    @Option(
            names = "--user-base-url",
            paramLabel = "<url>",
            description = "The user model's API root (default: the run's --base-url).")
    String userBaseUrl;

    @Option(
            names = "--user-api-key-env",
            paramLabel = "<variable>",
            description = "The environment variable holding the user model's API key (default: the run's).")
    String userApiKeyEnv;

    @Option(
            names = "--environment",
            paramLabel = "<json|file>",
            description = "The environment of the cases that name none, as a case's environment field is written"
                    + " ({\"mcp\": {\"command\": [...]}, \"state\": \"URI\"}), given as JSON or as a .json or"
                    + " .yaml file holding it: the domain's environment for a τ²-bench tasks.json (docs/tau2.md).")
    String environment;

    @Option(
            names = "--tool-mode",
            paramLabel = "<mode>",
            description = "native (function calling) or text (<tool_call> blocks) (default: native).")
    ToolMode toolMode;

    @Option(
            names = "--max-tokens",
            paramLabel = "<n>",
            converter = OptionValues.AtLeastOne.class,
            description = "Output-token cap per model call.")
    Integer maxTokens;

    @Option(
            names = "--max-cost",
            paramLabel = "<usd>",
            converter = OptionValues.Dollars.class,
            description = "Start no further case once the run's model calls (judges' too) cost this many US dollars; "
                    + "the cases running finish and the run ends interrupted (run.budget_exhausted). docs/cost.md.")
    Double maxCost;

    @Option(
            names = "--run-max-tokens",
            paramLabel = "<n>",
            converter = OptionValues.AtLeastOne.class,
            description = "Start no further case once the run's model calls (judges' too) used this many tokens, input "
                    + "and output; as --max-cost. (--max-tokens is the output cap of one call.)")
    Integer runMaxTokens;

    @Option(
            names = "--case-max-tokens",
            paramLabel = "<n>",
            converter = OptionValues.AtLeastOne.class,
            description = "Stop a case whose model calls used more than this many tokens, input and output; it is "
                    + "stored as an error item (case.token_limit_exceeded).")
    Integer caseMaxTokens;

    @Option(
            names = "--dry-run",
            description = "Estimate what the run would cost and call nothing: the prompts' tokens (characters / 4) or, "
                    + "where the database holds runs of the suite by the model, what their items used. docs/cost.md.")
    boolean dryRun;

    @Option(
            names = "--max-steps",
            paramLabel = "<n>",
            converter = OptionValues.AtLeastOne.class,
            description = "Model calls per case at most (default: 20).")
    Integer maxSteps;

    @Option(
            names = "--retries",
            paramLabel = "<n>",
            converter = OptionValues.NotNegative.class,
            description = "Retries of a failed model call (429, 5xx, timeouts) (default: " + RunSettings.DEFAULT_RETRIES
                    + ").")
    Integer retries;

    @Option(
            names = "--max-retry-wait",
            paramLabel = "<seconds>",
            converter = OptionValues.NotNegativeSeconds.class,
            description = "Total time one call may wait between retries (default: "
                    + RetryPolicy.DEFAULT_MAX_TOTAL_WAIT_S + ").")
    Double maxRetryWait;

    @Option(names = "--stream", description = "Use streaming responses.")
    boolean stream;

    @Option(names = "--user-id", paramLabel = "<id>", description = "Recorded with the run.")
    String userId;

    @Option(
            names = {"-o", "--out"},
            paramLabel = "<dir>",
            description = "Write report.json, report.md, junit.xml and report.html here.")
    Path out;

    @Option(
            names = "--threshold",
            paramLabel = "<score>",
            converter = OptionValues.Fraction.class,
            description = "Exit with code 1 when the total score (0..1) is below this.")
    Double threshold;

    @Option(names = "--skip-invalid", description = "Run the valid cases of an invalid suite instead of refusing.")
    boolean skipInvalid;

    @Option(names = "--keep-workspaces", description = "Keep every case workspace (default: only failed ones).")
    boolean keepWorkspaces;

    @Option(
            names = "--workspace-dir",
            paramLabel = "<dir>",
            description = "Where case workspaces are created (default: $ASSAY_HOME/workspaces).")
    Path workspaceDir;

    @Option(
            names = "--allow-unsandboxed-code",
            description =
                    "Let the code checker run model-written code without "
                            + "bubblewrap when it is missing (the code then runs on this machine with your rights; recorded in the run).")
    boolean allowUnsandboxedCode;

    @Option(
            names = "--allow-unsandboxed-commands",
            description = "Offer execute_command even when bubblewrap is "
                    + "missing: the model's commands then run on this machine with your rights, and can read what you can, "
                    + "API keys in this process's environment included (recorded in the run). Without it such cases are "
                    + "skipped.")
    boolean allowUnsandboxedCommands;

    @Option(
            names = "--sandbox",
            paramLabel = "ENGINE",
            description =
                    "The container engine for cases that name an image (\"sandbox\": {\"image\": ...}): docker or "
                            + "podman, reached over its socket (DOCKER_HOST, or the engine's usual one). Default: the first that "
                            + "answers. See docs/sandboxes.md.")
    String sandbox;

    @Option(
            names = "--cache",
            paramLabel = "<max-age>",
            arity = "0..1",
            fallbackValue = "forever",
            description = "Reuse model answers kept by earlier runs for the same question (same model, endpoint, "
                    + "case, messages, tools and sampling), optionally only those younger than <max-age> (90s, 30m, "
                    + "12h, 7d). Without it only the run's own answers are reused (when resumed).")
    String cache;

    @Option(
            names = "--db-retry",
            paramLabel = "<seconds>",
            defaultValue = "180",
            description = "How long a run keeps its finished items in memory and retries while the database is "
                    + "unavailable before it stops as interrupted (exit 3) (default: ${DEFAULT-VALUE}).")
    double dbRetrySeconds;

    @Option(
            names = "--queue",
            description = "Put the cases on a queue in the database (PostgreSQL, --db) for workers on any machine "
                    + "(assay worker) instead of running them here, and follow the run until it ends; the suite files "
                    + "must be at the same paths on the workers.")
    boolean queue;

    @Option(
            names = "--otel",
            description =
                    "Export the run as OpenTelemetry traces (a span per run, case, model call and tool call) over "
                            + "OTLP, configured by the OTEL_* variables (default endpoint http://localhost:4318); on without "
                            + "it when OTEL_EXPORTER_OTLP_ENDPOINT is set. See docs/otel.md.")
    boolean otel;

    @Option(
            names = "--format",
            paramLabel = "<format>",
            defaultValue = "table",
            description = "Summary on stdout: table or json (default: ${DEFAULT-VALUE}).")
    OutputFormats.Table format;

    @Option(
            names = {"-q", "--quiet"},
            description = "No progress on stderr (the summary still goes to stdout).")
    boolean quiet;

    @Option(
            names = {"-v", "--verbose"},
            description = "A progress line per finished case (default: a progress bar "
                    + "on a terminal, a line every 10 s otherwise).")
    boolean verbose;

    private Map<String, String> env = Map.of();

    @Override
    public void environment(Map<String, String> environment) {
        this.env = environment;
    }

    @Override
    public Integer call() throws Exception {
        if (queue && (resume != null || retryErrors != null)) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(), "--queue starts a new run; a continued run runs here, without --queue");
        }
        if (resume != null || retryErrors != null) {
            return continueRun();
        }
        if (storedCases) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(), "--stored-cases continues a run: give it with --resume or --retry-errors");
        }
        if (queue && !database.url().startsWith("jdbc:postgresql://")) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(),
                    "--queue needs a PostgreSQL database (--db jdbc:postgresql://HOST/DB) that the workers reach too; "
                            + Stores.redact(database.url()) + " is not one");
        }
        if (suites.isEmpty()) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(), "give at least one suite (or --resume RUN_ID)");
        }
        PrintWriter stderr = spec.commandLine().getErr();
        if (!(dbRetrySeconds > 0)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--db-retry must be more than 0 s");
        }
        AssayConfig config = configuration();
        // A suite that names its own systems under test (a promptfoo config's providers) needs no target flag, and
        // assay.yaml's default target does not replace them.
        boolean suiteNamesSubject = suites.size() == 1
                && SuiteFormat.of(suites.getFirst())
                        .flatMap(format -> format.subject(suites.getFirst()))
                        .isPresent();
        String configuredSubject = suiteNamesSubject && subjectName == null ? null : configuredSubject(config);
        // assay.yaml's defaults.models, when nothing else names what to evaluate.
        boolean configuredModels = config != null
                && !suiteNamesSubject
                && !subjectGiven()
                && subjectName == null
                && config.defaults().namesSubject();
        int subjects = (modelFlags.given() ? 1 : 0)
                + (agentFlags.given() ? 1 : 0)
                + (replay != null ? 1 : 0)
                + (subject != null ? 1 : 0)
                + (configuredSubject != null ? 1 : 0)
                + (configuredModels ? 1 : 0);
        if (subjects > 1 || (subjects == 0 && !suiteNamesSubject)) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(), "give exactly one of --model, --agent, --replay, --subject and --target");
        }
        if (out != null) {
            OutputDirectories.requireWritable(spec.commandLine(), "--out", out);
        }
        if (workspaceDir != null) {
            OutputDirectories.requireWritable(spec.commandLine(), "--workspace-dir", workspaceDir);
        }
        if (agentWorkspace != null) {
            OutputDirectories.requireWritable(spec.commandLine(), "--agent-workspace", agentWorkspace);
        }
        Path workspaces = agentWorkspace != null ? agentWorkspace : workspaces();
        CheckerRegistry checkers = checkers(config);
        var sources = new ArrayList<RunSettings>();
        if (config != null) {
            sources.add(config.settings(configuredSubject));
        }
        sources.add(commandLine());
        if (dryRun) {
            return estimate(RunSettings.resolve(sources), checkers);
        }
        Preparation preparation = () -> {
            Prepared prepared = prepare(RunSettings.resolve(sources), null, workspaces, checkers);
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
            return runAndReport(
                    preparation, Prepared::plan, (engine, store, plan, listener) -> engine.start(plan, listener));
        }
        try (CaseQueue cases = CaseQueue.open(database.url())) {
            return runAndReport(
                    () -> {
                        Prepared prepared = preparation.prepare();
                        if (!quiet) {
                            stderr.println("  the cases go on the queue in " + Stores.redact(database.url())
                                    + "; workers (assay worker) run them");
                        }
                        return prepared;
                    },
                    Prepared::plan,
                    (engine, store, plan, listener) ->
                            engine.start(new QueuedWorkload(new CaseWorkload(plan), cases, store), listener));
        }
    }

    /** {@code --dry-run}: the run's expected cost by role, from the store's past runs or the prompts; calls nothing. */
    private int estimate(EvalSpec evalSpec, CheckerRegistry checkers) {
        PrintWriter stdout = spec.commandLine().getOut();
        CostEstimate estimate;
        try (Store store = database.open()) {
            estimate = CostEstimate.of(evalSpec, checkers, store);
        }
        if (format.toString().equals("json")) {
            stdout.println(Json.write(estimate.toJson()));
        } else {
            stdout.printf(
                    Locale.ROOT,
                    "Dry run of %s: %d items; nothing was called.%n",
                    TerminalText.line(estimate.suite()),
                    estimate.items());
            for (CostEstimate.Line line : estimate.lines()) {
                stdout.printf(
                        Locale.ROOT,
                        "  %-8s %-28s ~%d input tokens, ~%d output tokens, %s%n",
                        line.role(),
                        TerminalText.line(line.model()),
                        line.inputTokens(),
                        line.outputTokens(),
                        line.costUsd() == null
                                ? "no price (assay.yaml prices)"
                                : "~%.6f USD".formatted(line.costUsd()));
            }
            stdout.println(
                    estimate.pastItems() > 0
                            ? "From the mean of " + estimate.pastItems() + " items of " + estimate.pastRuns()
                                    + " past run(s) of this suite by this model."
                            : "From the prompts (" + CostEstimate.CHARACTERS_PER_TOKEN
                                    + " characters a token) and " + CostEstimate.ASSUMED_OUTPUT_TOKENS
                                    + " output tokens an item: no past run of this suite by this model.");
            stdout.printf(Locale.ROOT, "Estimated cost: ~%.6f USD%n", estimate.totalUsd());
        }
        stdout.flush();
        return ExitCodes.OK;
    }

    /** What the command line says about the run: only the options given, so lower sources keep the rest. */
    RunSettings commandLine() {
        Duration retryWait = maxRetryWait == null ? null : Duration.ofMillis((long) (maxRetryWait * 1000));
        var mcpServers = new ArrayList<McpServerConfig>();
        mcpStdio.forEach((name, command) -> {
            List<String> words = List.of(command.strip().split("\\s+"));
            mcpServers.add(
                    new McpServerConfig.Stdio(name, words.getFirst(), words.subList(1, words.size()), List.of()));
        });
        mcpUrl.forEach((name, url) -> mcpServers.add(new McpServerConfig.Http(name, url, Map.of())));
        // The agent service retries before its stream starts, as a model call does.
        RetryPolicy agentRetry = RunSettings.retryPolicy(retries, retryWait);
        return new RunSettings()
                        .suites(suites)
                        .skipInvalid(skipInvalid ? true : null)
                        .dimensions(dimensions.isEmpty() ? null : dimensions)
                        .language(language)
                        .tags(tags.isEmpty() ? null : tags)
                        .ids(ids.isEmpty() ? null : ids)
                        .seed(modelFlags.seed)
                        .limit(limit)
                        .model(modelFlags.models.size() == 1 ? ModelOptions.of(modelFlags.models.getFirst()) : null)
                        .models(
                                modelFlags.models.size() > 1
                                        ? modelFlags.models.stream()
                                                .map(ModelOptions::of)
                                                .toList()
                                        : null)
                        .versus(versus == null ? null : ModelOptions.of(versus))
                        .versusBaseUrl(versusBaseUrl)
                        .versusApiKeyEnv(versusApiKeyEnv)
                        .stopWhenDecided(stopWhenDecided ? true : null)
                        .baseUrl(modelFlags.baseUrl)
                        .apiKeyEnv(modelFlags.apiKeyEnv)
                        .agentService(
                                agentFlags.given()
                                        ? agentFlags.settings(
                                                agentToolsUrl,
                                                agentWorkspace != null,
                                                language == null ? "" : language,
                                                agentRetry,
                                                Integer.MAX_VALUE)
                                        : null)
                        .replay(replay)
                        .subject(subject)
                        .retries(retries)
                        .maxRetryWait(retryWait)
                        .stream(stream ? true : null)
                        .toolMode(toolMode)
                        .maxSteps(maxSteps)
                        .temperature(modelFlags.temperature)
                        .maxTokens(maxTokens)
                        .mcpServers(mcpServers.isEmpty() ? null : mcpServers)
                        .allowedTools(allowedTools.isEmpty() ? null : allowedTools)
                        .allowUnsandboxedCommands(allowUnsandboxedCommands ? true : null)
                        .sandbox(sandbox)
                        .allowUnsandboxedCode(allowUnsandboxedCode ? true : null)
                        .concurrency(concurrency)
                        .timeout(timeoutSeconds == null ? null : Duration.ofMillis((long) (timeoutSeconds * 1000)))
                        .scoring(scoring == null ? null : Weights.Scoring.of(scoring))
                        .weights(
                                weights == null
                                        ? null
                                        : Weights.parse(weights, new Weights(Map.of()))
                                                .byDimension())
                        .samples(samples)
                        .clusterBy(clusterBy)
                        .reducer(reducer)
                        .keepWorkspaces(keepWorkspaces ? true : null)
                        .userId(userId)
                        .metrics(metrics.isEmpty() ? null : metrics)
                        .userModel(userModel)
                        .userBaseUrl(userBaseUrl)
                        .userApiKeyEnv(userApiKeyEnv)
                        .environment(environment == null ? null : environmentObject(environment))
                        .maxCostUsd(maxCost)
                        .runMaxTokens(runMaxTokens == null ? null : runMaxTokens.longValue())
                        .caseMaxTokens(caseMaxTokens == null ? null : caseMaxTokens.longValue())
                        .dataset(datasetFlags.mapping());
    }

    /** {@return {@code --environment}'s object: the JSON given, or the JSON or YAML file it names} */
    private ObjectNode environmentObject(String given) {
        JsonNode read;
        try {
            String text = given.strip();
            if (text.startsWith("{")) {
                read = Json.MAPPER.readTree(text);
            } else {
                Path file = Path.of(text);
                read = (text.endsWith(".yaml") || text.endsWith(".yml") ? Yaml.MAPPER : Json.MAPPER)
                        .readTree(Files.readString(file));
            }
        } catch (IOException | RuntimeException e) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(),
                    "--environment is neither an environment object in JSON nor a file holding one: " + e.getMessage());
        }
        if (!(read instanceof ObjectNode object)) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(),
                    "--environment must be an object {\"mcp\": {\"command\": [...]}, \"state\": URI}");
        }
        return object;
    }

    /**
     * The built-in checkers (a run adds its judges from its spec); sets the database from assay.yaml's defaults when
     * not given.
     */
    private CheckerRegistry checkers(AssayConfig config) {
        if (database.url == null && config != null && config.database() != null) {
            database.url = config.database();
        }
        return CheckerRegistry.builtins();
    }

    private Path workspaces() {
        return workspaceDir != null ? workspaceDir : database.home().resolve("workspaces");
    }

    private Prepared prepare(EvalSpec description, String runId, Path workspaces, CheckerRegistry checkers)
            throws InterruptedException {
        PrintWriter stderr = spec.commandLine().getErr();
        return description.prepare(runId, workspaces, checkers, env::get, line -> {
            if (!quiet) {
                stderr.println("  " + line);
            }
        });
    }

    /** How a prepared plan becomes a running run: started afresh, or a stored run continued. */
    @FunctionalInterface
    private interface Launch {
        RunHandle launch(Engine engine, Store store, RunPlan plan, RunListener listener);
    }

    /**
     * The options a continued run takes; it is otherwise run as its stored description says, so that its items stay
     * comparable (the cases, the target, the limits).
     */
    private static final List<String> OPTIONS_OF_A_CONTINUED_RUN = List.of(
            "--resume",
            "--retry-errors",
            "--max-cost",
            "--run-max-tokens",
            "--case-max-tokens",
            "--stored-cases",
            "--db",
            "--db-retry",
            "--config",
            "--cache",
            "--workspace-dir",
            "--keep-workspaces",
            "--out",
            "--otel",
            "--format",
            "--threshold",
            "--quiet",
            "--verbose");

    /** {@code --resume} / {@code --retry-errors}: the stored run's own description, continued under its id. */
    private int continueRun() throws Exception {
        String given = resume != null ? resume : retryErrors;
        if (resume != null && retryErrors != null) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(), "give --resume or --retry-errors, not both");
        }
        if (!suites.isEmpty() || subjectGiven() || subjectName != null) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(),
                    "a continued run takes its suites and target from its stored description; give only the run id");
        }
        List<String> ignored = spec.commandLine().getParseResult().matchedOptions().stream()
                .map(picocli.CommandLine.Model.OptionSpec::longestName)
                .filter(name -> !OPTIONS_OF_A_CONTINUED_RUN.contains(name))
                .distinct()
                .toList();
        if (!ignored.isEmpty()) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(),
                    String.join(", ", ignored) + ": a continued run keeps the settings it was started with; with "
                            + "--resume or --retry-errors give only where it is stored and where and how it is "
                            + "reported (" + String.join(", ", OPTIONS_OF_A_CONTINUED_RUN) + ")");
        }
        AssayConfig config = configuration();
        CheckerRegistry checkers = checkers(config);
        Run stored;
        Suite storedSuite;
        try (Store store = database.open()) {
            stored = SilentRuns.ended(
                    store, store.findRun(RunIds.resolve(store, given)).orElseThrow(), database.silence());
            storedSuite =
                    storedCases && stored.kind().equals(RunKind.CAPABILITY) ? StoredCases.suite(store, stored) : null;
        }
        String runId = stored.runId();
        if (stored.kind().equals(RunKind.DIALOG)) {
            if (storedCases) {
                throw new picocli.CommandLine.ParameterException(
                        spec.commandLine(), "--stored-cases continues a capability run; a dialog run has no cases");
            }
            // A dialog's errors are always replayed on resume, so --retry-errors continues it as --resume does.
            return DialogCommand.resume(
                    runId, AssayCli.chatModels(env, spec.commandLine().getErr()), database, env, spec.commandLine());
        }
        // A run stored before its spec named its judges is graded by assay.yaml's.
        EvalSpec storedSpec = EvalSpec.namesJudges(stored) || config == null
                ? EvalSpec.toResume(stored)
                : EvalSpec.toResume(stored).withJudges(config.judges());
        Path workspaces = workspaces();
        boolean errorsToo = retryErrors != null;
        // New limits apply to this continuation: a run stopped by one goes on under a higher one.
        var limits = new Budget(
                maxCost,
                runMaxTokens == null ? null : runMaxTokens.longValue(),
                caseMaxTokens == null ? null : caseMaxTokens.longValue());
        return runAndReport(
                () -> prepare(storedSpec, runId, workspaces, checkers),
                prepared -> (storedSuite == null
                                ? prepared.planOf(stored)
                                : prepared.planOf(stored).withSuite(storedSuite))
                        .withBudget(limits),
                (engine, store, resumed, listener) -> engine.resume(resumed, errorsToo, listener));
    }

    /** Makes the run's description ready: the system under test, its tools, the suite. */
    @FunctionalInterface
    private interface Preparation {
        Prepared prepare() throws Exception;
    }

    /**
     * What the report phase needs of a run that has ended: nothing of its suite or system under test, which are
     * released first (a run of 100 000 cases reports in the memory of a page of items), and only the tags of the cases
     * that have any ({@link dev.assay.cases.Suite#caseTags}).
     *
     * @param cancelOnSignal still installed: a signal that cancelled the run waits for its reports and summary, and the
     *     caller closes it once they are written
     */
    private record Ended(Run run, Map<String, List<String>> caseTags, Path workspaces, CancelOnSignal cancelOnSignal) {}

    private int runAndReport(Preparation preparation, Function<Prepared, RunPlan> planOf, Launch launch)
            throws Exception {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        // The database opens (and migrates) on its own thread while the suite is read and hashed, a tenth of a large
        // run's time; a bad suite or model is still said first. The prepared run is held only until runToEnd takes it,
        // so that nothing of it is reachable from this frame while the reports are written.
        var opening = StoreOpening.start(database);
        Pending pending;
        try {
            pending = new Pending(preparation.prepare());
        } catch (Exception | Error e) {
            opening.closeAfter(e);
            throw e;
        }
        try (Store store = opening.await()) {
            Ended ended = runToEnd(pending.take(), planOf, launch, store, stderr);
            try {
                return report(ended, store, stdout, stderr);
            } finally {
                ended.cancelOnSignal().close();
            }
        } finally {
            Prepared unused = pending.take();
            if (unused != null) {
                unused.close();
            }
        }
    }

    /** Writes the ended run's reports and summary; {@return the exit code} */
    private int report(Ended ended, Store store, PrintWriter stdout, PrintWriter stderr) throws IOException {
        Run run = ended.run();
        // Said before the report is read: when the database stayed away, reading it fails too.
        explainEnd(run, stderr);
        if (run.error() != null && run.error().type().equals("store.outage")) {
            // The report is read from the database that stayed away: the line above and what the engine holds of the
            // run are all there is to say.
            Summary.printUnreported(stdout, run, format.toString());
            stdout.flush();
            return exitCode(run);
        }
        RunReport report = RunReport.ofEnded(store, run, ended.caseTags());
        if (out != null) {
            Reporters.builtins().writeAll(report, out);
        }
        Summary.print(stdout, report, format.toString(), out);
        sayKeptWorkspaces(ended.workspaces().resolve(run.runId()), stderr);
        // A signal's exit follows as soon as this returns: what was printed must be out by then.
        stdout.flush();
        return exitCode(run);
    }

    /**
     * Says where the run left case workspaces (those of failed cases, or all with {@code --keep-workspaces}), on stderr
     * in every output format, since they stay until deleted: the run's own directory is removed when it is empty.
     */
    private static void sayKeptWorkspaces(Path runWorkspaces, PrintWriter stderr) throws IOException {
        if (!java.nio.file.Files.isDirectory(runWorkspaces)) {
            return;
        }
        long cases;
        try (var entries = java.nio.file.Files.list(runWorkspaces)) {
            cases = entries.count();
        }
        if (cases > 0) {
            stderr.println("Workspaces of " + cases + " cases kept for inspection: " + runWorkspaces
                    + " (assay runs prune deletes kept workspaces, e.g. --older-than 7d)");
            stderr.flush();
        }
    }

    /** A prepared run until it is taken: the frame holding this keeps nothing of the run reachable afterwards. */
    private static final class Pending {
        private Prepared prepared;

        Pending(Prepared prepared) {
            this.prepared = prepared;
        }

        /** {@return the prepared run, the first time; null after} */
        Prepared take() {
            Prepared taken = prepared;
            prepared = null;
            return taken;
        }
    }

    /** Runs and closes the run; only what the report needs outlives this call. */
    private Ended runToEnd(
            Prepared preparedRun, Function<Prepared, RunPlan> planOf, Launch launch, Store store, PrintWriter stderr)
            throws Exception {
        try (Prepared prepared = preparedRun;
                RunObserver observer = Telemetry.observer(otel, env, stderr)) {
            RunPlan plan = planOf.apply(prepared);
            var engine = new Engine(store, Duration.ofMillis((long) (dbRetrySeconds * 1000)), cacheMaxAge())
                    .observedBy(observer);
            var progress = ProgressPrinter.forStderr(
                    stderr,
                    ProgressPrinter.Mode.choose(
                            quiet, verbose, !quiet && !verbose && ProgressPrinter.stderrIsTerminal(), env),
                    env);
            RunHandle handle = launch.launch(engine, store, plan, progress);
            CancelOnSignal cancelOnSignal = CancelOnSignal.install(handle, stderr);
            try {
                return new Ended(
                        handle.await(), plan.suite().caseTags(), plan.config().workspaceRoot(), cancelOnSignal);
            } catch (Exception | Error e) {
                cancelOnSignal.close();
                throw e;
            }
        }
    }

    /** {@return how old an answer of another run may be to be reused; null without --cache} */
    private Duration cacheMaxAge() {
        if (cache == null) {
            return null;
        }
        if (cache.equals("forever")) {
            return Engine.FOREVER;
        }
        var age = Pattern.compile("(\\d+)\\s*([smhd]?)").matcher(cache.strip());
        if (!age.matches()) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(), "--cache takes a maximum age such as 90s, 30m, 12h or 7d, got '" + cache + "'");
        }
        return Ages.of(Long.parseLong(age.group(1)), age.group(2), ChronoUnit.SECONDS);
    }

    /**
     * One line on stderr for a run that did not finish on its own; one whose every judged item is an error has failed
     * ({@code run.all_items_errored}).
     */
    private static void explainEnd(Run run, PrintWriter stderr) {
        String reason = run.error() == null
                ? ""
                : ": " + TerminalText.line(run.error().message()) + " ("
                        + run.error().type() + ")";
        switch (run.status()) {
            case FAILED -> stderr.println("error: the run failed" + reason);
            case INTERRUPTED -> stderr.println("error: the run was interrupted" + reason);
            default -> {}
        }
        stderr.flush();
    }

    private int exitCode(Run run) {
        if (run.status() == RunStatus.CANCELLED) {
            return ExitCodes.CANCELLED;
        }
        if (run.status() == RunStatus.FAILED || run.status() == RunStatus.INTERRUPTED) {
            return ExitCodes.CANNOT_RUN;
        }
        if (threshold != null && (run.totalScore() == null || run.totalScore() < threshold)) {
            spec.commandLine()
                    .getErr()
                    .printf(
                            "threshold missed: total %s < %.4f%n",
                            run.totalScore() == null ? "none" : "%.4f".formatted(run.totalScore()), threshold);
            return ExitCodes.THRESHOLD_MISSED;
        }
        return ExitCodes.OK;
    }

    /** The configuration file: --config, else ./assay.yaml when it exists, else none. */
    private AssayConfig configuration() {
        if (configFile != null) {
            return AssayConfig.load(configFile);
        }
        Path implicit = Path.of("assay.yaml");
        return java.nio.file.Files.isRegularFile(implicit) ? AssayConfig.load(implicit) : null;
    }

    /** The configured target to run: --target, else the file's default when nothing else names a target. */
    private String configuredSubject(AssayConfig config) {
        if (subjectName != null) {
            if (config == null) {
                throw new picocli.CommandLine.ParameterException(
                        spec.commandLine(), "--target needs a configuration file (--config or ./assay.yaml)");
            }
            return subjectName;
        }
        return config == null || subjectGiven() ? null : config.defaultSubject();
    }

    /** {@return whether a flag names the system under test} */
    private boolean subjectGiven() {
        return modelFlags.given() || agentFlags.given() || replay != null || subject != null;
    }
}
