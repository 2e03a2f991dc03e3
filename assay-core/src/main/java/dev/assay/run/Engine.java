package dev.assay.run;

import dev.assay.AssayException;
import dev.assay.FileNames;
import dev.assay.Problem;
import dev.assay.cost.Budget;
import dev.assay.cost.CostTally;
import dev.assay.cost.ItemCost;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.score.Scores;
import dev.assay.store.Store;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The one way to run an evaluation: the CLI, the server and the tests all call it. It creates the run record, runs the
 * cases concurrently (bounded by the run's and the target's limits) under per-case deadlines, judges them, stores every
 * item as it finishes, keeps dimension scores and counts up to date, and ends the run as finished or, on request,
 * cancelled with every finished item kept. Writes are retried while the database is unavailable ({@link StoreWrites});
 * a run whose results cannot be stored ends {@code interrupted}, and a run whose target refuses its credentials stops
 * early as {@code failed}. The final counts are those of the stored items. Thread-safe; one engine serves many runs.
 */
public final class Engine {
    /**
     * How often a running run tells the store it is alive, besides its progress writes; a run silent for much longer
     * ({@link SilentRuns#DEFAULT_SILENCE}) is taken for dead.
     */
    public static final Duration HEARTBEAT = Duration.ofSeconds(10);

    /** No limit on the age of answers reused across runs. */
    public static final Duration FOREVER = Duration.ofDays(3_650_000);

    private final Store store;
    private final Duration storeOutageLimit;
    private final Duration answersAcrossRuns;
    private final RunObserver observer;

    /**
     * An engine that waits up to three minutes for an unavailable database before a run ends interrupted.
     *
     * @param store where runs, items and case-set snapshots go
     */
    public Engine(Store store) {
        this(store, StoreWrites.DEFAULT_OUTAGE_LIMIT);
    }

    /**
     * @param storeOutageLimit how long a run holds its finished items and retries while the database is unavailable
     *     before it ends {@code interrupted}; positive
     */
    public Engine(Store store, Duration storeOutageLimit) {
        this(store, storeOutageLimit, null);
    }

    /**
     * @param answersAcrossRuns how old a model answer kept by another run may be to be used instead of asking the model
     *     ({@code --cache}); null to use only the run's own ({@link #FOREVER} for any age)
     */
    public Engine(Store store, Duration storeOutageLimit, Duration answersAcrossRuns) {
        this(store, storeOutageLimit, answersAcrossRuns, RunObserver.NONE);
    }

    private Engine(Store store, Duration storeOutageLimit, Duration answersAcrossRuns, RunObserver observer) {
        if (storeOutageLimit.isNegative() || storeOutageLimit.isZero()) {
            throw new IllegalArgumentException("the store outage limit must be positive");
        }
        this.store = store;
        this.storeOutageLimit = storeOutageLimit;
        this.answersAcrossRuns = answersAcrossRuns;
        this.observer = Objects.requireNonNull(observer, "observer");
    }

    /**
     * {@return this engine, its runs followed by {@code observer} (a tracer): told of every run, trial, model call and
     * tool call} Closing the observer is the caller's, once its runs have ended.
     */
    public Engine observedBy(RunObserver observer) {
        return new Engine(store, storeOutageLimit, answersAcrossRuns, observer);
    }

    /** Runs a capability run to the end and returns the final record. */
    public Run run(RunPlan plan, RunListener listener) throws InterruptedException {
        return start(plan, listener).await();
    }

    /** Runs to the end and returns the final record. */
    public Run run(Workload workload, RunListener listener) throws InterruptedException {
        return start(workload, listener).await();
    }

    /** Starts a capability run in the background; see {@link #start(Workload, RunListener)}. */
    public RunHandle start(RunPlan plan, RunListener listener) {
        return start(new CaseWorkload(plan), listener);
    }

