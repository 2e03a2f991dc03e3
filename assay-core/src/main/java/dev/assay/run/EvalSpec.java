package dev.assay.run;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.cases.DatasetMapping;
import dev.assay.cases.Selection;
import dev.assay.check.CheckerRegistry;
import dev.assay.check.judge.JudgeConfig;
import dev.assay.cost.Budget;
import dev.assay.cost.PriceTable;
import dev.assay.model.ModelOptions;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.run.internal.BuiltinSubjects;
import dev.assay.run.internal.Preparation;
import dev.assay.sandbox.Sandboxes;
import dev.assay.score.Reducer;
import dev.assay.score.Weights;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.ToolMode;
import dev.assay.subject.sse.SseAgentSettings;
import dev.assay.tools.McpServerConfig;
import dev.assay.tools.McpServerState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The description of a capability run, in four parts: what is evaluated ({@link Dataset}), the system under test
 * ({@link SubjectSpec}), how it is scored ({@link Scoring}) and within which limits ({@link Limits}); plus who runs it
 * and what preparing the run found ({@link Observed}). Every front end arrives here through one resolver
 * ({@link RunSettings#resolve}), which writes the defaults once.
 *
 * <p>Written by Jackson, it <em>is</em> the configuration snapshot stored with the run ({@code spec_version}
 * {@value #VERSION}, snake_case keys, flat as the snapshot always was): written once when the run is prepared, read
 * back by {@link #read} alone, which upgrades an older version by code. Engine, workers, resume and reports read this
 * type, never the snapshot by path. Holds no secrets: API keys and credentials are named by the environment variable
 * that holds them, and URLs are stored without credentials. Immutable.
 *
 * @param dataset the suites and which of their cases
 * @param subject what answers the cases, and the tools it is offered
 * @param scoring how answers are judged and summed up
 * @param limits how much runs at once, for how long, how often
 * @param userId who runs it; empty when not given
 * @param observed what preparing the run found; {@link Observed#NONE} until then
 */
public record EvalSpec(
        Dataset dataset, SubjectSpec subject, Scoring scoring, Limits limits, String userId, Observed observed) {
    /**
     * The version of the stored layout. 1: the system under test only as built ({@code target}); 2: adds what it was
     * made from ({@code agent}, {@code agent_service}, {@code replay}, {@code subject}) and the MCP servers as
     * configured ({@code mcp_servers}); 3: adds the judge models ({@code judges}, {@code judge_cache},
     * {@code judge_min_kappa}), which a version 2 snapshot lacks (it is read with none: {@link #withJudges}).
     */
    public static final int VERSION = 3;

    /**
     * The version of a dialog run's stored layout ({@link Dialogs}): its own keys, stored under {@value #DIALOG_KEY}
     * beside the run's manifest.
     */
    public static final int DIALOG_VERSION = 1;

    /** The key of a dialog run's config snapshot under which its spec is stored. */
    public static final String DIALOG_KEY = "request";

    public EvalSpec {
        Objects.requireNonNull(dataset, "dataset");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(scoring, "scoring");
        Objects.requireNonNull(limits, "limits");
        userId = userId == null ? "" : userId;
        observed = observed == null ? Observed.NONE : observed;
    }

    /**
     * What is evaluated: the cases of suite files.
     *
     * @param suites case files or directories, as given; a resumed run's are {@code resolved}
     * @param resolved the same, absolute: where they were, wherever the run is resumed from (computed from
     *     {@code suites} when null)
     * @param skipInvalid run the valid cases of an invalid suite instead of refusing
     * @param selection which cases
     * @param mapping how the suites' rows become cases when they are plain datasets (docs/datasets.md); null for case
     *     files
     * @param environment the environment of the cases that name none ({@code --environment}, docs/tau2.md), as a case's
     *     {@code environment} field is written; null for none
     * @param container the container of the cases that name none (assay.yaml's {@code defaults.sandbox}), as a case's
     *     {@code sandbox} field is written; null for none
     * @param dialogs the dialogs of a dialog run, evaluated instead of suites' cases; null for a capability run
     */
    public record Dataset(
            List<Path> suites,
            List<Path> resolved,
            boolean skipInvalid,
            Selection selection,
            DatasetMapping mapping,
            ObjectNode environment,
            ObjectNode container,
            Dialogs dialogs) {
        public Dataset {
            environment = environment == null ? null : environment.deepCopy();
            container = container == null ? null : container.deepCopy();
            suites = List.copyOf(suites);
            resolved = resolved == null
                    ? suites.stream()
                            .map(path -> path.toAbsolutePath().normalize())
                            .toList()
                    : List.copyOf(resolved);
            selection = selection == null ? Selection.ALL : selection;
        }

        /** {@return what a dialog run evaluates: its dialogs, and no suite} */
        public static Dataset of(Dialogs dialogs) {
            return new Dataset(List.of(), List.of(), false, Selection.ALL, null, null, null, dialogs);
        }

        /** {@return the same cases read from {@code given}, as given and absolute} */
        public Dataset withSuites(List<Path> given) {
            return new Dataset(given, null, skipInvalid, selection, mapping, environment, container, dialogs);
        }
    }

    /**
     * What a dialog run evaluates (docs/dialog.md): the dialogs of one dataset, replayed turn by turn against a chat
     * model ({@link Model}, with the {@link SubjectSpec#agent} settings' temperature and seed) or an agent service
     * ({@link AgentService}), as many at once as the limits' concurrency, each call of a turn within the limits'
     * timeout.
     *
     * @param name the dataset as the user named it (recorded as the manifest's {@code dataset_path})
     * @param file the dataset file, absolute: where it was, wherever the run is resumed from
     * @param runDirectory where the reference files go
     * @param systemPrompt sent first in every chat model request; empty for none
     * @param promptVersion the label of the system prompt recorded in the manifest; empty for none
     * @param fieldMapping where an agent service's turn reports hold the trace's fields; null with a chat model
     * @param turnRetries extra attempts after a failed turn, >= 0
     * @param score the metrics profile and baseline option
     * @param judge the LLM judge of the explainability metric; null for none
     */
    public record Dialogs(
            String name,
            Path file,
            Path runDirectory,
            String systemPrompt,
            String promptVersion,
            FieldMapping fieldMapping,
            int turnRetries,
            ScoreOptions score,
            DialogJudge judge) {
        /** Dialogs replayed at once unless a source says otherwise. */
        public static final int DEFAULT_CONCURRENCY = 1;
        /** Extra attempts of a failed turn unless a source says otherwise. */
        public static final int DEFAULT_TURN_RETRIES = 1;

        public Dialogs {
            file = Objects.requireNonNull(file, "file").toAbsolutePath().normalize();
            name = name == null ? file.toString() : name;
            runDirectory = Objects.requireNonNull(runDirectory, "runDirectory")
                    .toAbsolutePath()
                    .normalize();
            systemPrompt = systemPrompt == null ? "" : systemPrompt;
            promptVersion = promptVersion == null ? "" : promptVersion;
            if (turnRetries < 0) {
                throw new IllegalArgumentException("turnRetries must be >= 0, got " + turnRetries);
            }
            score = score == null ? ScoreOptions.defaults() : score;
        }

        /** {@return the same dialogs with their reference files going to {@code directory}} */
        public Dialogs withRunDirectory(Path directory) {
            return new Dialogs(
                    name, file, directory, systemPrompt, promptVersion, fieldMapping, turnRetries, score, judge);
        }

        /** {@return the same dialogs with an agent service's turn reports read by {@code mapping}} */
        public Dialogs withFieldMapping(FieldMapping mapping) {
            return new Dialogs(
                    name, file, runDirectory, systemPrompt, promptVersion, mapping, turnRetries, score, judge);
        }
    }

    /**
     * The LLM judge of a dialog run's explainability metric, as the user named it.
     *
     * @param model the judge's model; its key is named by a variable
     * @param workers turns graded at once, >= 1
     */
    public record DialogJudge(ModelOptions model, int workers) {
        public DialogJudge {
            Objects.requireNonNull(model, "model");
            if (workers < 1) {
                throw new IllegalArgumentException("workers must be at least 1, got " + workers);
            }
        }
    }

    /**
     * The system under test and the tools offered to it.
     *
     * @param sut what answers the cases
     * @param agent how Assay's agent loop drives a model (used with {@link Model} only)
     * @param tools MCP servers, the allowed-tool list and whether commands may run unconfined
     * @param userModel the model that plays conversation cases' simulated users and how to reach it;
     *     {@link UserModelOptions#NONE} when the run names none
     */
    public record SubjectSpec(Sut sut, AgentSettings agent, ToolOptions tools, UserModelOptions userModel) {
        public SubjectSpec {
            Objects.requireNonNull(sut, "sut");
            userModel = userModel == null ? UserModelOptions.NONE : userModel;
            agent = agent == null ? AgentSettings.defaults() : agent;
            tools = tools == null ? ToolOptions.DEFAULTS : tools;
        }
    }

    /** What answers the cases: exactly one of these. */
    public sealed interface Sut {
        /** {@return the name of the {@link SubjectFactory} that builds it} */
        String factory();
    }

    /** A model driven by Assay's agent loop. */
    public record Model(ModelOptions options) implements Sut {
        public Model {
            Objects.requireNonNull(options, "options");
        }

        @Override
        public String factory() {
            return BuiltinSubjects.AGENT.name();
        }
    }

    /**
     * Several models in one run, each driven by Assay's agent loop under its label: every case runs against each of
     * them ({@link dev.assay.cases.Case#boundTo}), and the reports show a matrix of label × dimension. A head-to-head
     * run ({@code --versus}) is two of them, the first its A and the second its B.
     *
     * @param byLabel the models by label, in the order given; at least two
     */
    public record Models(Map<String, ModelOptions> byLabel) implements Sut {
        public Models {
            if (byLabel.size() < 2) {
                throw new IllegalArgumentException("several models: at least two");
            }
            byLabel = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byLabel));
        }

        @Override
        public String factory() {
            return BuiltinSubjects.MODELS.name();
        }
    }

    /** An agent service, which runs its own loop. */
    public record AgentService(SseAgentSettings settings) implements Sut {
        public AgentService {
            Objects.requireNonNull(settings, "settings");
        }

        @Override
        public String factory() {
            return BuiltinSubjects.SSE.name();
        }
    }

    /** A recording, re-scored without calling anything. */
    public record Replay(Path path) implements Sut {
        public Replay {
            Objects.requireNonNull(path, "path");
        }

        @Override
        public String factory() {
            return BuiltinSubjects.REPLAY.name();
        }
    }

    /**
     * A plug-in's system under test ({@link SubjectFactory}).
     *
     * @param name the factory's name
     * @param argument what follows {@code NAME:}; empty without one
     */
    public record Plugin(String name, String argument) implements Sut {
        public Plugin {
            Objects.requireNonNull(name, "name");
            argument = argument == null ? "" : argument;
        }

        /** {@return the plug-in named by {@code NAME} or {@code NAME:ARGUMENT}} */
        public static Plugin parse(String text) {
            int colon = text.indexOf(':');
            return colon < 0
                    ? new Plugin(text.strip(), "")
                    : new Plugin(text.substring(0, colon).strip(), text.substring(colon + 1));
        }

        @Override
        public String factory() {
            return name;
        }

        @Override
        public String toString() {
            return argument.isEmpty() ? name : name + ":" + argument;
        }
    }

    /**
     * A system under test a stored snapshot does not describe well enough to build it again: a run stored by an older
     * Assay, or an agent service whose URL held credentials (never stored). Such a run is reported, never resumed.
     *
     * @param type the system's type as stored
     * @param why why it cannot be built again
     */
    public record Unrecorded(String type, String why) implements Sut {
        @Override
        public String factory() {
            return type;
        }
    }

    /**
     * How answers are judged and summed up.
     *
     * @param weights dimension weights and the total rule
     * @param metrics extra metrics by name ({@link Metric}), computed over the run's items when it ends; empty for none
     * @param allowUnsandboxedCode let the code checker run model-written code unconfined when bubblewrap is missing
     * @param clusterBy the case field the reports' standard errors and intervals are clustered by
     *     ({@code --cluster-by}, docs/statistics.md); null for none: items taken as independent
     * @param reducer how the reports' intervals make a case's score from its samples ({@code --reducer}); null for
     *     none: each sample an item of its own
     * @param judges the judge models that grade judge and promptfoo checks, the default first; empty for none (judge
     *     checks are then skipped with {@code judge.not_configured})
     * @param judgeCache whether judge answers may be reused from other runs ({@code --cache}); false keeps grading
     *     fresh
     * @param judgeMinKappa the agreement with people (Cohen's kappa) below which a run's report warns about a judge
     *     that decided its items (docs/judge.md, "Calibration")
     */
    public record Scoring(
            Weights weights,
            List<String> metrics,
            boolean allowUnsandboxedCode,
            String clusterBy,
            Reducer reducer,
            List<JudgeConfig> judges,
            boolean judgeCache,
            double judgeMinKappa) {
        /** The agreement below which a judge is reported as unreliable unless a source says otherwise. */
        public static final double DEFAULT_JUDGE_MIN_KAPPA = 0.6;

        public Scoring {
            weights = weights == null ? Weights.defaults() : weights;
            metrics = metrics == null ? List.of() : List.copyOf(metrics);
            clusterBy = clusterBy == null || clusterBy.isBlank() ? null : clusterBy.strip();
            judges = judges == null ? List.of() : List.copyOf(judges);
        }

        /** Scoring without judges, cluster field or reducer. */
        public Scoring(Weights weights, List<String> metrics, boolean allowUnsandboxedCode) {
            this(weights, metrics, allowUnsandboxedCode, null, null, List.of(), true, DEFAULT_JUDGE_MIN_KAPPA);
        }

        /** {@return the same scoring with the reports' intervals clustered by {@code given}} */
        public Scoring withClusterBy(String given) {
            return new Scoring(
                    weights, metrics, allowUnsandboxedCode, given, reducer, judges, judgeCache, judgeMinKappa);
        }

        /** {@return the same scoring with the reports' intervals reducing samples by {@code given}} */
        public Scoring withReducer(Reducer given) {
            return new Scoring(
                    weights, metrics, allowUnsandboxedCode, clusterBy, given, judges, judgeCache, judgeMinKappa);
        }

        /** {@return the same scoring graded by the judge models {@code given}} */
        public Scoring withJudges(List<JudgeConfig> given) {
            return new Scoring(
                    weights, metrics, allowUnsandboxedCode, clusterBy, reducer, given, judgeCache, judgeMinKappa);
        }
    }

    /**
     * How much runs at once, for how long, how often, and what is kept. Within a case's time, each request to a model
     * has its own limit, {@value ModelOptions#DEFAULT_REQUEST_TIMEOUT_S} s unless its options say otherwise, and the
     * retries of one call wait at most {@value dev.assay.model.RetryPolicy#DEFAULT_MAX_TOTAL_WAIT_S} s together
     * ({@link ModelOptions#retry}).
     *
     * @param concurrency cases at once, >= 1 (the system under test's own limit also applies)
     * @param timeout per-case time limit unless the case sets {@code timeout_s}
     * @param samples answers drawn per case, >= 1
     * @param workspacePolicy which case workspaces are kept afterwards
     * @param prices what each model's tokens cost: Assay's table with {@code assay.yaml}'s {@code prices} over it;
     *     kept, so a run's cost reads the same later (docs/cost.md)
     * @param budget the limits on the run's cost and tokens ({@link Budget#NONE} for none)
     * @param stopRule when a head-to-head run stops before its cases run out; {@link StopRule#NONE} to run them all
     */
    public record Limits(
            int concurrency,
            Duration timeout,
            int samples,
            WorkspacePolicy workspacePolicy,
            PriceTable prices,
            Budget budget,
            StopRule stopRule) {
        /** Cases at once unless a source says otherwise. */
        public static final int DEFAULT_CONCURRENCY = 4;
        /** Seconds per case, unless a source or the case says otherwise: the one place this default is written. */
        public static final int DEFAULT_TIMEOUT_S = 120;
        /** {@link #DEFAULT_TIMEOUT_S} as a duration. */
        public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(DEFAULT_TIMEOUT_S);
        /** Assay's defaults: 4 cases at once, 120 s per case, one sample, keep the workspaces of failures. */
        public static final Limits DEFAULTS =
                new Limits(DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT, 1, WorkspacePolicy.KEEP_ON_FAILURE);

        /** Limits without a budget, priced by Assay's table. */
        public Limits(int concurrency, Duration timeout, int samples, WorkspacePolicy workspacePolicy) {
            this(concurrency, timeout, samples, workspacePolicy, null, null, null);
        }

        /** Limits that run every case. */
        public Limits(
                int concurrency,
                Duration timeout,
                int samples,
                WorkspacePolicy workspacePolicy,
                PriceTable prices,
                Budget budget) {
            this(concurrency, timeout, samples, workspacePolicy, prices, budget, null);
        }

        public Limits {
            prices = prices == null ? PriceTable.shipped() : prices;
            budget = budget == null ? Budget.NONE : budget;
            stopRule = stopRule == null ? StopRule.NONE : stopRule;
            if (concurrency < 1) {
                throw new IllegalArgumentException("concurrency must be >= 1");
            }
            Objects.requireNonNull(timeout, "timeout");
            if (samples < 1) {
                throw new IllegalArgumentException("samples must be >= 1");
            }
            workspacePolicy = workspacePolicy == null ? WorkspacePolicy.KEEP_ON_FAILURE : workspacePolicy;
        }

        /** {@return the items a run of {@code cases} cases has: one per case and sample} */
        public int itemCount(int cases) {
            return cases * samples;
        }

        /** {@return these limits under {@code given}'s budget, laid over this one} */
        public Limits withBudget(Budget given) {
            return new Limits(concurrency, timeout, samples, workspacePolicy, prices, given.over(budget), stopRule);
        }

        /** {@return these limits keeping the case workspaces {@code given} says} */
        public Limits withWorkspacePolicy(WorkspacePolicy given) {
            return new Limits(concurrency, timeout, samples, given, prices, budget, stopRule);
        }
    }

    /**
     * When a head-to-head run ({@link Models} of two) stops starting cases: as soon as the always-valid sequential test
     * on the paired differences ({@link dev.assay.score.internal.SequentialTest}) decides which model is better, or the
     * cases run out ({@link HeadToHead}). The cases run in a random order, the selection's seed, kept with the spec so
     * that a resumed run goes on in the same order.
     *
     * @param alpha the largest false-decision rate, in (0, 1); 0 for {@link #NONE}
     * @param mde the smallest difference worth detecting, in points (0, 100]: it sizes the test's bets
     */
    public record StopRule(double alpha, double mde) {
        /** Run every case. */
        public static final StopRule NONE = new StopRule(0, 0);
        /** A false-decision rate of at most 5 %, unless a source says otherwise. */
        public static final double DEFAULT_ALPHA = 0.05;
        /** Bets sized for a difference of 5 points, unless a source says otherwise. */
        public static final double DEFAULT_MDE = 5;

        public StopRule {
            boolean none = alpha == 0 && mde == 0;
            if (!none && !(alpha > 0 && alpha < 1 && mde > 0 && mde <= 100)) {
                throw new IllegalArgumentException("need 0 < alpha < 1 and 0 < mde <= 100, got " + alpha + ", " + mde);
            }
        }

        /** {@return whether the run stops once decided} */
        public boolean stopsWhenDecided() {
            return !equals(NONE);
        }
    }

    /**
     * {@return the labels of the run's several systems under test, in order ({@link Models}); empty for a run of one}
     */
    public List<String> subjectLabels() {
        return subject.sut() instanceof Models models
                ? List.copyOf(models.byLabel().keySet())
                : List.of();
    }

    /** {@return the items a run of {@code cases} cases has: one per case, system under test and sample} */
    public int itemCount(int cases) {
        return limits.itemCount(cases) * Math.max(1, subjectLabels().size());
    }

    /**
     * What preparing the run found, stored for the record and for reports.
     *
     * @param subject the system under test as built ({@code Subject#describe}); null before
     * @param sandbox the kind of sandbox commands run in, {@code unavailable} without one; null before
     * @param codeSandbox the sandbox the code checker was given when unconfined code was allowed; null otherwise
     * @param tools each tool provider's snapshot by its name (the MCP servers' as {@code mcp}); empty for none
     */
    public record Observed(JsonNode subject, String sandbox, String codeSandbox, Map<String, JsonNode> tools) {
        /** Nothing prepared yet. */
        public static final Observed NONE = new Observed(null, null, null, Map.of());

        public Observed {
            tools = tools == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(tools));
        }

        /** {@return the snapshot tool provider {@code name} gave; JSON missing when it gave none} */
        public JsonNode tool(String name) {
            JsonNode snapshot = tools.get(name);
            return snapshot == null ? Json.object().path(name) : snapshot;
        }

        /** {@return what preparing the run found of its MCP servers, in their order; empty for none} */
        public List<McpServerState> mcpServers() {
            return McpServerState.of(tools.get("mcp"));
        }
    }

    /**
     * {@return this spec under {@code given}'s budget, laid over its own}: how a continued run goes on under a higher
     * limit
     */
    public EvalSpec withBudget(Budget given) {
        return withLimits(limits.withBudget(given));
    }

    /** {@return this spec evaluating {@code given}} */
    public EvalSpec withDataset(Dataset given) {
        return new EvalSpec(given, subject, scoring, limits, userId, observed);
    }

    /** {@return this spec scored as {@code given} says} */
    public EvalSpec withScoring(Scoring given) {
        return new EvalSpec(dataset, subject, given, limits, userId, observed);
    }

    /** {@return this spec within {@code given}} */
    public EvalSpec withLimits(Limits given) {
        return new EvalSpec(dataset, subject, scoring, given, userId, observed);
    }

    /** {@return this spec run by {@code given}} */
    public EvalSpec withUserId(String given) {
        return new EvalSpec(dataset, subject, scoring, limits, given, observed);
    }

    /**
     * {@return this spec judged by {@code given}}: how a run stored before the spec held its judges (version 2) is
     * continued with those of {@code assay.yaml}
     */
    public EvalSpec withJudges(List<JudgeConfig> given) {
        return withScoring(scoring.withJudges(given));
    }

    /** {@return this spec with what preparing it found} */
    public EvalSpec withObserved(Observed found) {
        return new EvalSpec(dataset, subject, scoring, limits, userId, found);
    }

    /** {@return this dialog run's spec with its reference files going to {@code directory}} */
    public EvalSpec withRunDirectory(Path directory) {
        Dialogs dialogs = Objects.requireNonNull(dataset.dialogs(), "a capability run has no run directory");
        return withDataset(Dataset.of(dialogs.withRunDirectory(directory)));
    }

    /** {@return this spec as stored: versioned JSON} */
    public ObjectNode toJson() {
        return Json.MAPPER.valueToTree(this);
    }

    /**
     * {@return the spec a stored snapshot holds, upgraded from an older version by code} Never fails on a run's stored
     * snapshot: what is missing takes Assay's defaults, and a system under test that cannot be built again is
     * {@link Unrecorded}.
     *
     * @param snapshot the stored JSON; null or not an object for a run stored without one
     */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static EvalSpec read(JsonNode snapshot) {
        ObjectNode node = snapshot instanceof ObjectNode object ? object.deepCopy() : Json.object();
        if (node.has("dataset_resolved")) {
            return Json.MAPPER.convertValue(node, StoredDialogs.class).spec();
        }
        if (node.path("spec_version").asInt(0) < 2) {
            upgradeFrom1(node);
        }
        return Json.MAPPER.convertValue(node, Stored.class).spec();
    }

    /** {@return the spec of a stored run} */
    public static EvalSpec of(Run run) {
        return read(snapshot(run));
    }

    /** {@return where a stored run keeps its spec: a dialog run's beside its manifest, a capability run's whole} */
    private static JsonNode snapshot(Run run) {
        JsonNode config = run.config() == null ? Json.object() : run.config();
        return RunKind.DIALOG.equals(run.kind()) ? config.path(DIALOG_KEY) : config;
    }

    /**
     * {@return the spec to continue {@code run} with}: what resuming the run needs, without the user repeating a flag.
     * API keys are read again from the variables the spec names.
     *
     * @throws AssayException {@code run.not_resumable} for a run whose spec cannot be built again
     *     ({@link #resumeRefusal})
     */
    public static EvalSpec toResume(Run run) {
        resumeRefusal(run).ifPresent(problem -> {
            throw new AssayException(problem);
        });
        EvalSpec spec = of(run);
        // The suites are read where they were, wherever the run is resumed from; a snapshot of an older Assay may not
        // name the user, the run record does.
        return spec.withDataset(spec.dataset().withSuites(spec.dataset().resolved()))
                .withUserId(spec.userId().isEmpty() ? run.userId() : spec.userId());
    }

    /**
     * {@return why {@code run} cannot be continued from its stored spec, {@code run.not_resumable}; empty when
     * {@link #toResume} builds it} Refused: a recording's run (it calls nothing, so running it again re-scores it
     * whole), an agent service whose URL held credentials or a query (never stored), one stored by an Assay too old to
     * say what it ran, or by a later one. Whether the run has ended, and whether its suites still hold the cases it
     * started with ({@code run.suite_changed}), is told when it is resumed.
     */
    public static Optional<Problem> resumeRefusal(Run run) {
        JsonNode config = snapshot(run);
        int version = config.path("spec_version").asInt(0);
        boolean dialog = RunKind.DIALOG.equals(run.kind());
        Sut sut = read(config).subject().sut();
        String why = dialog && !config.isObject()
                ? "it was stored before dialog runs kept their description; run it again with its flags"
                : dialog && version != DIALOG_VERSION
                        ? "its description is version " + version + ", this Assay reads version " + DIALOG_VERSION
                        : !dialog && (version < 1 || version > VERSION)
                                ? "its configuration snapshot is version " + version
                                        + ", this Assay reads versions 1 to " + VERSION
                                : sut instanceof Replay
                                        ? "a recording's run calls nothing: run the recording again to re-score it"
                                        : sut instanceof Unrecorded unrecorded ? unrecorded.why() : null;
        return why == null
                ? Optional.empty()
                : Optional.of(Problem.of("run.not_resumable", "run " + run.runId() + " cannot be resumed: " + why)
                        .withDetail("run_id", run.runId()));
    }

    /**
     * {@return whether {@code run}'s stored spec names its judges}: false for a run stored before it did (version 2),
     * which a front end continues with the judges its configuration names ({@link #withJudges})
     */
    public static boolean namesJudges(Run run) {
        return run.config() != null && run.config().path("spec_version").asInt(0) >= 3;
    }

    /**
     * {@return a plan ready for {@link Engine#start}}: loads and selects the cases, builds the system under test, and
     * fills in what it found ({@link Observed}). Close it once the run has ended.
     *
     * @param runId the run's id; null for a new one
     * @param workspaceRoot where the cases' workspaces go
     * @param checkers the process's checkers, left as they are: the plan holds a set of its own, whose code checker is
     *     this run's (confined by the sandbox found, or unconfined without one when the spec allows it)
     * @param env reads environment variables (API keys and the agent service's credential only); front ends pass their
     *     environment
     * @param log receives model retry lines
     * @throws AssayException {@code suite.invalid}, {@code suite.empty_selection}, or the system under test's
     *     configuration problem ({@code replay.*}, {@code target.missing_api_key}, {@code target.discovery_failed})
     */
    public Prepared prepare(
            String runId,
            Path workspaceRoot,
            CheckerRegistry checkers,
            Function<String, String> env,
            Consumer<String> log)
            throws InterruptedException {
        return Preparation.prepare(this, runId, workspaceRoot, checkers, env, log, Sandboxes.ISOLATING);
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
        return Preparation.prepare(this, runId, workspaceRoot, checkers, env, log, sandboxes);
    }

    @JsonValue
    Object stored() {
        if (dataset.dialogs() != null) {
            return StoredDialogs.of(this);
        }
        Sut sut = subject.sut();
        AgentSettings agent = subject.agent();
        ToolOptions tools = subject.tools();
        return new Stored(
                VERSION,
                sut instanceof Model model ? model.options().describe() : null,
                sut instanceof Models models ? describe(models) : null,
                observed.subject(),
                new StoredAgent(
                        agent.toolMode(), agent.maxSteps(), agent.temperature(), agent.seed(), agent.maxTokens()),
                sut instanceof AgentService service ? service.settings().describe() : null,
                sut instanceof Replay replay ? replay.path().toString() : null,
                sut instanceof Plugin plugin ? plugin.toString() : null,
                dataset.suites().stream().map(Path::toString).toList(),
                dataset.resolved().stream().map(Path::toString).toList(),
                dataset.skipInvalid(),
                dataset.selection(),
                limits.concurrency(),
                limits.samples(),
                limits.timeout().toMillis() / 1000.0,
                scoring.weights().byDimension(),
                scoring.weights().scoring().wireName(),
                observed.sandbox(),
                tools.allowUnsandboxedCommands(),
                tools.containerEngine(),
                scoring.allowUnsandboxedCode(),
                limits.workspacePolicy().name().toLowerCase(Locale.ROOT),
                tools.allowed(),
                tools.mcpServers().stream().map(EvalSpec::mcpServer).toList(),
                userId,
                scoring.metrics(),
                observed.codeSandbox(),
                subject.userModel().equals(UserModelOptions.NONE)
                        ? null
                        : subject.userModel().describe(),
                dataset.environment(),
                dataset.container(),
                limits.prices().toJson(),
                limits.prices().takenOn(),
                limits.budget().maxCostUsd(),
                limits.budget().maxTokens(),
                limits.budget().caseMaxTokens(),
                dataset.mapping() == null ? null : dataset.mapping().toJson(),
                scoring.clusterBy(),
                scoring.reducer() == null ? null : scoring.reducer().wireName(),
                limits.stopRule().stopsWhenDecided()
                        ? new StoredStopRule(
                                limits.stopRule().alpha(), limits.stopRule().mde())
                        : null,
                scoring.judges().stream().map(EvalSpec::judge).toList(),
                scoring.judgeCache(),
                scoring.judgeMinKappa(),
                observed.tools());
    }

    /** {@return several models as stored: each model's options, as one model's are, with its label} */
    private static List<JsonNode> describe(Models models) {
        var stored = new ArrayList<JsonNode>();
        models.byLabel().forEach((label, options) -> {
            ObjectNode node = Json.object().put("label", label);
            node.setAll((ObjectNode) options.describe());
            stored.add(node);
        });
        return stored;
    }

    /** A head-to-head run's stop rule as stored under {@code stop_when_decided}. */
    record StoredStopRule(double alpha, double mde) {}

    /**
     * The stored layout: one flat object whose keys are those the snapshot has always had (version 1), plus those
     * version 2 added. Bound by Jackson in both directions; {@link #spec} and {@link EvalSpec#stored} are its only
     * translations.
     */
    @JsonPropertyOrder({
        "spec_version",
        "model",
        "models",
        "target",
        "agent",
        "agent_service",
        "replay",
        "subject",
        "suites",
        "suites_resolved",
        "skip_invalid",
        "selection",
        "concurrency",
        "samples",
        "timeout_s",
        "weights",
        "scoring",
        "sandbox",
        "allow_unsandboxed_commands",
        "allow_unsandboxed_code",
        "workspace_policy",
        "allowed_tools",
        "mcp_servers",
        "user_id",
        "metrics",
        "code_sandbox",
        "user_model",
        "environment",
        "container",
        "prices",
        "prices_taken_on",
        "max_cost_usd",
        "run_max_tokens",
        "case_max_tokens",
        "dataset",
        "cluster_by",
        "reducer",
        "stop_when_decided",
        "judges",
        "judge_cache",
        "judge_min_kappa"
    })
    record Stored(
            int specVersion,
            @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode model,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<JsonNode> models,
            @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode target,
            StoredAgent agent,
            @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode agentService,
            @JsonInclude(JsonInclude.Include.NON_NULL) String replay,
            @JsonInclude(JsonInclude.Include.NON_NULL) String subject,
            List<String> suites,
            List<String> suitesResolved,
            boolean skipInvalid,
            Selection selection,
            Integer concurrency,
            Integer samples,
            Double timeoutS,
            Map<String, Double> weights,
            String scoring,
            @JsonInclude(JsonInclude.Include.NON_NULL) String sandbox,
            boolean allowUnsandboxedCommands,
            String containerEngine,
            boolean allowUnsandboxedCode,
            String workspacePolicy,
            List<String> allowedTools,
            List<JsonNode> mcpServers,
            String userId,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> metrics,
            @JsonInclude(JsonInclude.Include.NON_NULL) String codeSandbox,
            @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode userModel,
            @JsonInclude(JsonInclude.Include.NON_NULL) ObjectNode environment,
            @JsonInclude(JsonInclude.Include.NON_NULL) ObjectNode container,
            JsonNode prices,
            String pricesTakenOn,
            @JsonInclude(JsonInclude.Include.NON_NULL) Double maxCostUsd,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long runMaxTokens,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long caseMaxTokens,
            @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode dataset,
            @JsonInclude(JsonInclude.Include.NON_NULL) String clusterBy,
            @JsonInclude(JsonInclude.Include.NON_NULL) String reducer,
            @JsonInclude(JsonInclude.Include.NON_NULL) StoredStopRule stopWhenDecided,
            List<JsonNode> judges,
            Boolean judgeCache,
            Double judgeMinKappa,
            @JsonAnySetter @JsonAnyGetter Map<String, JsonNode> tools) {
        @JsonCreator
        Stored {
            tools = tools == null ? new LinkedHashMap<>() : tools;
        }

        EvalSpec spec() {
            Limits defaults = Limits.DEFAULTS;
            List<Path> given = paths(suites);
            Weights.Scoring preset = scoring == null ? Weights.Scoring.ASSAY : Weights.Scoring.of(scoring);
            return new EvalSpec(
                    new Dataset(
                            given,
                            suitesResolved == null ? given : paths(suitesResolved),
                            skipInvalid,
                            selection,
                            dataset == null || dataset.isNull() ? null : DatasetMapping.fromJson(dataset, "dataset"),
                            environment,
                            container,
                            null),
                    new SubjectSpec(
                            sut(),
                            agent == null ? null : agent.settings(),
                            new ToolOptions(
                                    mcpServers == null
                                            ? List.of()
                                            : mcpServers.stream()
                                                    .map(EvalSpec::mcpServer)
                                                    .toList(),
                                    null,
                                    allowedTools,
                                    allowUnsandboxedCommands,
                                    containerEngine),
                            UserModelOptions.fromSnapshot(userModel == null ? Json.object() : userModel)),
                    new Scoring(
                            weights == null || weights.isEmpty()
                                    ? Weights.preset(preset)
                                    : new Weights(weights, preset),
                            metrics,
                            allowUnsandboxedCode,
                            clusterBy,
                            storedReducer(),
                            judges == null
                                    ? List.of()
                                    : judges.stream().map(EvalSpec::judge).toList(),
                            !Boolean.FALSE.equals(judgeCache),
                            judgeMinKappa == null ? Scoring.DEFAULT_JUDGE_MIN_KAPPA : judgeMinKappa),
                    new Limits(
                            concurrency == null ? defaults.concurrency() : concurrency,
                            timeoutS == null ? defaults.timeout() : Duration.ofMillis(Math.round(timeoutS * 1000)),
                            samples == null ? defaults.samples() : samples,
                            workspacePolicy == null
                                    ? defaults.workspacePolicy()
                                    : WorkspacePolicy.valueOf(workspacePolicy.toUpperCase(Locale.ROOT)),
                            priceTable(),
                            new Budget(maxCostUsd, runMaxTokens, caseMaxTokens),
                            stopWhenDecided == null
                                    ? null
                                    : new StopRule(stopWhenDecided.alpha(), stopWhenDecided.mde())),
                    userId,
                    new Observed(target, sandbox, codeSandbox, tools));
        }

        private Sut sut() {
            String type = target == null ? "unknown" : target.path("type").asText("unknown");
            if (model != null && model.isObject()) {
                return new Model(ModelOptions.fromSnapshot(model));
            }
            if (models != null && models.size() > 1) {
                var byLabel = new LinkedHashMap<String, ModelOptions>();
                models.forEach(stored -> byLabel.put(stored.path("label").asText(), ModelOptions.fromSnapshot(stored)));
                return new Models(byLabel);
            }
            if (agentService != null && agentService.isObject()) {
                return SseAgentSettings.notStoredWhole(agentService)
                        .<Sut>map(why -> new Unrecorded("sse_agent", why))
                        .orElseGet(() -> new AgentService(SseAgentSettings.fromSnapshot(agentService)));
            }
            if (replay != null) {
                return new Replay(Path.of(replay));
            }
            if (subject != null) {
                return Plugin.parse(subject);
            }
            return new Unrecorded(type, "its system under test (" + type + ") cannot be read back");
        }

        /**
         * {@return the reducer stored}; null for none, and for a name this Assay does not know (one a later Assay
         * added): reading a stored run never fails, and its reports then count every sample as an item
         */
        private Reducer storedReducer() {
            return reducer == null
                    ? null
                    : java.util.Arrays.stream(Reducer.values())
                            .filter(known -> known.wireName().equals(reducer))
                            .findFirst()
                            .orElse(null);
        }

        /** {@return the prices kept, over the shipped table (a run stored before Assay kept them)} */
        private PriceTable priceTable() {
            ObjectNode kept = Json.object();
            if (prices != null) {
                kept.set("prices", prices);
            }
            if (pricesTakenOn != null) {
                kept.put("prices_taken_on", pricesTakenOn);
            }
            return PriceTable.ofSnapshot(kept);
        }

        private static List<Path> paths(List<String> texts) {
            return texts == null ? List.of() : texts.stream().map(Path::of).toList();
        }
    }

    /**
     * A dialog run's stored layout ({@value #DIALOG_VERSION}): the keys its description has always had. Bound by
     * Jackson in both directions; {@link #of} and {@link #spec} are its only translations.
     */
    @JsonPropertyOrder({
        "spec_version",
        "dataset",
        "dataset_resolved",
        "model",
        "temperature",
        "seed",
        "system_prompt",
        "agent",
        "field_mapping",
        "prompt_version",
        "workers_dialog",
        "turn_timeout_s",
        "turn_retries",
        "metrics_profile",
        "blank_memory_keys",
        "judge",
        "run_directory",
        "user_id"
    })
    record StoredDialogs(
            int specVersion,
            String dataset,
            String datasetResolved,
            @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode model,
            // A chat model's sampling settings are stored, null when not set; an agent service has none.
            @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode temperature,
            @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode seed,
            @JsonInclude(JsonInclude.Include.NON_NULL) String systemPrompt,
            @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode agent,
            @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, String> fieldMapping,
            String promptVersion,
            Integer workersDialog,
            Double turnTimeoutS,
            Integer turnRetries,
            String metricsProfile,
            boolean blankMemoryKeys,
            @JsonInclude(JsonInclude.Include.NON_NULL) StoredJudge judge,
            String runDirectory,
            String userId) {
        static StoredDialogs of(EvalSpec spec) {
            Dialogs dialogs = spec.dataset().dialogs();
            AgentSettings agent = spec.subject().agent();
            boolean model = spec.subject().sut() instanceof Model;
            return new StoredDialogs(
                    DIALOG_VERSION,
                    dialogs.name(),
                    dialogs.file().toString(),
                    spec.subject().sut() instanceof Model chat ? chat.options().describe() : null,
                    model ? Json.MAPPER.valueToTree(agent.temperature()) : null,
                    model ? Json.MAPPER.valueToTree(agent.seed()) : null,
                    model ? dialogs.systemPrompt() : null,
                    spec.subject().sut() instanceof AgentService service
                            ? service.settings().describe()
                            : null,
                    dialogs.fieldMapping() == null
                            ? null
                            : dialogs.fieldMapping().asMap(),
                    dialogs.promptVersion(),
                    spec.limits().concurrency(),
                    spec.limits().timeout().toMillis() / 1000.0,
                    dialogs.turnRetries(),
                    dialogs.score().profile().wireName(),
                    dialogs.score().blankMemoryKeys(),
                    dialogs.judge() == null
                            ? null
                            : new StoredJudge(
                                    dialogs.judge().model().describe(),
                                    dialogs.judge().workers()),
                    dialogs.runDirectory().toString(),
                    spec.userId());
        }

        EvalSpec spec() {
            Sut sut;
            if (agent != null && agent.isObject()) {
                sut = SseAgentSettings.notStoredWhole(agent)
                        .<Sut>map(why -> new Unrecorded("sse_agent", why))
                        .orElseGet(() -> new AgentService(SseAgentSettings.fromSnapshot(agent)));
            } else if (model != null && model.isObject()) {
                sut = new Model(ModelOptions.fromSnapshot(model));
            } else {
                sut = new Unrecorded("unknown", "its system under test cannot be read back");
            }
            FieldMapping mapping = fieldMapping == null
                    ? null
                    : new FieldMapping(
                            fieldMapping.getOrDefault("recall", ""),
                            fieldMapping.getOrDefault("tools", ""),
                            fieldMapping.getOrDefault("compliance", ""),
                            fieldMapping.getOrDefault("profile_snapshot", ""));
            var dialogs = new Dialogs(
                    dataset,
                    Path.of(datasetResolved),
                    Path.of(runDirectory),
                    systemPrompt,
                    promptVersion,
                    sut instanceof AgentService ? mapping : null,
                    turnRetries == null ? Dialogs.DEFAULT_TURN_RETRIES : turnRetries,
                    new ScoreOptions(
                            metricsProfile == null ? MetricsProfile.MEMFIN_V1 : MetricsProfile.parse(metricsProfile),
                            blankMemoryKeys),
                    judge == null ? null : new DialogJudge(ModelOptions.fromSnapshot(judge.model()), judge.workers()));
            var sampling = new AgentSettings(
                    ToolMode.NATIVE,
                    AgentSettings.defaults().maxSteps(),
                    temperature != null && temperature.isNumber() ? temperature.asDouble() : null,
                    seed != null && seed.isNumber() ? seed.asLong() : null,
                    null);
            Limits defaults = Limits.DEFAULTS;
            return new EvalSpec(
                    Dataset.of(dialogs),
                    new SubjectSpec(sut, sampling, null, null),
                    new Scoring(null, null, false),
                    new Limits(
                            workersDialog == null ? Dialogs.DEFAULT_CONCURRENCY : workersDialog,
                            turnTimeoutS == null
                                    ? defaults.timeout()
                                    : Duration.ofMillis(Math.round(turnTimeoutS * 1000)),
                            1,
                            defaults.workspacePolicy()),
                    userId,
                    Observed.NONE);
        }
    }

    /** A dialog run's judge as stored under {@code judge}. */
    record StoredJudge(JsonNode model, int workers) {}

    /** The agent loop's settings as stored under {@code agent}. */
    record StoredAgent(ToolMode toolMode, Integer maxSteps, Double temperature, Long seed, Integer maxTokens) {
        AgentSettings settings() {
            return new AgentSettings(
                    toolMode,
                    maxSteps == null ? AgentSettings.defaults().maxSteps() : maxSteps,
                    temperature,
                    seed,
                    maxTokens);
        }
    }

    /**
     * Version 1 stored the agent loop's settings and an agent service's only inside the system under test as built
     * ({@code target}), and the MCP servers only inside their tool provider's snapshot ({@code mcp.servers}): version 2
     * states them on their own.
     */
    private static void upgradeFrom1(ObjectNode node) {
        JsonNode target = node.path("target");
        String type = target.path("type").asText("");
        if (type.equals("agent")) {
            ObjectNode agent = node.putObject("agent");
            for (String field : List.of("tool_mode", "max_steps", "temperature", "seed", "max_tokens")) {
                if (target.has(field)) {
                    agent.set(field, target.get(field));
                }
            }
        }
        if (type.equals("sse_agent")) {
            node.set("agent_service", target);
        }
        if (type.equals("replay") && target.path("file").isTextual()) {
            node.put("replay", target.path("file").asText());
        }
        var servers = new ArrayList<JsonNode>();
        for (JsonNode server : node.path("mcp").path("servers")) {
            ObjectNode configured = server.deepCopy();
            configured.remove(List.of("status", "tools", "reason"));
            servers.add(configured);
        }
        node.set("mcp_servers", Json.tree(servers));
        node.put("spec_version", 2);
    }

    /**
     * {@return an MCP server as stored}: variables and headers named, never their values, and the URL without
     * credentials
     */
    private static JsonNode mcpServer(McpServerConfig server) {
        ObjectNode node = Json.object();
        node.put("name", server.name());
        switch (server) {
            case McpServerConfig.Stdio stdio -> {
                node.put("transport", "stdio");
                node.put("command", stdio.command());
                node.set("args", Json.strings(stdio.args()));
                node.set("env", Json.strings(stdio.env()));
            }
            case McpServerConfig.Http http -> {
                node.put("transport", "http");
                node.put("url", dev.assay.EndpointUrl.redacted(http.url()));
                node.set("headers", Json.tree(new java.util.TreeMap<>(http.headers())));
            }
        }
        return node;
    }

    /** {@return a judge model as stored: its API key named by its variable, never its value} */
    private static JsonNode judge(JudgeConfig judge) {
        ObjectNode node = Json.object();
        node.put("name", judge.name());
        node.set("model", judge.model().describe());
        node.put("timeout_s", judge.timeout().toMillis() / 1000.0);
        return node;
    }

    private static JudgeConfig judge(JsonNode stored) {
        JsonNode timeout = stored.path("timeout_s");
        return new JudgeConfig(
                stored.path("name").asText(),
                ModelOptions.fromSnapshot(stored.path("model")),
                timeout.isNumber() ? Duration.ofMillis(Math.round(timeout.asDouble() * 1000)) : null);
    }

    private static McpServerConfig mcpServer(JsonNode server) {
        return server.path("transport").asText().equals("stdio")
                ? new McpServerConfig.Stdio(
                        server.path("name").asText(),
                        server.path("command").asText(),
                        Json.MAPPER.convertValue(server.path("args"), STRINGS),
                        Json.MAPPER.convertValue(server.path("env"), STRINGS))
                : new McpServerConfig.Http(
                        server.path("name").asText(),
                        server.path("url").asText(),
                        Json.MAPPER.convertValue(server.path("headers"), STRING_MAP));
    }

    private static final com.fasterxml.jackson.core.type.TypeReference<List<String>> STRINGS =
            new com.fasterxml.jackson.core.type.TypeReference<>() {};
    private static final com.fasterxml.jackson.core.type.TypeReference<Map<String, String>> STRING_MAP =
            new com.fasterxml.jackson.core.type.TypeReference<>() {};
}
