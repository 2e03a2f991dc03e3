package dev.assay.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Plugins;
import dev.assay.Problem;
import dev.assay.cases.DatasetMapping;
import dev.assay.cases.Selection;
import dev.assay.cases.SuiteFormat;
import dev.assay.check.judge.JudgeConfig;
import dev.assay.cost.Budget;
import dev.assay.cost.Price;
import dev.assay.cost.PriceTable;
import dev.assay.model.ModelOptions;
import dev.assay.model.RetryPolicy;
import dev.assay.run.internal.Preparation;
import dev.assay.score.Reducer;
import dev.assay.score.Weights;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.ToolMode;
import dev.assay.subject.sse.SseAgentSettings;
import dev.assay.tools.McpServerConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * What one source says about a run: the values a front end was given (CLI flags, an API start body) or a file holds
 * ({@code assay.yaml}'s defaults and named target), each null when that source is silent. {@link #resolve} lays the
 * sources over each other and over Assay's defaults into the one {@link EvalSpec}, so a setting, its default, its
 * precedence and its validation live here once, whichever front end the run came from.
 *
 * <p>A source names at most one system under test (a model, an agent service, a recording or a plug-in's); the highest
 * source that names one decides it. MCP servers add up across sources; every other value is taken from the highest
 * source that gives it. A source that names a scoring preset also replaces lower sources' weights, so {@code --scoring
 * reference} means the reference weights unless the same source gives weights too.
 */
public final class RunSettings {
    /** Retries of a failed model call unless a source says otherwise. */
    public static final int DEFAULT_RETRIES = RetryPolicy.DEFAULT_MAX_ATTEMPTS - 1;

    private List<Path> suites;
    private Boolean skipInvalid;
    private List<String> dimensions;
    private String language;
    private List<String> tags;
    private List<String> ids;
    private Long seed;
    private Integer limit;
    private ModelOptions model;
    private List<ModelOptions> models;
    private ModelOptions versus;
    private String versusBaseUrl;
    private String versusApiKeyEnv;
    private Boolean stopWhenDecided;
    private SseAgentSettings agentService;
    private Path replay;
    private String subject;
    private String baseUrl;
    private String apiKeyEnv;
    private Integer retries;
    private Duration maxRetryWait;
    private Boolean stream;
    private ToolMode toolMode;
    private Integer maxSteps;
    private Double temperature;
    private Long samplingSeed;
    private Integer maxTokens;
    private List<McpServerConfig> mcpServers;
    private List<String> allowedTools;
    private Boolean allowUnsandboxedCommands;
    private String sandbox;
    private Boolean allowUnsandboxedCode;
    private Integer concurrency;
    private Duration timeout;
    private Weights.Scoring scoring;
    private Map<String, Double> weights;
    private Integer samples;
    private String clusterBy;
    private Reducer reducer;
    private Boolean keepWorkspaces;
    private String userId;
    private List<String> metrics;
    private String userModel;
    private String userBaseUrl;
    private String userApiKeyEnv;
    private ObjectNode environment;
    private ObjectNode container;
    private Map<String, Price> prices;
    private Double maxCostUsd;
    private Long runMaxTokens;
    private Long caseMaxTokens;
    private DatasetMapping dataset;
    private Map<Path, DatasetMapping> datasets;
    private List<JudgeConfig> judges;
    private Boolean judgeCache;
    private Double judgeMinKappa;
    private EvalSpec.Dialogs dialogs;

    /** Case files or directories. */
    public RunSettings suites(List<Path> value) {
        suites = value;
        return this;
    }

    public RunSettings skipInvalid(Boolean value) {
        skipInvalid = value;
        return this;
    }

    public RunSettings dimensions(List<String> value) {
        dimensions = value;
        return this;
    }

    /** Only cases in this language; also the run's recorded language. */
    public RunSettings language(String value) {
        language = value;
        return this;
    }

    public RunSettings tags(List<String> value) {
        tags = value;
        return this;
    }

    public RunSettings ids(List<String> value) {
        ids = value;
        return this;
    }

    /**
     * Shuffles the selection before the limit; also the model's sampling seed unless {@link #samplingSeed} is given.
     */
    public RunSettings seed(Long value) {
        seed = value;
        return this;
    }

    public RunSettings limit(Integer value) {
        limit = value;
        return this;
    }

    /** Evaluate this model with Assay's agent loop. */
    public RunSettings model(ModelOptions value) {
        model = value;
        return this;
    }

    /**
     * Evaluate each of these models with Assay's agent loop, every case against each ({@code --model A --model B},
     * {@code defaults.models}, the API's {@code models}); one model is {@link #model}. The base URL and key variable of
     * the sources apply to each model that names none of its own (a configured target's).
     */
    public RunSettings models(List<ModelOptions> value) {
        models = value;
        return this;
    }

    /**
     * Evaluate this model against the one the sources name, head to head ({@code --versus}): each case against both,
     * the named one A and this one B. It is called at {@link #versusBaseUrl} with the key in {@link #versusApiKeyEnv},
     * else where A is and with A's key.
     */
    public RunSettings versus(ModelOptions value) {
        versus = value;
        return this;
    }

    /** The API root of the {@link #versus} model; without it A's. */
    public RunSettings versusBaseUrl(String value) {
        versusBaseUrl = value;
        return this;
    }

    /** The variable holding the {@link #versus} model's key; without it A's. */
    public RunSettings versusApiKeyEnv(String value) {
        versusApiKeyEnv = value;
        return this;
    }

    /**
     * Stop a head-to-head run ({@link #versus}) as soon as the sequential test decides which model is better, its cases
     * in a random order ({@link EvalSpec.StopRule}).
     */
    public RunSettings stopWhenDecided(Boolean value) {
        stopWhenDecided = value;
        return this;
    }

    /** Evaluate this agent service, which runs its own loop. */
    public RunSettings agentService(SseAgentSettings value) {
        agentService = value;
        return this;
    }

    /** Re-score this recording without calling anything. */
    public RunSettings replay(Path value) {
        replay = value;
        return this;
    }

    /** Evaluate a plug-in's system under test, {@code NAME} or {@code NAME:ARGUMENT} ({@link SubjectFactory}). */
    public RunSettings subject(String value) {
        subject = value;
        return this;
    }

    /** The model's API root, over the one the model (a configured target's {@code base_url}) gives. */
    public RunSettings baseUrl(String value) {
        baseUrl = value;
        return this;
    }

    /** The variable holding the model's API key, named by the user, over the one the model gives. */
    public RunSettings apiKeyEnv(String value) {
        apiKeyEnv = value;
        return this;
    }

    /** Retries of a failed model call (429, 5xx, timeouts); replaces the model's own retry policy. */
    public RunSettings retries(Integer value) {
        retries = value;
        return this;
    }

    public RunSettings maxRetryWait(Duration value) {
        maxRetryWait = value;
        return this;
    }

    public RunSettings stream(Boolean value) {
        stream = value;
        return this;
    }

    public RunSettings toolMode(ToolMode value) {
        toolMode = value;
        return this;
    }

    public RunSettings maxSteps(Integer value) {
        maxSteps = value;
        return this;
    }

    public RunSettings temperature(Double value) {
        temperature = value;
        return this;
    }

    /** The model's sampling seed only, without shuffling the selection (a configured target's {@code seed}). */
    public RunSettings samplingSeed(Long value) {
        samplingSeed = value;
        return this;
    }

    public RunSettings maxTokens(Integer value) {
        maxTokens = value;
        return this;
    }

    /** MCP servers offered as {@code name@tool}; added to those of lower sources. */
    public RunSettings mcpServers(List<McpServerConfig> value) {
        mcpServers = value;
        return this;
    }

    /** Offer only these tools ({@code final_answer} always); empty for all. */
    public RunSettings allowedTools(List<String> value) {
        allowedTools = value;
        return this;
    }

    /** The container engine for cases that name an image: {@code docker} or {@code podman}; null for the first one. */
    public RunSettings sandbox(String value) {
        sandbox = value;
        return this;
    }

    public RunSettings allowUnsandboxedCommands(Boolean value) {
        allowUnsandboxedCommands = value;
        return this;
    }

    public RunSettings allowUnsandboxedCode(Boolean value) {
        allowUnsandboxedCode = value;
        return this;
    }

    public RunSettings concurrency(Integer value) {
        concurrency = value;
        return this;
    }

    public RunSettings timeout(Duration value) {
        timeout = value;
        return this;
    }

    /** A scoring preset: its weights and total rule; lower sources' weights no longer apply. */
    public RunSettings scoring(Weights.Scoring value) {
        scoring = value;
        return this;
    }

    /** Weights of the dimensions named, over the preset's; dimensions not named keep the preset's weight. */
    public RunSettings weights(Map<String, Double> value) {
        weights = value;
        return this;
    }

    public RunSettings samples(Integer value) {
        samples = value;
        return this;
    }

    /** The case field the reports' standard errors and intervals are clustered by (docs/statistics.md). */
    public RunSettings clusterBy(String value) {
        clusterBy = value;
        return this;
    }

    /** How the reports' intervals make a case's score from its samples (docs/statistics.md). */
    public RunSettings reducer(Reducer value) {
        reducer = value;
        return this;
    }

    public RunSettings keepWorkspaces(Boolean value) {
        keepWorkspaces = value;
        return this;
    }

    public RunSettings userId(String value) {
        userId = value;
        return this;
    }

    /** Extra metrics by name ({@link Metric}), computed over the run's items when it ends. */
    public RunSettings metrics(List<String> value) {
        metrics = value;
        return this;
    }

    /** The model that plays conversation cases' simulated users ({@code --user-model}). */
    public RunSettings userModel(String value) {
        userModel = value;
        return this;
    }

    /** The user model's API root; without it the user model uses the run's. */
    public RunSettings userBaseUrl(String value) {
        userBaseUrl = value;
        return this;
    }

    /** The variable holding the user model's API key; without it the user model uses the run's. */
    public RunSettings userApiKeyEnv(String value) {
        userApiKeyEnv = value;
        return this;
    }

    /**
     * Read the suites as plain datasets by this mapping (docs/datasets.md); laid field by field over lower sources'
     * mappings and the one {@link #datasets} gives the run's files.
     */
    public RunSettings dataset(DatasetMapping value) {
        dataset = value;
        return this;
    }

    /**
     * The environment of the cases that name none ({@code --environment}; docs/tau2.md), written as a case's
     * {@code environment} field: what a τ²-bench task file needs, having no place for it.
     */
    public RunSettings environment(ObjectNode value) {
        environment = value;
        return this;
    }

    /**
     * The container of the cases that name none (assay.yaml's {@code defaults.sandbox}), written as a case's
     * {@code sandbox} field: {@code {"image": ..., "workdir": ...}}; a case's own, or its suite file's, wins.
     */
    public RunSettings container(ObjectNode value) {
        container = value;
        return this;
    }

    /** Prices by model, USD per million tokens, over Assay's table and lower sources' entries (docs/cost.md). */
    public RunSettings prices(Map<String, Price> value) {
        prices = value;
        return this;
    }

    /** The most the run may cost in US dollars, every model call together ({@link Budget}). */
    public RunSettings maxCostUsd(Double value) {
        maxCostUsd = value;
        return this;
    }

    /** The most tokens the run may use, every model call together ({@link Budget}). */
    public RunSettings runMaxTokens(Long value) {
        runMaxTokens = value;
        return this;
    }

    /** The most tokens the system under test may use on one case ({@link Budget}). */
    public RunSettings caseMaxTokens(Long value) {
        caseMaxTokens = value;
        return this;
    }

    /**
     * The mappings of dataset files or directories, by absolute path ({@code assay.yaml}'s {@code datasets}): a run of
     * one of them is read by its mapping, so a mapping is written once per dataset.
     */
    public RunSettings datasets(Map<Path, DatasetMapping> value) {
        datasets = value;
        return this;
    }

    /**
     * The judge models of {@code judge} and {@code promptfoo} checks, the default first (assay.yaml's {@code judges}).
     */
    public RunSettings judges(List<JudgeConfig> value) {
        judges = value;
        return this;
    }

    /**
     * Whether judge answers may be reused from other runs (assay.yaml's {@code defaults.judge_cache}; default true).
     */
    public RunSettings judgeCache(Boolean value) {
        judgeCache = value;
        return this;
    }

    /**
     * The Cohen's kappa with people below which a report warns about a judge that decided the run's items (default
     * {@value EvalSpec.Scoring#DEFAULT_JUDGE_MIN_KAPPA}).
     */
    public RunSettings judgeMinKappa(Double value) {
        judgeMinKappa = value;
        return this;
    }

    /**
     * Evaluate these dialogs instead of suites' cases: a dialog run (docs/dialog.md), replayed by the model or the
     * agent service named, {@link #concurrency} dialogs at once ({@value EvalSpec.Dialogs#DEFAULT_CONCURRENCY} unless
     * given), each call of a turn within {@link #timeout}. An agent service without a field mapping reads the trace's
     * own field names ({@link FieldMapping#defaults}).
     */
    public RunSettings dialogs(EvalSpec.Dialogs value) {
        dialogs = value;
        return this;
    }

    /** {@return a copy of these settings, which the caller may change without changing these} */
    public RunSettings copy() {
        RunSettings copy = new RunSettings();
        copy.takeFrom(this);
        return copy;
    }

    /**
     * {@return what these settings say about judges alone: their models, whether their answers are reused across runs,
     * and the kappa below which a report warns}
     */
    public RunSettings judging() {
        return new RunSettings().judges(judges).judgeCache(judgeCache).judgeMinKappa(judgeMinKappa);
    }

    /** {@return whether this source names a system under test} */
    public boolean namesSubject() {
        return model != null || models != null || agentService != null || replay != null || subject != null;
    }

    /**
     * {@return the run the sources describe, each over the ones before it, all over Assay's defaults}
     *
     * @param lowestFirst the sources, lowest precedence first (e.g. {@code assay.yaml}, then the command line)
     * @throws dev.assay.AssayException {@code config.missing_suite}, {@code config.missing_target},
     *     {@code config.conflicting_targets}, {@code config.invalid_subject}, {@code plugin.unknown} (a metric)
     */
    public static EvalSpec resolve(List<RunSettings> lowestFirst) {
        RunSettings merged = new RunSettings();
        lowestFirst.forEach(merged::takeFrom);
        return merged.toSpec();
    }

    /** {@return the run these settings describe alone, over Assay's defaults} */
    public EvalSpec resolve() {
        return resolve(List.of(this));
    }

    private void takeFrom(RunSettings higher) {
        suites = pick(higher.suites, suites);
        skipInvalid = pick(higher.skipInvalid, skipInvalid);
        dimensions = pick(higher.dimensions, dimensions);
        language = pick(higher.language, language);
        tags = pick(higher.tags, tags);
        ids = pick(higher.ids, ids);
        if (higher.seed != null) {
            seed = higher.seed;
            samplingSeed = higher.samplingSeed;
        } else {
            samplingSeed = pick(higher.samplingSeed, samplingSeed);
        }
        limit = pick(higher.limit, limit);
        if (higher.namesSubject()) {
            model = higher.model;
            models = higher.models;
            agentService = higher.agentService;
            replay = higher.replay;
            subject = higher.subject;
        }
        versus = pick(higher.versus, versus);
        versusBaseUrl = pick(higher.versusBaseUrl, versusBaseUrl);
        versusApiKeyEnv = pick(higher.versusApiKeyEnv, versusApiKeyEnv);
        stopWhenDecided = pick(higher.stopWhenDecided, stopWhenDecided);
        baseUrl = pick(higher.baseUrl, baseUrl);
        apiKeyEnv = pick(higher.apiKeyEnv, apiKeyEnv);
        retries = pick(higher.retries, retries);
        maxRetryWait = pick(higher.maxRetryWait, maxRetryWait);
        stream = pick(higher.stream, stream);
        toolMode = pick(higher.toolMode, toolMode);
        maxSteps = pick(higher.maxSteps, maxSteps);
        temperature = pick(higher.temperature, temperature);
        maxTokens = pick(higher.maxTokens, maxTokens);
        if (higher.mcpServers != null) {
            var servers = new ArrayList<McpServerConfig>(mcpServers == null ? List.of() : mcpServers);
            servers.addAll(higher.mcpServers);
            mcpServers = servers;
        }
        allowedTools = pick(higher.allowedTools, allowedTools);
        allowUnsandboxedCommands = pick(higher.allowUnsandboxedCommands, allowUnsandboxedCommands);
        sandbox = pick(higher.sandbox, sandbox);
        allowUnsandboxedCode = pick(higher.allowUnsandboxedCode, allowUnsandboxedCode);
        concurrency = pick(higher.concurrency, concurrency);
        timeout = pick(higher.timeout, timeout);
        if (higher.scoring != null) {
            scoring = higher.scoring;
            weights = higher.weights;
        } else {
            weights = pick(higher.weights, weights);
        }
        samples = pick(higher.samples, samples);
        clusterBy = pick(higher.clusterBy, clusterBy);
        reducer = pick(higher.reducer, reducer);
        keepWorkspaces = pick(higher.keepWorkspaces, keepWorkspaces);
        userId = pick(higher.userId, userId);
        metrics = pick(higher.metrics, metrics);
        userModel = pick(higher.userModel, userModel);
        userBaseUrl = pick(higher.userBaseUrl, userBaseUrl);
        userApiKeyEnv = pick(higher.userApiKeyEnv, userApiKeyEnv);
        environment = pick(higher.environment, environment);
        container = pick(higher.container, container);
        if (higher.prices != null) {
            var merged = new java.util.TreeMap<String, Price>(prices == null ? Map.of() : prices);
            merged.putAll(higher.prices);
            prices = merged;
        }
        maxCostUsd = pick(higher.maxCostUsd, maxCostUsd);
        runMaxTokens = pick(higher.runMaxTokens, runMaxTokens);
        caseMaxTokens = pick(higher.caseMaxTokens, caseMaxTokens);
        dataset = higher.dataset == null ? dataset : higher.dataset.over(dataset);
        datasets = pick(higher.datasets, datasets);
        judges = pick(higher.judges, judges);
        judgeCache = pick(higher.judgeCache, judgeCache);
        judgeMinKappa = pick(higher.judgeMinKappa, judgeMinKappa);
        dialogs = pick(higher.dialogs, dialogs);
    }

    private EvalSpec toSpec() {
        if (dialogs != null) {
            return toDialogSpec();
        }
        if (suites == null || suites.isEmpty()) {
            throw new AssayException(Problem.of("config.missing_suite", "name at least one suite")
                    .withDetail("field", "suites"));
        }
        Long sampling = samplingSeed != null ? samplingSeed : seed;
        var agent = new AgentSettings(
                toolMode != null ? toolMode : ToolMode.NATIVE,
                maxSteps != null ? maxSteps : AgentSettings.defaults().maxSteps(),
                temperature,
                sampling,
                maxTokens);
        var baseWeights = Weights.preset(scoring != null ? scoring : Weights.Scoring.ASSAY);
        List<String> metricNames = metrics == null ? List.of() : metrics;
        EvalSpec.Sut sut = sut();
        PriceTable priceTable = PriceTable.shipped().with(prices);
        var budget = new Budget(maxCostUsd, runMaxTokens, caseMaxTokens);
        List<ModelOptions> priced = sut instanceof EvalSpec.Model model
                ? List.of(model.options())
                : sut instanceof EvalSpec.Models several
                        ? List.copyOf(several.byLabel().values())
                        : List.of();
        for (ModelOptions options : budget.maxCostUsd() == null ? List.<ModelOptions>of() : priced) {
            if (priceTable.find(options.model()).isEmpty()) {
                throw new AssayException(Problem.of(
                                "config.unpriced_model",
                                "--max-cost needs the price of " + options.model()
                                        + ", which Assay's price table does not hold: give it in assay.yaml's prices "
                                        + "(docs/cost.md)")
                        .withDetail("field", "prices")
                        .withDetail("model", options.model()));
            }
        }
        EvalSpec.StopRule stopRule = stopRule(sut);
        // A head-to-head that stops when decided runs its cases in a random order (the test assumes no order), drawn
        // once here and kept in the spec's selection, so that a resumed run goes on in the same order.
        Long order = seed;
        if (order == null && stopRule.stopsWhenDecided()) {
            order = new java.security.SecureRandom().nextLong();
        }
        DatasetMapping mapping = dataset != null ? dataset.over(configuredDataset()) : configuredDataset();
        if (mapping != null) {
            mapping.validate();
        }
        if (!metricNames.isEmpty()) {
            Plugins<Metric> metrics = RunPlugins.discovered().metrics();
            metricNames.forEach(name -> metrics.get(name, "metrics"));
        }
        EvalSpec.Limits defaults = EvalSpec.Limits.DEFAULTS;
        return new EvalSpec(
                new EvalSpec.Dataset(
                        suites,
                        null,
                        Boolean.TRUE.equals(skipInvalid),
                        new Selection(dimensions, language, tags, ids, order, limit == null ? 0 : limit),
                        mapping,
                        environment,
                        container,
                        null),
                new EvalSpec.SubjectSpec(
                        sut,
                        agent,
                        new ToolOptions(
                                mcpServers, null, allowedTools, Boolean.TRUE.equals(allowUnsandboxedCommands), sandbox),
                        new UserModelOptions(userModel, userBaseUrl, userApiKeyEnv)),
                new EvalSpec.Scoring(
                        weights == null ? baseWeights : baseWeights.with(weights),
                        metricNames,
                        Boolean.TRUE.equals(allowUnsandboxedCode),
                        clusterBy,
                        reducer,
                        judges,
                        !Boolean.FALSE.equals(judgeCache),
                        judgeMinKappa != null ? judgeMinKappa : EvalSpec.Scoring.DEFAULT_JUDGE_MIN_KAPPA),
                new EvalSpec.Limits(
                        concurrency != null ? concurrency : defaults.concurrency(),
                        timeout != null ? timeout : defaults.timeout(),
                        samples != null ? samples : defaults.samples(),
                        Boolean.TRUE.equals(keepWorkspaces) ? WorkspacePolicy.KEEP_ALL : defaults.workspacePolicy(),
                        priceTable,
                        budget,
                        stopRule),
                userId,
                EvalSpec.Observed.NONE);
    }

    /**
     * {@return the stop rule {@link #stopWhenDecided} asks for}
     *
     * @throws AssayException {@code config.invalid_versus} when the run is not a head-to-head of two models
     */
    private EvalSpec.StopRule stopRule(EvalSpec.Sut sut) {
        if (!Boolean.TRUE.equals(stopWhenDecided)) {
            return EvalSpec.StopRule.NONE;
        }
        if (!(sut instanceof EvalSpec.Models models) || models.byLabel().size() != 2) {
            throw new AssayException(Problem.of(
                            "config.invalid_versus",
                            "--stop-when-decided compares two models head to head: give --model A --versus B")
                    .withDetail("field", "stop_when_decided"));
        }
        return new EvalSpec.StopRule(EvalSpec.StopRule.DEFAULT_ALPHA, EvalSpec.StopRule.DEFAULT_MDE);
    }

    /** {@return the dialog run the sources describe: a chat model's or an agent service's} */
    private EvalSpec toDialogSpec() {
        EvalSpec.Sut sut = sut();
        if (!(sut instanceof EvalSpec.Model || sut instanceof EvalSpec.AgentService)) {
            throw new AssayException(Problem.of(
                            "config.invalid_subject",
                            "a dialog run replays its dialogs against a model or an agent service")
                    .withDetail("field", "target"));
        }
        EvalSpec.Dialogs given = dialogs;
        if (sut instanceof EvalSpec.AgentService && given.fieldMapping() == null) {
            given = given.withFieldMapping(FieldMapping.defaults());
        }
        var sampling = new AgentSettings(
                ToolMode.NATIVE,
                AgentSettings.defaults().maxSteps(),
                temperature,
                samplingSeed != null ? samplingSeed : seed,
                null);
        EvalSpec.Limits defaults = EvalSpec.Limits.DEFAULTS;
        return new EvalSpec(
                EvalSpec.Dataset.of(given),
                new EvalSpec.SubjectSpec(sut, sampling, null, null),
                new EvalSpec.Scoring(null, null, false),
                new EvalSpec.Limits(
                        concurrency != null ? concurrency : EvalSpec.Dialogs.DEFAULT_CONCURRENCY,
                        timeout != null ? timeout : defaults.timeout(),
                        1,
                        defaults.workspacePolicy()),
                userId,
                EvalSpec.Observed.NONE);
    }

    /** {@return the one system under test the sources name} */
    private EvalSpec.Sut sut() {
        int named = (model != null || models != null ? 1 : 0)
                + (agentService != null ? 1 : 0)
                + (replay != null ? 1 : 0)
                + (subject != null ? 1 : 0);
        if (named > 1) {
            throw new AssayException(Problem.of(
                            "config.conflicting_targets",
                            "evaluate one of a model, an agent service, a recording and a plug-in's system, not several")
                    .withDetail("field", "target"));
        }
        if (versus != null && model == null && (models == null || models.size() != 1)) {
            throw new AssayException(Problem.of(
                            "config.invalid_versus",
                            "--versus compares one model with another: give exactly one --model beside it")
                    .withDetail("field", "versus"));
        }
        if (versus != null) {
            ModelOptions a = withOverrides(model != null ? model : models.getFirst(), false);
            ModelOptions b = withOverrides(
                    new ModelOptions(
                            versus.model(),
                            versusBaseUrl != null ? versusBaseUrl : a.baseUrl(),
                            versusApiKeyEnv != null ? versusApiKeyEnv : a.apiKeyEnvNamed() ? a.apiKeyEnv() : null,
                            versus.stream(),
                            versus.requestTimeout(),
                            versus.retry(),
                            versusApiKeyEnv != null || a.apiKeyEnvNamed()),
                    true);
            return labelled(List.of(a, b));
        }
        if (models != null && models.size() > 1) {
            return labelled(
                    models.stream().map(given -> withOverrides(given, true)).toList());
        }
        if (model != null || models != null) {
            return new EvalSpec.Model(withOverrides(model != null ? model : models.getFirst(), false));
        }
        if (agentService != null) {
            return new EvalSpec.AgentService(agentService);
        }
        if (replay != null) {
            return new EvalSpec.Replay(replay);
        }
        String given = subject != null ? subject : suiteSubject();
        if (given == null) {
            throw new AssayException(Problem.of(
                            "config.missing_target", "name what to evaluate: a model, an agent service or a recording")
                    .withDetail("field", "target"));
        }
        EvalSpec.Plugin plugin = EvalSpec.Plugin.parse(given);
        if (Preparation.isBuiltin(plugin.name())) {
            throw new AssayException(Problem.of(
                            "config.invalid_subject",
                            "'" + plugin.name() + "' is Assay's own: name it with --model, --agent or --replay")
                    .withDetail("field", "subject"));
        }
        return plugin;
    }

    /**
     * {@return the system under test a suite in another format names itself (a promptfoo config's providers), for a run
     * that names none; null otherwise}
     */
    private String suiteSubject() {
        if (suites == null || suites.size() != 1) {
            return null;
        }
        return SuiteFormat.of(suites.getFirst())
                .flatMap(format -> format.subject(suites.getFirst()))
                .orElse(null);
    }

    /**
     * {@return the mapping {@link #datasets} gives the run's suites}; null when it gives none
     *
     * @throws AssayException {@code dataset.invalid_mapping} when it gives two of them different ones
     */
    private DatasetMapping configuredDataset() {
        if (datasets == null || suites == null) {
            return null;
        }
        var found = new LinkedHashSet<DatasetMapping>();
        for (Path suite : suites) {
            DatasetMapping mapping = datasets.get(suite.toAbsolutePath().normalize());
            if (mapping != null) {
                found.add(mapping);
            }
        }
        if (found.size() > 1) {
            throw new AssayException(Problem.of(
                            "dataset.invalid_mapping",
                            "the run's datasets have different mappings under `datasets`; run them one at a time")
                    .withDetail("field", "datasets"));
        }
        return found.isEmpty() ? null : found.getFirst();
    }

    /**
     * {@return several models under their labels, each its model's name}
     *
     * @throws AssayException {@code config.duplicate_model} when two have the same name
     */
    private static EvalSpec.Models labelled(List<ModelOptions> given) {
        var byLabel = new java.util.LinkedHashMap<String, ModelOptions>();
        for (ModelOptions options : given) {
            if (byLabel.putIfAbsent(options.model(), options) != null) {
                throw new AssayException(Problem.of(
                                "config.duplicate_model",
                                "the model " + options.model() + " is named twice; name each model of a run once")
                        .withDetail("field", "models")
                        .withDetail("model", options.model()));
            }
        }
        return new EvalSpec.Models(byLabel);
    }

    /**
     * {@return the model with what sources set over its own fields}: the base URL, the key's variable, streaming, and
     * the retries (a configured target's {@code max_attempts} unless a source sets them)
     *
     * @param ownFirst keep the model's own base URL and key variable where it names them (one of several models, a
     *     configured target's), the sources' applying only where it names none; else the sources' win
     */
    private ModelOptions withOverrides(ModelOptions given, boolean ownFirst) {
        RetryPolicy retry =
                retries == null && maxRetryWait == null ? given.retry() : retryPolicy(retries, maxRetryWait);
        boolean ownUrl = ownFirst && given.baseUrl() != null;
        boolean ownKey = ownFirst && given.apiKeyEnvNamed();
        return new ModelOptions(
                given.model(),
                baseUrl != null && !ownUrl ? baseUrl : given.baseUrl(),
                apiKeyEnv != null && !ownKey ? apiKeyEnv : given.apiKeyEnv(),
                stream != null ? stream : given.stream(),
                given.requestTimeout(),
                retry,
                (apiKeyEnv != null && !ownKey) || given.apiKeyEnvNamed());
    }

    /**
     * {@return Assay's backoff with {@code retries} retries and {@code maxRetryWait} of waiting in all}: how a model
     * call, and an agent service before its stream starts, retries
     *
     * @param retries retries after the first call; null for {@link #DEFAULT_RETRIES}
     * @param maxRetryWait the cap on all waits of one call; null for {@link RetryPolicy#DEFAULT_MAX_TOTAL_WAIT_S}
     */
    public static RetryPolicy retryPolicy(Integer retries, Duration maxRetryWait) {
        RetryPolicy defaults = RetryPolicy.defaults();
        return defaults.withMaxAttempts((retries != null ? retries : DEFAULT_RETRIES) + 1)
                .withMaxTotalWait(maxRetryWait != null ? maxRetryWait : defaults.maxTotalWait());
    }

    private static <T> T pick(T higher, T lower) {
        return higher != null ? higher : lower;
    }
}