    /**
     * Starts a run in the background and returns at once; the run record already exists in the store when this returns.
     */
    public RunHandle start(Workload workload, RunListener listener) {
        String runId = workload.requestedRunId() != null ? workload.requestedRunId() : newRunId();
        var handle = new RunHandle(runId);
        Instant started = CaseRunner.now();
        workload.register(store, started);
        Run run = workload.newRun(runId, started);
        store.createRun(run);
        return launch(workload, handle, run, List.of(), false, listener);
    }

    /**
     * Continues a stored run that ended without finishing ({@code interrupted}, {@code cancelled}, {@code failed}): the
     * items it stored are kept and counted, and only the cases without one run, under the same run id; with
     * {@code retryErrors}, items in {@code error} run again too. Cancelled items always run again.
     *
     * @param plan the run's plan, rebuilt from its stored description ({@link EvalSpec#toResume}); its configuration
     *     carries the run id
     */
    public RunHandle resume(RunPlan plan, boolean retryErrors, RunListener listener) {
        return resume(new CaseWorkload(plan), retryErrors, listener);
    }

    /**
     * Continues a stored run that ended without finishing, keeping the items the workload says stand
     * ({@link Workload#keptOnResume}) and running the others, under the same run id.
     *
     * @param workload the run's work, rebuilt from its stored description; it carries the run id
     * @throws AssayException {@code run.not_found}, {@code run.still_running} for a run that has not ended, or the
     *     workload's refusal ({@link Workload#resumeRefusal}: {@code run.suite_changed})
     */
    public RunHandle resume(Workload workload, boolean retryErrors, RunListener listener) {
        String runId = Objects.requireNonNull(workload.requestedRunId(), "the run id of the run to resume");
        Run stored = store.findRun(runId)
                .orElseThrow(() -> new AssayException(Problem.of("run.not_found", "no run " + runId + " is stored")
                        .withDetail("run_id", runId)));
        if (stored.status() == RunStatus.RUNNING) {
            throw new AssayException(Problem.of(
                            "run.still_running",
                            "run " + runId + " is still running; " + "it can be resumed once it has ended")
                    .withDetail("run_id", runId));
        }
        workload.resumeRefusal(store, stored).ifPresent(problem -> {
            throw new AssayException(problem);
        });
        var kept = new ArrayList<Item>();
        for (int offset = 0; ; offset += RESUME_PAGE) {
            List<Item> page = store.listItems(runId, offset, RESUME_PAGE);
            page.stream()
                    .filter(item -> workload.keptOnResume(item, retryErrors))
                    .forEach(kept::add);
            if (page.size() < RESUME_PAGE) {
                break;
            }
        }
        var handle = new RunHandle(runId);
        Run run = stored.withProgress(
                RunStatus.RUNNING,
                stored.dimensionScores(),
                stored.totalScore(),
                Counts.of(workload.itemCount(), kept.stream().map(Item::status).toList()),
                null,
                stored.elapsedS(),
                null);
        store.updateRun(run);
        return launch(workload, handle, run, kept, true, listener);
    }

    private static final int RESUME_PAGE = 500;

    private RunHandle launch(
            Workload workload, RunHandle handle, Run run, List<Item> kept, boolean resumed, RunListener listener) {
        RunMeters.runStarted(run.counts().total() - kept.size());
        handle.update(run);
        safely(() -> listener.runStarted(run));
        RunObserver.Observation observation = observed(() -> observer.runStarted(run), RunObserver.Observation.NONE);
        Thread.ofVirtual()
                .name("assay-run-" + run.runId())
                .start(() -> execute(workload, handle, listener, observation, kept, resumed));
        Thread.ofVirtual().name("assay-heartbeat-" + run.runId()).start(() -> beat(handle));
        return handle;
    }

