package dev.assay.run;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Plugins;
import dev.assay.Problem;
import dev.assay.cases.CaseProblem;
import dev.assay.cases.DatasetMapping;
import dev.assay.cases.Selection;
import dev.assay.cases.Suite;
import dev.assay.cases.SuiteLoad;
import dev.assay.cases.SuiteLoader;
import dev.assay.check.CheckerRegistry;
import dev.assay.code.CodeCheckerFactory;
import dev.assay.code.CodeGrader;
import dev.assay.cost.Budget;
import dev.assay.cost.PriceTable;
import dev.assay.model.ModelOptions;
import dev.assay.result.Run;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.Sandboxes;
import dev.assay.score.Weights;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.Subject;
import dev.assay.subject.ToolMode;
import dev.assay.subject.sse.SseAgentSettings;
import dev.assay.tools.McpServerConfig;
import dev.assay.tools.Toolbox;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The description of a capability run: what to evaluate, against which system, and how. Every front end arrives here
 * through one resolver ({@link RunSettings#resolve}): CLI flags, the API's start body, {@code assay.yaml} and a stored
 * run's snapshot, which is this record written as versioned JSON ({@link #snapshot}) and read back by
 * {@link #fromSnapshot}. Holds no secrets (the API key is named by its environment variable). Turned into a
 * {@link RunPlan} by {@link #prepare}.
 *
 * @param suites case files or directories
 * @param skipInvalid run the valid cases of an invalid suite instead of refusing
 * @param selection which cases
 * @param model which model and how to reach it; null for an agent service or a recording
 * @param agent how the agent loop drives the model
 * @param agentService an agent service to evaluate instead of a model (it runs its own loop); null for none
 * @param replay a recording to re-score instead of calling anything; null for none
 * @param subject a plug-in's system under test, {@code NAME} or {@code NAME:ARGUMENT} ({@link SubjectFactory}); null
 *     for none. Exactly one of {@code model}, {@code agentService}, {@code replay} and {@code subject} is given
 * @param tools MCP servers, the allowed-tool list and whether commands may run unconfined
 * @param concurrency cases at once, >= 1
 * @param timeout per-case time limit unless the case sets {@code timeout_s}
 * @param weights dimension weights and the total rule
 * @param samples answers drawn per case, >= 1
 * @param workspacePolicy which case workspaces are kept afterwards
 * @param userId who runs it; empty when not given
 * @param allowUnsandboxedCode let the code checker run model-written code unconfined when bubblewrap is missing
 * @param metrics extra metrics by name ({@link Metric}), computed over the run's items when it ends and stored in its
 *     record's {@code metrics}; empty for none
 * @param userModel the model that plays conversation cases' simulated users and how to reach it;
 *     {@link UserModelOptions#NONE} when the run names none
 * @param environment the environment of the cases that name none ({@code --environment}, docs/tau2.md), as a case's
 *     {@code environment} field is written; null for none
 * @param prices what each model's tokens cost: Assay's table with {@code assay.yaml}'s {@code prices} over it; kept in
 *     the snapshot, so a run's cost reads the same later (docs/cost.md)
 * @param budget the limits on the run's cost and tokens ({@link Budget#NONE} for none)
 * @param dataset how the suites' rows become cases when they are plain datasets (docs/datasets.md); null for case files
 */
public record RunRequest(
        List<Path> suites,
        boolean skipInvalid,
        Selection selection,
        ModelOptions model,
        AgentSettings agent,
        SseAgentSettings agentService,
        Path replay,
        String subject,
        ToolOptions tools,
        int concurrency,
        Duration timeout,
        Weights weights,
        int samples,
        WorkspacePolicy workspacePolicy,
        String userId,
        boolean allowUnsandboxedCode,
        List<String> metrics,
        UserModelOptions userModel,
        ObjectNode environment,
        PriceTable prices,
        Budget budget,
        DatasetMapping dataset) {
    /** The version of the configuration snapshot's layout; a run stored by a later Assay is not resumed here. */
    public static final int SPEC_VERSION = 1;

    private static final String SSE_AGENT = "sse_agent";
    private static final String USER_MODEL = "user_model";
    private static final String ENVIRONMENT = "environment";

    /** The systems under test by name: Assay's own, then plug-ins. */
    private static final Plugins<SubjectFactory> SUBJECTS =
            Plugins.load(SubjectFactory.class, "system under test", SubjectFactory::name, BuiltinSubjects.all());

    public RunRequest {
        suites = List.copyOf(suites);
        if (suites.isEmpty()) {
            throw new AssayException(Problem.of("config.missing_suite", "name at least one suite")
                    .withDetail("field", "suites"));
        }
        selection = selection == null ? Selection.ALL : selection;
        int subjects = (model != null ? 1 : 0)
                + (agentService != null ? 1 : 0)
                + (replay != null ? 1 : 0)
                + (subject != null ? 1 : 0);
        if (subjects > 1) {
            throw new AssayException(Problem.of(
                            "config.conflicting_targets",
                            "evaluate one of a model, an agent service, a recording and a plug-in's system, not several")
                    .withDetail("field", "target"));
        }
        if (subjects == 0) {
            throw new AssayException(Problem.of(
                            "config.missing_target", "name what to evaluate: a model, an agent service or a recording")
                    .withDetail("field", "target"));
        }
        if (subject != null
                && BuiltinSubjects.all().stream()
                        .anyMatch(builtin -> builtin.name().equals(pluginName(subject)))) {
            throw new AssayException(Problem.of(
                            "config.invalid_subject",
                            "'" + pluginName(subject) + "' is Assay's own: name it with --model, --agent or --replay")
                    .withDetail("field", "subject"));
        }
        agent = agent == null ? AgentSettings.defaults() : agent;
        tools = tools == null ? ToolOptions.DEFAULTS : tools;
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be >= 1");
        }
        Objects.requireNonNull(timeout, "timeout");
        weights = weights == null ? Weights.defaults() : weights;
        if (samples < 1) {
            throw new IllegalArgumentException("samples must be >= 1");
        }
        workspacePolicy = workspacePolicy == null ? WorkspacePolicy.KEEP_ON_FAILURE : workspacePolicy;
        userId = userId == null ? "" : userId;
        metrics = metrics == null ? List.of() : List.copyOf(metrics);
        metrics.forEach(name -> MetricRegistry.METRICS.get(name, "metrics"));
        userModel = userModel == null ? UserModelOptions.NONE : userModel;
        environment = environment == null ? null : environment.deepCopy();
        prices = prices == null ? PriceTable.shipped() : prices;
        budget = budget == null ? Budget.NONE : budget;
        if (budget.maxCostUsd() != null
                && model != null
                && prices.find(model.model()).isEmpty()) {
            throw new AssayException(Problem.of(
                            "config.unpriced_model",
                            "--max-cost needs the price of " + model.model()
                                    + ", which Assay's price table does not hold: give it in assay.yaml's prices "
                                    + "(docs/cost.md)")
                    .withDetail("field", "prices")
                    .withDetail("model", model.model()));
        }
        if (dataset != null) {
            dataset.validate();
        }
    }

    /** {@return the engine's settings for this run under {@code runId} (null: a new id), snapshot not yet taken} */
    public RunConfig config(String runId, Path workspaceRoot) {
        return new RunConfig(
                runId,
                userId,
                selection.language(),
                concurrency,
                timeout,
                weights,
                workspaceRoot,
                workspacePolicy,
                null,
                samples);
    }

    /**
     * A plan ready for {@link Engine#start}, with the problems of an invalid suite that {@code skipInvalid} let through
     * (empty otherwise). Close it once the run has ended: it holds the target's HTTP connections and the MCP
     * connections.
     *
     * @param sandbox where execute_command runs its commands; null when it is not offered (no sandbox, no opt-in)
     * @param toolboxes the opened tool providers' toolboxes (the MCP connections); empty when no tool was offered
     */
    public record Prepared(RunPlan plan, List<CaseProblem> skippedProblems, Sandbox sandbox, List<Toolbox> toolboxes)
            implements AutoCloseable {
        public Prepared {
            skippedProblems = List.copyOf(skippedProblems);
            toolboxes = List.copyOf(toolboxes);
        }

        /**
         * {@return the plan for continuing {@code stored}}: its stored snapshot stays the run's description, since the
         * run is what it was started as.
         */
        public RunPlan planOf(Run stored) {
            return new RunPlan(
                    plan.suite(), plan.target(), plan.config().withSnapshot(stored.config()), plan.checkers());
        }

        @Override
        public void close() {
            try {
                plan.target().close();
            } finally {
                closeAll(toolboxes);
            }
        }
    }

    /**
     * Loads and selects the cases, builds the system under test (the model and the agent loop with the built-in tools,
     * the agent service, or the replay), and snapshots the description.
     *
     * @param runId the run's id; null for a new one
     * @param workspaceRoot where the cases' workspaces go
     * @param checkers the process's checkers, left as they are: the plan holds a set of its own, whose code checker is
     *     this run's (confined by the sandbox {@code sandboxes} finds, or unconfined without one when the request
     *     allows it)
     * @param env reads environment variables (API keys and the agent service's credential only); front ends pass their
     *     environment
     * @param log receives model retry lines
     * @throws AssayException {@code suite.invalid}, {@code suite.empty_selection}, or the target's configuration
     *     problem ({@code replay.*}, {@code target.missing_api_key}, {@code target.discovery_failed})
     */
    public Prepared prepare(
            String runId,
            Path workspaceRoot,
            CheckerRegistry checkers,
            Function<String, String> env,
            Consumer<String> log)
            throws InterruptedException {
        return prepare(runId, workspaceRoot, checkers, env, log, Sandboxes.ISOLATING);
    }

    /**
     * As {@link #prepare(String, Path, CheckerRegistry, Function, Consumer)}, finding sandboxes with {@code sandboxes}.
     */
    public Prepared prepare(
            String runId,
            Path workspaceRoot,
            CheckerRegistry checkers,
            Function<String, String> env,
            Consumer<String> log,
            Sandboxes.Finder sandboxes)
            throws InterruptedException {
        // The agent loop needs the sandbox (to offer execute_command or not) once the suite is read: it is looked for
        // meanwhile. Code checks need it before, and share the same search.
        if (!allowUnsandboxedCode && !subjectName().equals(BuiltinSubjects.AGENT.name())) {
            return prepareWith(runId, workspaceRoot, checkers, env, log, sandboxes);
        }
        Sandboxes.Finder search = Sandboxes.searching(sandboxes);
        try {
            return prepareWith(runId, workspaceRoot, checkers, env, log, search);
        } catch (RuntimeException failed) {
            endSearch(search);
            throw failed;
        }
    }

    /** {@return what a selection can choose among: the suite's dimensions and languages} */
    private static String whatItHolds(Suite suite) {
        Suite.Breakdown breakdown = suite.breakdown();
        return suite.cases().isEmpty()
                ? "the suite holds no case"
                : "the suite's " + suite.cases().size() + " case(s) are in the dimensions "
                        + String.join(", ", breakdown.casesByDimension().keySet()) + " and the languages "
                        + String.join(", ", breakdown.languages());
    }

    private Prepared prepareWith(
            String runId,
            Path workspaceRoot,
            CheckerRegistry checkers,
            Function<String, String> env,
            Consumer<String> log,
            Sandboxes.Finder sandboxes)
            throws InterruptedException {
        Sandbox codeSandbox = allowUnsandboxedCode ? Sandboxes.detect(true, sandboxes) : null;
        CheckerRegistry runCheckers = checkers.with(
                codeSandbox != null
                        ? new CodeCheckerFactory(codeSandbox, CodeGrader.Options.defaults())
                        : new CodeCheckerFactory(sandboxes));
        var loader = new SuiteLoader(runCheckers);
        if (environment != null) {
            ObjectNode defaults = Json.object();
            defaults.set(ENVIRONMENT, environment);
            loader = loader.withCaseDefaults(defaults);
        }
        SuiteLoad load = dataset == null ? loader.load(suites) : loader.load(suites, dataset);
        load.notes().forEach(log);
        // A dataset's bad rows are reported and left out, and its other rows run.
        Suite loaded = load.suite(skipInvalid || dataset != null);
        Suite suite = selection.select(loaded);
        if (suite.cases().isEmpty()) {
            throw new AssayException(
                    Problem.of("suite.empty_selection", "no case matches the selection; " + whatItHolds(loaded))
                            .withDetail("field", "selection"));
        }
        ContainerSpecs.prepare(suite, tools.containerEngine(), workspaceRoot);
        var context = new SubjectContext(this, subject == null ? "" : pluginArgument(subject), env, log, sandboxes);
        Subject target;
        try {
            target = SUBJECTS.get(subjectName(), "subject").create(context);
        } catch (InterruptedException | RuntimeException e) {
            closeAll(context.toolboxes());
            throw e;
        }
        ObjectNode snapshot = snapshot(target.describe(), context.sandbox());
        context.toolSnapshots().forEach(snapshot::set);
        if (codeSandbox != null) {
            snapshot.put("code_sandbox", codeSandbox.kind());
        }
        return new Prepared(
                new RunPlan(suite, target, config(runId, workspaceRoot).withSnapshot(snapshot), runCheckers),
                load.problems(),
                context.sandbox(),
                context.toolboxes());
    }

    /**
     * Lets a sandbox search begun for a preparation that failed end first: a command exits at once with the failure,
     * and a probe cut off by the exit would leave its directory behind. What it found no longer matters.
     */
    private static void endSearch(Sandboxes.Finder finder) throws InterruptedException {
        try {
            finder.find();
        } catch (RuntimeException notNeeded) {
            // The preparation's own failure is the one reported.
        }
    }

    /** {@return the name of the system under test's factory: Assay's own, or the plug-in's} */
    private String subjectName() {
        if (replay != null) {
            return BuiltinSubjects.REPLAY.name();
        }
        if (agentService != null) {
            return BuiltinSubjects.SSE.name();
        }
        if (model != null) {
            return BuiltinSubjects.AGENT.name();
        }
        return pluginName(subject);
    }

    /** {@return NAME of {@code NAME[:ARGUMENT]}} */
    private static String pluginName(String subject) {
        int colon = subject.indexOf(':');
        return (colon < 0 ? subject : subject.substring(0, colon)).strip();
    }

    /** {@return ARGUMENT of {@code NAME[:ARGUMENT]}; empty without one} */
    private static String pluginArgument(String subject) {
        int colon = subject.indexOf(':');
        return colon < 0 ? "" : subject.substring(colon + 1);
    }

    private static void closeAll(List<Toolbox> toolboxes) {
        toolboxes.forEach(Toolbox::close);
    }

    /**
     * {@return this description as the run's configuration snapshot (versioned JSON, read back by
     * {@link #fromSnapshot})} with what preparing it found: the system under test as built and the sandbox in use.
     */
    ObjectNode snapshot(JsonNode target, Sandbox sandbox) {
        ObjectNode node = Json.object();
        if (model != null) {
            node.set("model", model.describe());
        }
        node.set("target", target);
        if (subject != null) {
            node.put("subject", subject);
        }
        node.put("spec_version", SPEC_VERSION);
        node.set("suites", Json.tree(suites.stream().map(Path::toString).toList()));
        // Where the suites were, wherever the run is resumed from.
        node.set(
                "suites_resolved",
                Json.tree(suites.stream()
                        .map(path -> path.toAbsolutePath().normalize().toString())
                        .toList()));
        node.put("skip_invalid", skipInvalid);
        node.set("selection", Json.tree(selection));
        node.put("concurrency", concurrency);
        node.put("samples", samples);
        node.put("timeout_s", timeout.toMillis() / 1000.0);
        node.set("weights", Json.tree(weights.byDimension()));
        node.put("scoring", weights.scoring().wireName());
        node.put("sandbox", sandbox == null ? "unavailable" : sandbox.kind());
        node.put("allow_unsandboxed_commands", tools.allowUnsandboxedCommands());
        node.put(ContainerSpecs.SNAPSHOT_FIELD, tools.containerEngine());
        node.put("allow_unsandboxed_code", allowUnsandboxedCode);
        node.put("workspace_policy", workspacePolicy.name().toLowerCase(Locale.ROOT));
        node.set("allowed_tools", Json.tree(tools.allowed()));
        node.put("user_id", userId);
        if (!metrics.isEmpty()) {
            node.set(CaseWorkload.METRICS, Json.tree(metrics));
        }
        if (!userModel.equals(UserModelOptions.NONE)) {
            node.set(USER_MODEL, userModel.describe());
        }
        if (environment != null) {
            node.set(ENVIRONMENT, environment);
        }
        node.set("prices", prices.toJson());
        node.put("prices_taken_on", prices.takenOn());
        budget.snapshotInto(node);
        if (dataset != null) {
            node.set("dataset", dataset.toJson());
        }
        return node;
    }

    /**
     * {@return the request a stored run was made from, read back from its configuration snapshot}: what resuming the
     * run needs, without the user repeating a flag. The API key is read again from the variable the snapshot names.
     *
     * <p>A plug-in's system under test is read back by its {@code NAME:ARGUMENT}.
     *
     * @throws AssayException {@code run.not_resumable} for a run whose snapshot cannot be read back: a recording's run
     *     (it calls nothing, so running it again re-scores it whole), an agent service whose URL held credentials or a
     *     query (never stored), or one stored by a later Assay
     */
    public static RunRequest fromSnapshot(Run run) {
        JsonNode config = run.config() == null ? Json.object() : run.config();
        JsonNode target = config.path("target");
        String type = target.path("type").asText("unknown");
        String why = config.path("spec_version").asInt(0) != SPEC_VERSION
                ? "its configuration snapshot is version "
                        + config.path("spec_version").asInt(0) + ", this Assay reads version " + SPEC_VERSION
                : config.path("subject").isTextual()
                        ? null
                        : type.equals("replay")
                                ? "a recording's run calls nothing: run the recording again to re-score it"
                                : type.equals(SSE_AGENT)
                                        ? SseAgentSettings.notStoredWhole(target)
                                                .orElse(null)
                                        : !type.equals("agent")
                                                        || !config.path("model").isObject()
                                                ? "its system under test (" + type + ") cannot be read back"
                                                : null;
        if (why != null) {
            throw new AssayException(
                    Problem.of("run.not_resumable", "run " + run.runId() + " cannot be resumed: " + why)
                            .withDetail("run_id", run.runId()));
        }
        return fromSnapshot(config, run.userId());
    }

    /**
     * {@return the description the snapshot of a model's or an agent service's run holds} Its inverse is
     * {@link #prepare}'s snapshot: a description prepared, snapshotted and read back is equal to itself.
     *
     * @param config the snapshot
     * @param userId the user where the snapshot, from an older Assay, does not name one
     */
    public static RunRequest fromSnapshot(JsonNode config, String userId) {
        JsonNode model = config.path("model");
        JsonNode target = config.path("target");
        boolean agentService = SSE_AGENT.equals(target.path("type").asText());
        String plugin =
                config.path("subject").isTextual() ? config.path("subject").asText() : null;
        var modelOptions = agentService || plugin != null ? null : ModelOptions.fromSnapshot(model);
        var agent = new AgentSettings(
                ToolMode.parse(target.path("tool_mode").asText("native")),
                target.path("max_steps").asInt(AgentSettings.defaults().maxSteps()),
                target.path("temperature").isNumber()
                        ? target.path("temperature").asDouble()
                        : null,
                target.path("seed").isNumber() ? target.path("seed").asLong() : null,
                target.path("max_tokens").isNumber() ? target.path("max_tokens").asInt() : null);
        Map<String, Double> byDimension = new LinkedHashMap<>();
        config.path("weights")
                .properties()
                .forEach(e -> byDimension.put(e.getKey(), e.getValue().asDouble()));
        var weights = new Weights(
                byDimension, Weights.Scoring.of(config.path("scoring").asText("assay")));
        JsonNode servers = config.path("mcp").path("servers");
        var mcpServers = new ArrayList<McpServerConfig>();
        for (JsonNode server : servers) {
            mcpServers.add(
                    server.path("transport").asText().equals("stdio")
                            ? new McpServerConfig.Stdio(
                                    server.path("name").asText(),
                                    server.path("command").asText(),
                                    strings(server.path("args")),
                                    strings(server.path("env")))
                            : new McpServerConfig.Http(
                                    server.path("name").asText(),
                                    server.path("url").asText(),
                                    Json.MAPPER.convertValue(server.path("headers"), STRING_MAP)));
        }
        var tools = new ToolOptions(
                mcpServers,
                null,
                strings(config.path("allowed_tools")),
                config.path("allow_unsandboxed_commands").asBoolean(false),
                config.path(ContainerSpecs.SNAPSHOT_FIELD).asText(""));
        JsonNode suitesNode = config.has("suites_resolved") ? config.path("suites_resolved") : config.path("suites");
        List<Path> suitePaths = strings(suitesNode).stream().map(Path::of).toList();
        Selection selection = Json.MAPPER.convertValue(config.path("selection"), Selection.class);
        return new RunRequest(
                suitePaths,
                config.path("skip_invalid").asBoolean(false),
                selection,
                modelOptions,
                agent,
                agentService ? SseAgentSettings.fromSnapshot(target) : null,
                null,
                plugin,
                tools,
                config.path("concurrency").asInt(4),
                seconds(config.path("timeout_s")),
                weights,
                config.path("samples").asInt(1),
                WorkspacePolicy.valueOf(config.path("workspace_policy")
                        .asText("keep_on_failure")
                        .toUpperCase(Locale.ROOT)),
                config.path("user_id").asText(userId),
                config.path("allow_unsandboxed_code").asBoolean(false),
                strings(config.path(CaseWorkload.METRICS)),
                UserModelOptions.fromSnapshot(config.path(USER_MODEL)),
                config.path(ENVIRONMENT) instanceof ObjectNode environment ? environment : null,
                PriceTable.ofSnapshot(config),
                Budget.ofSnapshot(config),
                config.has("dataset") ? DatasetMapping.fromJson(config.get("dataset"), "dataset") : null);
    }

    private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};

    private static Duration seconds(JsonNode value) {
        return value.isNumber() ? Duration.ofMillis(Math.round(value.asDouble() * 1000)) : null;
    }

    private static List<String> strings(JsonNode values) {
        var out = new ArrayList<String>();
        values.forEach(value -> out.add(value.asText()));
        return out;
    }
}
