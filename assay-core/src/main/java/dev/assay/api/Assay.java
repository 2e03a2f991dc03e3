package dev.assay.api;

import dev.assay.cases.DatasetMapping;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.ModelOptions;
import dev.assay.report.Reporters;
import dev.assay.report.RunReport;
import dev.assay.result.Run;
import dev.assay.run.Engine;
import dev.assay.run.EvalSpec;
import dev.assay.run.Prepared;
import dev.assay.run.RunHandle;
import dev.assay.run.RunListener;
import dev.assay.run.RunSettings;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.tools.Workspace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The Java entry point: describe a run fluently, {@link #run()} it through the one engine, read the {@link Evaluation}.
 *
 * <pre>{@code
 * Evaluation evaluation = Assay.suite(Path.of("src/test/assay"))
 *         .model("openai:gpt-4o-mini")
 *         .concurrency(4)
 *         .run();
 * evaluation.assertMeets(Threshold.total(0.8).dimension("tool", 0.7));
 * }</pre>
 *
 * <p>The description goes through the resolver the command line uses ({@link RunSettings#resolve}), so a setting not
 * given here has the default {@code assay run} gives it, and a run started here is stored and reported like one started
 * there. Each method returns a new description and leaves this one as it was: a description can be shared and run
 * several times, from several threads.
 */
public final class Assay {
    private static final System.Logger LOG = System.getLogger(Assay.class.getName());

    private final List<Path> suites;
    private final String model;
    private final List<String> models;
    private final String baseUrl;
    private final String apiKeyEnv;
    private final List<Consumer<RunSettings>> settings;
    private final String databaseUrl;
    private final Path workspaces;
    private final Path reports;
    private final Function<String, String> environment;

    private Assay(
            List<Path> suites,
            String model,
            List<String> models,
            String baseUrl,
            String apiKeyEnv,
            List<Consumer<RunSettings>> settings,
            String databaseUrl,
            Path workspaces,
            Path reports,
            Function<String, String> environment) {
        this.suites = List.copyOf(suites);
        this.model = model;
        this.models = List.copyOf(models);
        this.baseUrl = baseUrl;
        this.apiKeyEnv = apiKeyEnv;
        this.settings = List.copyOf(settings);
        this.databaseUrl = databaseUrl;
        this.workspaces = workspaces;
        this.reports = reports;
        this.environment = environment;
    }

    /**
     * {@return a run of these suites, not yet naming what to evaluate}
     *
     * @param suites case files (JSON, JSONL, YAML) or directories of them
     */
    public static Assay suite(Path... suites) {
        if (suites.length == 0) {
            throw new IllegalArgumentException("name at least one suite");
        }
        return new Assay(List.of(suites), null, List.of(), null, null, List.of(), null, null, null, System::getenv);
    }

    /**
     * {@return this run evaluating a chat model with Assay's agent loop}
     *
     * @param model {@code openai:MODEL} for any OpenAI-compatible API, {@code anthropic:MODEL}, or {@code mock}
     *     (offline, a fixed answer)
     */
    public Assay model(String model) {
        Objects.requireNonNull(model, "model");
        return new Assay(
                suites, model, List.of(), baseUrl, apiKeyEnv, settings, databaseUrl, workspaces, reports, environment);
    }

    /**
     * {@return this run evaluating several chat models with Assay's agent loop, every case against each}: the reports
     * show a matrix of model × dimension. {@link #baseUrl} and {@link #apiKeyEnv} apply to each. One model is
     * {@link #model}.
     */
    public Assay models(String first, String... more) {
        Objects.requireNonNull(first, "first");
        var all = new ArrayList<String>();
        all.add(first);
        all.addAll(List.of(more));
        if (all.size() == 1) {
            return model(first);
        }
        return new Assay(
                suites, null, all, baseUrl, apiKeyEnv, settings, databaseUrl, workspaces, reports, environment);
    }

    /** {@return this run calling the model at this API root, e.g. {@code http://localhost:11434/v1}} */
    public Assay baseUrl(String baseUrl) {
        Objects.requireNonNull(baseUrl, "baseUrl");
        return new Assay(
                suites, model, models, baseUrl, apiKeyEnv, settings, databaseUrl, workspaces, reports, environment);
    }

    /**
     * {@return this run reading the model's API key from this environment variable} (default {@code OPENAI_API_KEY}, or
     * {@code ANTHROPIC_API_KEY} for {@code anthropic:} models). The key itself is never stored.
     */
    public Assay apiKeyEnv(String variable) {
        Objects.requireNonNull(variable, "variable");
        return new Assay(
                suites, model, models, baseUrl, variable, settings, databaseUrl, workspaces, reports, environment);
    }

    /** {@return this run re-scoring a recording (JSONL from {@code assay runs export}, or a report.json)} */
    public Assay replay(Path recording) {
        return with(settings -> settings.replay(recording));
    }

    /** {@return this run evaluating this many cases at once} (default 4) */
    public Assay concurrency(int cases) {
        return with(settings -> settings.concurrency(cases));
    }

    /**
     * {@return this run giving each case this long unless the case sets {@code timeout_s}} (default
     * {@value dev.assay.run.EvalSpec.Limits#DEFAULT_TIMEOUT_S} s)
     */
    public Assay timeout(Duration perCase) {
        return with(settings -> settings.timeout(perCase));
    }

    /** {@return this run drawing this many answers per case} (default 1); each is an item {@code <case id>#<k>} */
    public Assay samples(int perCase) {
        return with(settings -> settings.samples(perCase));
    }

    /**
     * {@return this run playing conversation cases' simulated users with {@code model}} ({@code openai:gpt-4o-mini}),
     * reached through this run's base URL and key variable
     */
    public Assay userModel(String model) {
        return with(settings -> settings.userModel(model));
    }

    /** {@return this run reaching the user model at {@code url} with the key in {@code variable}} */
    public Assay userModel(String model, String url, String variable) {
        return with(settings -> settings.userModel(model).userBaseUrl(url).userApiKeyEnv(variable));
    }

    /** {@return this run allowing the agent loop this many model calls per case} (default 20) */
    public Assay maxSteps(int modelCalls) {
        return with(settings -> settings.maxSteps(modelCalls));
    }

    /** {@return this run sampling at this temperature, 0 to 2} (default: the API's) */
    public Assay temperature(double temperature) {
        return with(settings -> settings.temperature(temperature));
    }

    /** {@return this run evaluating only the cases of these dimensions} */
    public Assay dimensions(String... dimensions) {
        List<String> selected = List.of(dimensions);
        return with(settings -> settings.dimensions(selected));
    }

    /** {@return this run evaluating only the cases with any of these tags} */
    public Assay tags(String... tags) {
        List<String> selected = List.of(tags);
        return with(settings -> settings.tags(selected));
    }

    /** {@return this run evaluating only the cases with these ids} */
    public Assay ids(String... caseIds) {
        List<String> selected = List.of(caseIds);
        return with(settings -> settings.ids(selected));
    }

    /** {@return this run weighing the dimensions named so in the total; others keep their default weight} */
    public Assay weights(Map<String, Double> byDimension) {
        Map<String, Double> weights = Map.copyOf(byDimension);
        return with(settings -> settings.weights(weights));
    }

    /**
     * {@return this run reading its suites as plain datasets (JSONL, CSV, TSV, JSON arrays, Parquet) whose rows become
     * cases by this mapping} (docs/datasets.md), e.g. {@code DatasetMapping.of("question", "answer")}
     */
    public Assay dataset(DatasetMapping mapping) {
        Objects.requireNonNull(mapping, "mapping");
        return with(settings -> settings.dataset(mapping));
    }

    /**
     * {@return this run stored in this SQLite file} (created with its directories when missing); by default a run is
     * stored in a temporary database deleted once the run has been read
     */
    public Assay database(Path sqliteFile) {
        return database("jdbc:sqlite:" + sqliteFile.toAbsolutePath().normalize());
    }

    /**
     * {@return this run stored in this database: {@code jdbc:sqlite:FILE}, or {@code jdbc:postgresql://HOST/DB} with
     * assay-postgres on the class path}
     */
    public Assay database(String jdbcUrl) {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        return new Assay(
                suites, model, models, baseUrl, apiKeyEnv, settings, jdbcUrl, workspaces, reports, environment);
    }

    /**
     * {@return this run creating the cases' workspaces here}, keeping those of cases that did not pass; by default they
     * go to a temporary directory deleted after the run
     */
    public Assay workspaces(Path directory) {
        Objects.requireNonNull(directory, "directory");
        return new Assay(
                suites, model, models, baseUrl, apiKeyEnv, settings, databaseUrl, directory, reports, environment);
    }

    /** {@return this run writing report.json, report.md, junit.xml and report.html to this directory} */
    public Assay reports(Path directory) {
        Objects.requireNonNull(directory, "directory");
        return new Assay(
                suites, model, models, baseUrl, apiKeyEnv, settings, databaseUrl, workspaces, directory, environment);
    }

    /**
     * {@return this run reading environment variables (API keys) from this map instead of the process's environment}
     */
    public Assay environment(Map<String, String> variables) {
        Map<String, String> copy = Map.copyOf(variables);
        return new Assay(
                suites, model, models, baseUrl, apiKeyEnv, settings, databaseUrl, workspaces, reports, copy::get);
    }

    /**
     * Runs the suites to the end through the engine, stores the run, writes the reports when asked to, and returns what
     * happened. A case that fails is a result, not an exception: compare the evaluation with a {@link Threshold}.
     *
     * @throws dev.assay.AssayException when the run cannot start: {@code suite.invalid}, {@code config.missing_target},
     *     {@code target.missing_api_key}, {@code store.unavailable}, ...
     * @throws UncheckedIOException when the temporary directory or the reports cannot be written
     * @throws InterruptedException when the calling thread is interrupted: the run is cancelled first, keeping the
     *     items it finished
     */
    public Evaluation run() throws InterruptedException {
        EvalSpec spec = spec();
        Path scratch = databaseUrl == null || workspaces == null ? createScratch() : null;
        try {
            CheckerRegistry checkers = CheckerRegistry.builtins();
            Path workspaceRoot = workspaces != null ? workspaces : scratch.resolve("workspaces");
            try (Prepared prepared = spec.prepare(
                            null,
                            workspaceRoot,
                            checkers,
                            environment,
                            line -> LOG.log(System.Logger.Level.INFO, line));
                    Store store = Stores.open(databaseUrl != null ? databaseUrl : Stores.defaultUrl(scratch))) {
                Run run = awaitEnd(new Engine(store).start(prepared.plan(), RunListener.NONE));
                RunReport report =
                        RunReport.ofEnded(store, run, prepared.plan().suite().caseTags());
                List<Path> files =
                        reports == null ? List.of() : Reporters.builtins().writeAll(report, reports);
                return Evaluation.of(report, files);
            } catch (IOException e) {
                throw new UncheckedIOException("could not write the reports to " + reports, e);
            }
        } finally {
            if (scratch != null) {
                Workspace.deleteTree(scratch);
            }
        }
    }

    /** {@return the run this describes, resolved as the command line's flags are, over the same defaults} */
    EvalSpec spec() {
        return description().resolve();
    }

    /** {@return the run settings this description gives, as the resolver's one source} */
    private RunSettings description() {
        var given = new RunSettings().suites(suites);
        if (model == null && models.isEmpty() && (baseUrl != null || apiKeyEnv != null)) {
            throw new IllegalStateException("baseUrl and apiKeyEnv describe a model: name it with model(...)");
        }
        if (model != null) {
            given.model(new ModelOptions(model, baseUrl, apiKeyEnv, false, null, null));
        }
        if (!models.isEmpty()) {
            given.models(models.stream().map(ModelOptions::of).toList())
                    .baseUrl(baseUrl)
                    .apiKeyEnv(apiKeyEnv);
        }
        settings.forEach(setting -> setting.accept(given));
        return given;
    }

    /** The store and the target's connections close after this: the run must have ended, even when interrupted. */
    private static Run awaitEnd(RunHandle handle) throws InterruptedException {
        try {
            return handle.await();
        } catch (InterruptedException interrupted) {
            handle.cancel();
            while (!handle.isDone()) {
                try {
                    handle.await();
                } catch (InterruptedException again) {
                    // Waited for again: the interruption is reported once, below.
                }
            }
            throw interrupted;
        }
    }

    private Assay with(Consumer<RunSettings> setting) {
        var more = new ArrayList<>(settings);
        more.add(setting);
        return new Assay(
                suites, model, models, baseUrl, apiKeyEnv, more, databaseUrl, workspaces, reports, environment);
    }

    private static Path createScratch() {
        try {
            return Files.createTempDirectory("assay-");
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a temporary directory for the run", e);
        }
    }
}