    private void beat(RunHandle handle) {
        try {
            while (!handle.isDone()) {
                Thread.sleep(HEARTBEAT.toMillis());
                if (!handle.isDone()) {
                    try {
                        store.heartbeat(handle.runId());
                    } catch (RuntimeException unavailable) {
                        // The database is away: StoreWrites holds the run's results and ends it interrupted if the
                        // outage lasts; a missed beat only matters if this process is gone too, and then it is right.
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The item error that stops a run: the endpoint refused the credentials, so every further call would too. */
    private static final String AUTH_FAILED = "target.auth_failed";

    private void execute(
            Workload workload,
            RunHandle handle,
            RunListener listener,
            RunObserver.Observation observation,
            List<Item> kept,
            boolean resumed) {
        var progress = new Progress(handle, workload, listener, observation);
        progress.keep(kept);
        Set<String> done = kept.stream().map(Item::caseId).collect(Collectors.toSet());
        RunStatus status = RunStatus.FINISHED;
        Problem error = null;
        try {
            runItems(workload, handle, progress, done, resumed);
            if (progress.writes.gaveUp()) {
                status = RunStatus.INTERRUPTED;
                error = progress.writes.outageProblem();
            } else if (progress.halt() != null) {
                status = RunStatus.FAILED;
                error = progress.halt();
            } else if (progress.budgetExhausted() != null && progress.unfinished() > 0) {
                // Stopped by a limit before every case ran: resumable with a higher limit.
                status = RunStatus.INTERRUPTED;
                error = progress.budgetExhausted();
            } else if (handle.isCancelRequested()) {
                status = RunStatus.CANCELLED;
            } else {
                error = progress.missingItems();
                status = error == null ? RunStatus.FINISHED : RunStatus.INTERRUPTED;
                if (error == null) {
                    // A run that judged nothing has no score to report: 0 % would read as a real result.
                    error = progress.nothingJudged();
                    status = error == null ? RunStatus.FINISHED : RunStatus.FAILED;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            status = RunStatus.CANCELLED;
        } catch (RuntimeException | Error e) {
            // Even an Error must end the run record and release RunHandle.await(), or callers wait forever.
            if (progress.writes.gaveUp()) {
                status = RunStatus.INTERRUPTED;
                error = progress.writes.outageProblem();
            } else {
                status = RunStatus.FAILED;
                error = e instanceof AssayException assay
                        ? assay.problem()
                        : Problem.of("run.internal_error", "the run failed: " + e);
            }
        }
        try {
            handle.finish(progress.end(status, error));
        } catch (RuntimeException storeFailure) {
            safely(() -> observation.runEnded(handle.current()));
            handle.fail(storeFailure);
        } finally {
            RunMeters.runEnded(progress.unfinished());
        }
    }

    /**
     * Runs every item and returns once all of them have ended, so that the final record counts every item, those stored
     * by items interrupted by a cancellation included.
     */
    private void runItems(Workload workload, RunHandle handle, Progress progress, Set<String> done, boolean resumed)
            throws InterruptedException {
        // Only the items running are held, so that a run of any size keeps the memory of its concurrency.
        Map<Integer, Future<?>> running = new ConcurrentHashMap<>();
        handle.onCancel(() -> {
            progress.log("cancel requested");
            running.values().forEach(future -> future.cancel(true));
        });
        // Items run on threads of their own and end, as the item executor closes, before their subjects' threads close.
        try (ExecutorService subjectThreads = Executors.newVirtualThreadPerTaskExecutor();
                ExecutorService itemThreads = Executors.newVirtualThreadPerTaskExecutor()) {
            var responses = new StoredResponses(
                    store, progress.commits, handle.runId(), answersAcrossRuns, resumed, progress::log);
            var limit = new Semaphore(workload.concurrency());
            int items = workload.itemCount();
            // Items start in order: the dispatcher takes a permit before submitting each one, so at most `limit` item
            // threads exist and nothing is queued that a cancellation would have to unwind. Nothing new starts while
            // the database is away (finished items wait in memory, at most one per slot) or once the system under
            // test refused the credentials.
            // Nor once a limit on the run's cost or tokens is reached: the cases running then finish (they are paid for
            // already, and their answers count), so a run ends at most their cost past its limit. Nor once a
            // head-to-head has decided: the run then ends finished, its cases running finished too.
            for (int seq = 0;
                    seq < items
                            && progress.halt() == null
                            && !progress.decided()
                            && progress.budgetExhausted() == null
                            && acquire(limit, handle)
                            && !progress.decided()
                            && progress.budgetExhausted() == null
                            && progress.writes.awaitAvailable(
                                    () -> handle.isCancelRequested() || progress.halt() != null);
                    seq++) {
                int index = seq;
                Workload.WorkItem work = workload.item(seq);
                String itemId = work.id();
                if (done.contains(itemId)) {
                    // Resumed: this item is stored and counted already.
                    limit.release();
                    continue;
                }
                // The prompt is let go once announced: a queued run's items all wait at once, for workers, and would
                // otherwise hold every prompt until they end.
                var prompt = new AtomicReference<>(work.prompt());
                Workload.ItemRunner runner = work.runner();
                var item = new FutureTask<Void>(() -> {
                    try {
                        RunObserver.Trial trial = progress.started(itemId, prompt.getAndSet(null));
                        var context = new ItemContext(
                                handle.runId(),
                                responses,
                                subjectThreads,
                                message -> progress.log(itemId + ": " + message),
                                handle::isCancelRequested,
                                (step, steps) -> progress.stepDone(itemId, step, steps),
                                trial);
                        Item ran = null;
                        try {
                            ran = runner.run(context);
                        } finally {
                            Item ended = ran;
                            safely(() -> trial.ended(ended));
                        }
                        progress.finished(ran);
                    } catch (AssayException lost) {
                        if (lost.problem().type().equals(Budget.EXHAUSTED)) {
                            // Not started, elsewhere, because the run reached a limit (a queued run's workers keep
                            // it): the run stops as at its own limit.
                            progress.budgetReached(lost.problem());
                        } else {
                            // The item could not be stored (the database stayed away, or refused it): it is not
                            // counted, so the run's counts stay those of its stored items, and the run cannot end
                            // finished.
                            progress.lost(itemId, lost.problem());
                        }
                    } catch (InterruptedException cancelled) {
                        progress.log(itemId + ": not stored: the run was cancelled before the item could be stored");
                    } catch (RuntimeException | Error e) {
                        // Not stored, so not counted: the run cannot end finished with fewer items than cases.
                        progress.lost(
                                itemId, Problem.of("run.internal_error", "the item failed inside the engine: " + e));
                    } finally {
                        limit.release();
                    }
                    return null;
                });
                running.put(index, item);
                itemThreads.execute(() -> {
                    try {
                        item.run();
                    } finally {
                        running.remove(index);
                    }
                });
            }
            if (handle.isCancelRequested()) {
                running.values().forEach(future -> future.cancel(true));
            }
            // Closing the item executor waits for every item; an item cancelled before it started never runs.
        }
        try {
            progress.commits.flush();
        } catch (AssayException unkept) {
            progress.log("answers of cases that stored no item could not be kept: "
                    + unkept.problem().message());
        }
    }

    /**
     * {@return how this process stores the items it runs of a run another process started and follows (a queued run,
     * {@code dev.assay.queue})}: made once per run, it groups the writes of the items it runs at once into one commit
     * ({@link Store#saveAll(List, List, Store.ItemGate)}), each passing {@code gate}, which refuses the items of a run
     * that has ended (been cancelled) and writes what must be committed with them. Writes are retried as in a run.
     *
     * @param log lines worth showing (an outage of the database)
     */
    public ItemWriter itemWriter(String runId, Store.ItemGate gate, Consumer<String> log) {
        return new ItemWriter(runId, gate, log);
    }

    /** The item writes of one run in a process that follows it, grouped ({@link #itemWriter}). Thread-safe. */
    public final class ItemWriter {
        private final String runId;
        private final Store.ItemGate gate;
        private final Consumer<String> log;
        private Commits commits;

        /** One outage's span and the grouped writes it governs. */
        private record Commits(StoreWrites writes, GroupCommit group) {}

        private ItemWriter(String runId, Store.ItemGate gate, Consumer<String> log) {
            this.runId = runId;
            this.gate = gate;
            this.log = log;
        }

        /**
         * {@return the writes of the items about to run} An outage that outlasted its limit failed the items then in
         * flight; the next items start afresh, as a worker outlives an outage of its database.
         */
        private synchronized Commits commits() {
            if (commits == null || commits.writes().gaveUp()) {
                var writes = new StoreWrites(storeOutageLimit, log);
                commits = new Commits(writes, new GroupCommit(store, writes, gate));
            }
            return commits;
        }
    }

    /**
     * Runs one item of a run another process started and follows (a queued run, {@code dev.assay.queue}): the item
     * runs, is stored through the run's {@link ItemWriter}, replacing what an earlier attempt stored under the same
     * item id, and is then released ({@link Workload#stored}). The run record is not touched: it belongs to the process
     * following the run, which counts the item once it sees it stored.
     *
     * @param work the item, as {@code workload} gave it ({@link Workload#item})
     * @param writer the run's writer
     * @param cancelled whether the caller is stopping (a worker shutting down), checked after an interruption
     * @param log lines worth showing, prefixed with the item's id
     * @return the item, stored unless the writer's gate refused it (the run had ended, been cancelled)
     * @throws AssayException {@code store.outage} when it could not be stored
     * @throws InterruptedException when the item was stopped before it ended; nothing is stored
     */
    public Item runItem(
            Workload workload,
            Workload.WorkItem work,
            ItemWriter writer,
            BooleanSupplier cancelled,
            Consumer<String> log)
            throws InterruptedException {
        String itemId = work.id();
        Consumer<String> itemLog = message -> log.accept(itemId + ": " + message);
        ItemWriter.Commits commits = writer.commits();
        try (ExecutorService subjectThreads = Executors.newVirtualThreadPerTaskExecutor()) {
            var responses =
                    new StoredResponses(store, commits.group(), writer.runId, answersAcrossRuns, false, itemLog);
            var context =
                    new ItemContext(writer.runId, responses, subjectThreads, itemLog, cancelled, (step, steps) -> {});
            Item item = work.runner().run(context);
            if (item.status() == ItemStatus.CANCELLED) {
                // Cut short by the caller's stop: not stored, so that the item runs again, whole, elsewhere.
                throw new InterruptedException(itemId + " was stopped before it ended");
            }
            if (!commits.group().item(item)) {
                // The run ended (cancelled) while the item ran: its counts are final, and an item stored now would be
                // one more than they say.
                itemLog.accept("not stored: the run is no longer running");
            }
            workload.stored(item);
            return item;
        }
    }

    /**
     * Waits for a free slot; {@return false when the run was cancelled meanwhile}. It polls, because a case cancelled
     * before it started never releases the slot it was given.
     */
    private static boolean acquire(Semaphore limit, RunHandle handle) throws InterruptedException {
        while (!handle.isCancelRequested()) {
            if (limit.tryAcquire(50, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                if (!handle.isCancelRequested()) {
                    return true;
                }
                limit.release();
            }
        }
        return false;
    }

    /**
     * {@return the workspace directory of a run's case: {@code <root>/<run id>/<seq>_<case id>}} Case ids may hold
     * characters no file system likes; the sequence number keeps directories unique.
     */
    public static Path caseDirectory(Path workspaceRoot, String runId, int seq, String caseId) {
        return workspaceRoot.resolve(runId).resolve(directoryName(seq, caseId));
    }

    private static String directoryName(int seq, String caseId) {
        // Made twice per case (to run it, to remove its workspace): without a format string, it costs nothing.
        String number = Integer.toString(seq);
        return "0".repeat(Math.max(0, 4 - number.length())) + number + "_" + FileNames.safe(caseId);
    }

    /** {@return a new run id: 32 random hex characters} */
    public static String newRunId() {
        byte[] bytes = new byte[16];
        new java.security.SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static void safely(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException ignored) {
            // RunListener contract: a listener's failure never affects the run.
        }
    }

    /** {@return what an observer gave, or {@code otherwise} when it failed: an observer never affects the run} */
    private static <T> T observed(Supplier<T> call, T otherwise) {
        try {
            T given = call.get();
            return given != null ? given : otherwise;
        } catch (RuntimeException ignored) {
            return otherwise;
        }
    }

    /** The run's mutable tally, guarded by its own lock; each change is stored and announced. */
    private final class Progress {
        private final RunHandle handle;
        private final Workload workload;
        private final RunListener listener;
        private final RunObserver.Observation observation;
        final StoreWrites writes;
        final GroupCommit commits;
        private volatile Problem halt;
        private final CostTally cost;
        private final Budget budget;
        private volatile Problem budgetExhausted;
        private final HeadToHead headToHead;
        private volatile boolean decided;
        private final List<String> unstored = new ArrayList<>();
        // Only what the run record needs is kept, not the items: a large run's transcripts stay in the store.
        private final Metric.Tally scores;
        // Counted as items finish: recounting every status per item made a large run quadratic.
        private Counts counted = Counts.ZERO;
        // The error items' problem types, counted, with the first message of each: why a run that judged nothing
        // failed.
        private final Map<String, Integer> errorTypes = new LinkedHashMap<>();
        private final Map<String, String> firstErrors = new HashMap<>();
        private Instant lastStored = Instant.EPOCH;

        Progress(RunHandle handle, Workload workload, RunListener listener, RunObserver.Observation observation) {
            this.handle = handle;
            this.workload = workload;
            this.listener = listener;
            this.observation = observation;
            this.writes = new StoreWrites(storeOutageLimit, this::log);
            this.commits = new GroupCommit(store, writes);
            this.scores = MetricRegistry.METRICS
                    .get(WeightedScore.NAME, null)
                    .begin(new MetricContext(handle.current(), workload));
            EvalSpec spec = EvalSpec.of(handle.current());
            this.cost = new CostTally(
                    handle.current().modelName(),
                    spec.limits().prices(),
                    spec.limits().samples());
            this.budget = workload.budget();
            this.headToHead = workload.headToHead().orElse(null);
        }

        /** {@return whether the run's head-to-head has decided, so that no further case need start} */
        boolean decided() {
            return decided;
        }

        /** Feeds an item to the head-to-head, if the run is one; once it decides, says so once. */
        private void compare(Item item) {
            if (headToHead != null && headToHead.accept(item) && !decided) {
                decided = true;
                log("stopping: " + headToHead.outcome().reason()
                        + "; the cases running finish, no further case starts");
            }
        }

        /** {@return why no further case may start (a limit on the run's cost or tokens is reached), or null} */
        Problem budgetExhausted() {
            return budgetExhausted;
        }

        /** Adds an item's cost; once a limit is reached, says so once and keeps why. */
        private void spend(Item item, boolean metered) {
            ItemCost spent = cost.add(item);
            if (metered) {
                RunMeters.spent(spent);
            }
            budget.exhausted(cost.total()).ifPresent(this::budgetReached);
        }

        /** Notes that the run reached a limit, the first time with a line saying so; no further case starts. */
        synchronized void budgetReached(Problem problem) {
            if (budgetExhausted == null) {
                budgetExhausted = problem;
                log("stopping: " + problem.message() + "; the cases running finish, no further case starts");
            }
        }

        /** Counts the items a resumed run kept, as if they had just finished (they are stored already). */
        synchronized void keep(List<Item> kept) {
            for (Item item : kept) {
                spend(item, false);
                compare(item);
                scores.accept(item);
                counted = counted.plus(item.status());
                countError(item);
            }
        }

        /** {@return how many of the run's items were not counted as finished} */
        synchronized int unfinished() {
            return Math.max(0, workload.itemCount() - counted.completed());
        }

        /** {@return why no further case may start (the target refused the credentials), or null} */
        Problem halt() {
            return halt;
        }

        /** {@return what observes the item} */
        RunObserver.Trial started(String itemId, String prompt) {
            Run run = handle.current();
            safely(() -> listener.itemStarted(run, itemId, prompt));
            return observed(() -> observation.trialStarted(itemId), RunObserver.Trial.NONE);
        }

        void stepDone(String itemId, int step, int steps) {
            Run run = handle.current();
            safely(() -> listener.stepDone(run, itemId, step, steps));
        }

        /**
         * Stores the item, then counts it.
         *
         * @throws AssayException when it could not be stored; it is then not counted
         */
        void finished(Item item) throws InterruptedException {
            if (!workload.itemsStoredByRunner()) {
                commits.item(item);
            }
            if (halt == null && item.error() != null && item.error().type().equals(AUTH_FAILED)) {
                halt = Problem.of(
                                AUTH_FAILED,
                                "the run stopped early because an endpoint refused the credentials: "
                                        + item.error().message())
                        .withDetail("case_id", item.caseId());
                log("stopping: an endpoint refused the credentials (" + AUTH_FAILED + "); no further case starts");
            }
            workload.stored(item);
            Run run;
            boolean storeNow;
            synchronized (this) {
                spend(item, true);
                compare(item);
                scores.accept(item);
                counted = counted.plus(item.status());
                countError(item);
                RunMeters.caseFinished(item.status());
                run = tally(RunStatus.RUNNING, null, null);
                Instant now = Instant.now();
                // Storing the run record after every item would double the writes of large runs; once a second
                // is enough for other readers (the page, `runs list`), and the final record is always stored.
                storeNow = Duration.between(lastStored, now).toMillis() >= 1000;
                if (storeNow) {
                    lastStored = now;
                }
                handle.update(run);
            }
            if (storeNow) {
                try {
                    writes.write(() -> store.updateRun(run));
                } catch (AssayException progressNotStored) {
                    // Only a progress snapshot: the final record is stored (or reported unstored) by end().
                }
            }
            safely(() -> listener.itemFinished(run, item));
        }

        private void countError(Item item) {
            if (item.status() == ItemStatus.ERROR && item.error() != null) {
                errorTypes.merge(item.error().type(), 1, Integer::sum);
                firstErrors.putIfAbsent(
                        item.error().type(), shortened(item.error().message()));
            }
        }

        /** An item's error message, which may quote what an endpoint answered, cut to a line's length for the run's. */
        private static String shortened(String message) {
            return message.length() <= 300 ? message : message.substring(0, 299) + "…";
        }

        /**
         * {@return why a run that judged no item measured nothing ({@code run.all_items_errored}, its detail
         * {@code error_type} the items' most frequent error type), or null when an item was judged}
         */
        synchronized Problem nothingJudged() {
            if (!counted.everyJudgedItemIsAnError() || errorTypes.isEmpty()) {
                return null;
            }
            var dominant = errorTypes.entrySet().stream()
                    .max(Map.Entry.comparingByValue())
                    .orElseThrow();
            return Problem.of(
                            "run.all_items_errored",
                            "every judged item is an error (" + counted.error() + " of "
                                    + workload.itemCount() + "), most often " + dominant.getKey() + " ("
                                    + dominant.getValue() + "): " + firstErrors.get(dominant.getKey()))
                    .withDetail("error_type", dominant.getKey())
                    .withDetail("error_type_count", dominant.getValue())
                    .withDetail("errors", counted.error());
        }

        void log(String message) {
            Run run = handle.current();
            safely(() -> listener.log(run, message));
        }

        /** Notes an item whose write failed for good; its case is to be run again when the run is resumed. */
        void lost(String itemId, Problem problem) {
            synchronized (this) {
                unstored.add(itemId);
            }
            // Past an outage's limit every item in flight is lost to it: the run's end says so once.
            if (!writes.gaveUp()) {
                log(itemId + ": not stored: " + problem.message());
            }
        }

        /**
         * {@return why the run cannot be called finished although it ran every case: an item could not be stored, or
         * the database holds another number of items than the run counted (items deleted meanwhile), or null}
         */
        Problem missingItems() throws InterruptedException {
            int countedItems;
            List<String> lostCases;
            synchronized (this) {
                countedItems = counted.completed();
                lostCases = List.copyOf(unstored);
            }
            int stored = writes.call(() -> store.countItems(handle.runId()));
            if (stored == countedItems && lostCases.isEmpty()) {
                return null;
            }
            return Problem.of(
                            "store.items_missing",
                            "the run counted " + countedItems + " stored items, the database "
                                    + "holds " + stored + " and " + lostCases.size()
                                    + " could not be stored; the run can be "
                                    + "resumed")
                    .withDetail("counted", countedItems)
                    .withDetail("stored", stored)
                    .withDetail("unstored", lostCases);
        }

        Run end(RunStatus status, Problem error) {
            Run tallied;
            synchronized (this) {
                tallied = tally(status, CaseRunner.now(), error);
            }
            // With the database away there is nothing to compute the run's metrics from.
            Run run = writes.gaveUp() ? tallied : concluded(tallied);
            writes.allowLastWrite();
            try {
                writes.write(() -> store.updateRun(run));
            } catch (InterruptedException | AssayException e) {
                if (e instanceof AssayException failure
                        && !failure.problem().type().equals("store.outage")) {
                    throw failure;
                }
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                // The items are stored but not the end: the database still says "running". The caller learns it
                // from the record it gets, which is interrupted whatever the run's own outcome was.
                Problem outage = writes.outageProblem();
                Run unstored;
                synchronized (this) {
                    unstored = tally(
                            RunStatus.INTERRUPTED,
                            run.finishedAt(),
                            new Problem(
                                            outage.type(),
                                            outage.message() + "; its end could not be stored either, so the "
                                                    + "database lists it as running until the next assay command "
                                                    + "on this host, or after a minute of silence any other, ends it",
                                            outage.details())
                                    .withDetail("end_stored", false));
                }
                handle.update(unstored);
                safely(() -> observation.runEnded(unstored));
                safely(() -> listener.runFinished(unstored));
                return unstored;
            }
            handle.update(run);
            safely(() -> observation.runEnded(run));
            safely(() -> listener.runFinished(run));
            return run;
        }

        private Run concluded(Run tallied) {
            try {
                return MetricRegistry.withMetrics(workload.conclude(tallied, store), workload, store);
            } catch (RuntimeException e) {
                Problem problem = e instanceof AssayException assay
                        ? assay.problem()
                        : Problem.of("run.internal_error", "the run's metrics could not be computed: " + e);
                log(problem.message());
                return tallied.withProgress(
                        RunStatus.FAILED,
                        tallied.dimensionScores(),
                        tallied.totalScore(),
                        tallied.counts(),
                        tallied.finishedAt(),
                        tallied.elapsedS(),
                        tallied.error() != null ? tallied.error() : problem);
            }
        }

        private Run tally(RunStatus status, Instant finishedAt, Problem error) {
            Scores current = scores.result();
            Counts counts = counted.withTotal(workload.itemCount());
            Run run = handle.current();
            Instant end = finishedAt != null ? finishedAt : Instant.now();
            double elapsed = Duration.between(run.startedAt(), end).toMillis() / 1000.0;
            return run.withProgress(
                    status, current.dimensionScores(), current.total(), counts, finishedAt, elapsed, error);
        }
    }
}
