package dev.assay.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.cases.Case;
import dev.assay.cases.Suite;
import dev.assay.check.CheckerRegistry;
import dev.assay.check.judge.JudgeCache;
import dev.assay.cost.Budget;
import dev.assay.dialog.Dataset;
import dev.assay.dialog.Dialog;
import dev.assay.dialog.DialogPreparation;
import dev.assay.model.ChatModels;
import dev.assay.queue.CaseQueue;
import dev.assay.queue.QueuedWorkload;
import dev.assay.report.Coverage;
import dev.assay.report.RunReport;
import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import dev.assay.run.CaseWorkload;
import dev.assay.run.Engine;
import dev.assay.run.EvalSpec;
import dev.assay.run.InterruptedRuns;
import dev.assay.run.Prepared;
import dev.assay.run.RunHandle;
import dev.assay.run.RunListener;
import dev.assay.run.RunPlan;
import dev.assay.run.RunSettings;
import dev.assay.run.SilentRuns;
import dev.assay.run.StoredCases;
import dev.assay.store.Store;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the routes do, once for {@code /api} and the reference aliases alike: start a run through
 * {@link EvalSpec#prepare} and {@link Engine#start} (the CLI's path), cancel, read, delete. Thread-safe.
 */
final class Runs {
    private static final Logger LOG = LoggerFactory.getLogger(Runs.class);

    private final ServerConfig config;
    private final Engine engine;
    private final Store store;
    private final CheckerRegistry checkers;
    private final LiveRuns live;
    private final CaseSets caseSets;
    private final Datasets datasets;
    private final RunSettings defaults;

    Runs(
            ServerConfig config,
            Engine engine,
            Store store,
            CheckerRegistry checkers,
            LiveRuns live,
            CaseSets caseSets,
            Datasets datasets,
            RunSettings defaults) {
        this.config = config;
        this.engine = engine;
        this.store = store;
        this.checkers = checkers;
        this.live = live;
        this.caseSets = caseSets;
        this.datasets = datasets;
        this.defaults = defaults;
    }

    Store store() {
        return store;
    }

    LiveRuns live() {
        return live;
    }

    /** {@return {@code run_id}, {@code status}, {@code case_count}, {@code selected_cases} and {@code warnings}} */
    ObjectNode start(JsonNode body) throws InterruptedException {
        // The id is chosen here so the event log exists before the engine's first callback.
        String runId = Engine.newRunId();
        Prepared prepared;
        try {
            prepared = RunSettings.resolve(List.of(defaults, StartBody.parse(body, caseSets, "ASSAY_TOKEN")))
                    .prepare(runId, config.workspaceRoot(), checkers, config.env(), line -> {}, config.sandboxes());
        } catch (AssayException e) {
            // A suite's problems name its files by their host paths.
            throw new AssayException(caseSets.withoutDirectory(e.problem()), e);
        }
        RunPlan plan = prepared.plan();
        RunHandle handle = StartBody.queued(body)
                ? launchQueued(prepared)
                : launch(prepared, listener -> engine.start(plan, listener));
        ObjectNode response = Json.object();
        response.put("run_id", handle.runId());
        response.put("status", handle.current().status().wireName());
        response.put("case_count", plan.suite().cases().size());
        response.set(
                "selected_cases",
                Json.tree(plan.suite().cases().stream().map(Case::id).toList()));
        response.set(
                "warnings",
                Json.tree(prepared.skippedProblems().stream()
                        .map(problem -> caseSets.withoutDirectory(problem.toString()))
                        .toList()));
        return response;
    }

    /**
     * Starts a dialog run ({@link DialogStartBody}) through the engine, as {@code assay dialog run} does; its reference
     * files go to {@code <workspace root>/dialog/<run id>}. {@return {@code run_id}, {@code status}, {@code case_count}
     * (the dataset's lines), {@code selected_cases} (its dialog ids) and {@code warnings} (its skipped lines)}
     */
    ObjectNode startDialog(JsonNode body) {
        DialogStartBody start = DialogStartBody.parse(body, datasets, "ASSAY_TOKEN");
        String runId = Engine.newRunId();
        DialogPreparation.Prepared prepared = prepareDialog(start.spec(dialogDirectory(runId)), runId);
        Dataset dataset = prepared.data();
        RunHandle handle = launch(prepared, listener -> engine.start(prepared.workload(), listener));
        ObjectNode response = Json.object();
        response.put("run_id", handle.runId());
        response.put("status", handle.current().status().wireName());
        response.put("case_count", dataset.dialogs().size());
        response.set(
                "selected_cases",
                Json.tree(dataset.dialogs().stream().map(Dialog::dialogId).toList()));
        response.set(
                "warnings",
                Json.tree(dataset.skipCounts().entrySet().stream()
                        .map(skipped -> "skipped " + skipped.getValue() + " line(s): "
                                + skipped.getKey().wireName())
                        .toList()));
        return response;
    }

    /**
     * Continues a stored run that ended without finishing, from its stored description, as {@code assay run --resume}
     * does; only runs whose suites, every file of them, lie in the server's suites directory, since nothing outside it
     * is run over HTTP (for a dialog run, its dataset in the datasets directory). {@return {@code run_id},
     * {@code status} and {@code kept}, the items kept}
     *
     * @param storedCases run the cases the run was started with, as the store keeps them, rather than refuse a run
     *     whose suite files changed since ({@code run.suite_changed})
     * @param limits the limits the continuation runs under, laid over the run's own (a run stopped by a limit goes on
     *     under a higher one), as {@code --resume RUN --max-cost HIGHER} does
     * @throws AssayException {@code run.not_found}, {@code run.still_running}, {@code run.suite_changed}, or
     *     {@code run.not_resumable}
     */
    ObjectNode resume(String runId, boolean retryErrors, boolean storedCases, Budget limits)
            throws InterruptedException {
        Run stored = SilentRuns.ended(
                store, store.findRun(runId).orElseThrow(() -> ApiProblems.notFound(runId)), SilentRuns.DEFAULT_SILENCE);
        resumeRefusal(stored).ifPresent(problem -> {
            throw new AssayException(problem);
        });
        EvalSpec spec = EvalSpec.toResume(stored);
        if (stored.kind().equals(RunKind.DIALOG)) {
            return resumeDialog(stored, spec, retryErrors);
        }
        Suite storedSuite = storedCases ? StoredCases.suite(store, stored) : null;
        Prepared prepared =
                spec.prepare(runId, config.workspaceRoot(), checkers, config.env(), line -> {}, config.sandboxes());
        RunPlan plan = (storedSuite == null
                        ? prepared.planOf(stored)
                        : prepared.planOf(stored).withSuite(storedSuite))
                .withBudget(limits);
        RunHandle handle = launch(prepared, listener -> engine.resume(plan, retryErrors, listener));
        return resumed(handle);
    }

    /**
     * {@return why this server will not continue {@code stored} from its stored spec ({@code run.not_resumable}), or
     * empty when {@link #resume} takes it}: the spec's own refusal ({@link EvalSpec#resumeRefusal}), then the server's
     * boundary, since nothing outside it is run over HTTP: a capability run's suites, every file of them, lie in the
     * suites directory, a dialog run's dataset in the datasets directory. What the run detail tells as
     * {@code resumable} and {@code resume_problem}; whether the run has ended, and {@code run.suite_changed}, are told
     * when it is resumed.
     */
    Optional<Problem> resumeRefusal(Run stored) {
        Optional<Problem> refused = EvalSpec.resumeRefusal(stored);
        if (refused.isPresent()) {
            return refused;
        }
        String runId = stored.runId();
        EvalSpec spec = EvalSpec.toResume(stored);
        if (stored.kind().equals(RunKind.DIALOG)) {
            return datasets.contains(spec.dataset().dialogs().file())
                    ? Optional.empty()
                    : Optional.of(outsideRefusal(runId, "reads a dataset outside the server's datasets directory"));
        }
        Path suites = config.suitesDirectory().toAbsolutePath().normalize();
        for (Path suite : spec.dataset().suites()) {
            if (!suite.toAbsolutePath().normalize().startsWith(suites)) {
                return Optional.of(outsideRefusal(runId, "reads suites outside the server's suites directory"));
            }
            List<String> outside = caseSets.outsideFiles(
                    suites.relativize(suite.toAbsolutePath().normalize()));
            if (!outside.isEmpty()) {
                return Optional.of(outsideRefusal(
                        runId, "reads suites outside the server's suites directory: " + CaseSets.inWords(outside)));
            }
        }
        return Optional.empty();
    }

    private static Problem outsideRefusal(String runId, String why) {
        return Problem.of(
                        "run.not_resumable",
                        "run " + runId + " " + why + "; resume it with `assay run --resume " + runId + "`")
                .withDetail("run_id", runId);
    }

    /**
     * Continues a stored dialog run from its stored spec ({@link EvalSpec#toResume}), as {@code assay run --resume}
     * does; its reference files go to the server's directory for the run, wherever the run started.
     */
    private ObjectNode resumeDialog(Run stored, EvalSpec spec, boolean retryErrors) {
        String runId = stored.runId();
        DialogPreparation.Prepared prepared = prepareDialog(spec.withRunDirectory(dialogDirectory(runId)), runId);
        RunHandle handle = launch(prepared, listener -> engine.resume(prepared.workload(), retryErrors, listener));
        return resumed(handle);
    }

    /** Loads a dialog run's dataset and builds its system under test, as {@code assay dialog run} does. */
    private DialogPreparation.Prepared prepareDialog(EvalSpec spec, String runId) {
        return DialogPreparation.prepare(
                spec,
                runId,
                options -> ChatModels.chatModel(options, config.env(), line -> {}),
                config.env(),
                line -> {},
                JudgeCache.disabled());
    }

    /** {@return where a dialog run's reference files go: {@code <workspace root>/dialog/<run id>}} */
    private Path dialogDirectory(String runId) {
        return config.workspaceRoot().resolve("dialog").resolve(runId);
    }

    private static ObjectNode resumed(RunHandle handle) {
        ObjectNode response = Json.object();
        response.put("run_id", handle.runId());
        response.put("status", handle.current().status().wireName());
        response.put("kept", handle.current().counts().completed());
        return response;
    }

    /**
     * Starts a run whose cases workers run ({@code assay worker}): the server puts them on the queue in its database
     * and follows the run in the store, so the page, the SSE stream and cancel work as for any run.
     *
     * @throws AssayException {@code queue.needs_postgres} when the server's database is not PostgreSQL
     */
    private RunHandle launchQueued(Prepared prepared) {
        if (config.queueDatabase() == null) {
            closeQuietly(prepared);
            throw new AssayException(Problem.of(
                            "queue.needs_postgres",
                            "\"queue\": true needs a server on a PostgreSQL database (assay serve --db "
                                    + "jdbc:postgresql://...), where workers take the cases from")
                    .withDetail("field", "queue"));
        }
        CaseQueue queue;
        QueuedWorkload workload;
        try {
            queue = CaseQueue.open(config.queueDatabase());
            try {
                workload = new QueuedWorkload(new CaseWorkload(prepared.plan()), queue, store);
            } catch (RuntimeException e) {
                queue.close();
                throw e;
            }
        } catch (RuntimeException e) {
            closeQuietly(prepared);
            throw e;
        }
        return launch(
                () -> {
                    try (queue) {
                        prepared.close();
                    }
                },
                listener -> engine.start(workload, listener));
    }

    /** Starts the engine on a prepared run with a fresh event log, and closes what it holds once it has ended. */
    private RunHandle launch(AutoCloseable prepared, Function<RunListener, RunHandle> start) {
        EventLog events = LiveRuns.newLog();
        RunHandle handle;
        try {
            handle = start.apply(new RunEvents(events));
        } catch (RuntimeException e) {
            closeQuietly(prepared);
            throw e;
        }
        live.add(handle, events);
        // The prepared run holds its connections until the run has ended.
        Thread.ofVirtual().name("assay-close-" + handle.runId()).start(() -> {
            try {
                handle.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IllegalStateException engineFailed) {
                // The engine could not store the end (runFinished never came): its streams must still end.
                events.close(RunEvents.FINISHED, Json.write(failed(handle, engineFailed)));
            } finally {
                closeQuietly(prepared);
            }
        });
        return handle;
    }

    /** Connections that fail to close are logged: the run's results are stored already. */
    private static void closeQuietly(AutoCloseable resources) {
        try {
            resources.close();
        } catch (Exception e) {
            LOG.warn("could not close a run's connections: {}", e.toString());
        }
    }

    /**
     * Asks a running run to stop, or gives up an interrupted one ({@link InterruptedRuns#cancel}); finished items are
     * kept. {@return the run as now stored when it was an interrupted run, cancelled at once; empty when a run of this
     * server was asked to stop}
     *
     * @throws AssayException {@code run.not_found}, or {@code run.not_running} for a run that ended otherwise or that
     *     another process (the CLI) is running
     */
    Optional<Run> cancel(String runId) {
        LiveRuns.LiveRun run = live.get(runId).orElse(null);
        if (run == null || run.handle().isDone()) {
            if (run(runId).status() == RunStatus.INTERRUPTED) {
                return Optional.of(InterruptedRuns.cancel(store, runId));
            }
            throw new AssayException(Problem.of("run.not_running", "run " + runId + " is not running in this server")
                    .withDetail("field", "run_id"));
        }
        run.handle().cancel();
        return Optional.empty();
    }

    /** @throws AssayException {@code run.not_found} */
    Run run(String runId) {
        return live.get(runId)
                .flatMap(found -> latest(found.handle()))
                .or(() -> store.findRun(runId))
                .orElseThrow(() -> ApiProblems.notFound(runId));
    }

    /**
     * The record the run ended with once it has ended: after a cancel, a case the engine had already given up on can
     * still report late and replace {@link RunHandle#current()} with a "running" tally.
     */
    private static Optional<Run> latest(RunHandle handle) {
        if (!handle.isDone()) {
            return Optional.of(handle.current());
        }
        try {
            return Optional.of(handle.await());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (IllegalStateException engineFailed) {
            return Optional.of(failed(handle, engineFailed));
        }
    }

    /** The last known record of a run whose engine failed to end it (the store refused its final record). */
    private static Run failed(RunHandle handle, IllegalStateException engineFailed) {
        Run last = handle.current();
        return last.withProgress(
                RunStatus.FAILED,
                last.dimensionScores(),
                last.totalScore(),
                last.counts(),
                Instant.now(),
                last.elapsedS(),
                Problem.of("run.internal_error", "the run's end could not be stored: " + engineFailed.getCause()));
    }

    /**
     * {@return the run's tool coverage, from the stored items}; it reads every item, so the page asks for it with the
     * detail and pages items through {@code /items}
     *
     * @throws AssayException {@code run.not_found}
     */
    Coverage coverage(String runId) {
        return report(runId).coverage();
    }

    /**
     * {@return the run with every item, for its coverage and statistics}; it reads every item
     *
     * @throws AssayException {@code run.not_found}
     */
    RunReport report(String runId) {
        run(runId);
        return RunReport.load(store, runId);
    }

    List<Item> items(String runId, int offset, int limit) {
        return store.listItems(runId, offset, limit);
    }

    /** An item with its position in the run's whole item list (what {@link #item} takes). */
    record Positioned(int position, Item item) {}

    /**
     * A page of the items that pass a filter and how many pass in all. Without a filter the store pages; with one,
     * every item and the stored case set (for languages and tags) are read and filtered here.
     */
    record FilteredPage(List<Positioned> items, int total) {}

    FilteredPage items(String runId, ItemFilter filter, int offset, int limit) {
        if (filter.isEmpty()) {
            List<Item> page = store.listItems(runId, offset, limit);
            return new FilteredPage(
                    IntStream.range(0, page.size())
                            .mapToObj(index -> new Positioned(offset + index, page.get(index)))
                            .toList(),
                    store.countItems(runId));
        }
        RunReport report = RunReport.load(store, runId);
        Map<String, Case> cases = RunReport.storedCases(store, report.run());
        List<Item> all = report.briefItems();
        List<Positioned> passing = IntStream.range(0, all.size())
                .filter(index -> filter.matches(
                        all.get(index), cases.get(all.get(index).trial().caseId())))
                .mapToObj(index -> new Positioned(index, all.get(index)))
                .toList();
        int from = (int) Math.min(offset, (long) passing.size());
        return new FilteredPage(
                passing.subList(from, (int) Math.min(from + (long) limit, passing.size())), passing.size());
    }

    /**
     * {@return the item at a position of the run's item list (selection order), transcript included}. Positions, not
     * {@code seq}, because a cancelled run has no rows for the cases it never reached.
     *
     * @throws AssayException {@code item.not_found}
     */
    Item item(String runId, int position) {
        run(runId);
        List<Item> page = store.listItems(runId, position, 1);
        if (page.isEmpty()) {
            throw new AssayException(Problem.of("item.not_found", "run " + runId + " has no item at " + position)
                    .withDetail("field", "position"));
        }
        return page.getFirst();
    }

    /**
     * Deletes an ended run. A running run is refused, never cancelled implicitly: one this server runs can be cancelled
     * first ({@code POST .../cancel}); one that another process (a CLI, another server) is writing is refused by the
     * store until it has ended.
     *
     * @throws AssayException {@code run.not_found}, {@code run.still_running}
     */
    void delete(String runId) {
        if (live.isRunning(runId)) {
            throw new AssayException(Problem.of("run.still_running", "cancel the run before deleting it")
                    .withDetail("field", "run_id"));
        }
        boolean existed = store.deleteRun(runId);
        live.remove(runId);
        if (!existed) {
            throw ApiProblems.notFound(runId);
        }
    }
}
