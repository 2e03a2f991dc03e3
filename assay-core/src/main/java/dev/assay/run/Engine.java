package dev.assay.run;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.cost.Budget;
import dev.assay.internal.FileNames;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.run.internal.CaseRunner;
import dev.assay.run.internal.ResumePoint;
import dev.assay.run.internal.RunAnnouncer;
import dev.assay.run.internal.RunProgress;
import dev.assay.run.internal.StartGate;
import dev.assay.run.internal.StoreWrites;
import dev.assay.run.internal.StoredResponses;
import dev.assay.store.Store;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
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
        Instant started = CaseRunner.now();
        workload.register(store, started);
        Run run = workload.newRun(runId, started);
        store.createRun(run);
        return launch(workload, run, List.of(), false, listener);
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
        ResumePoint resumed = ResumePoint.of(store, workload, retryErrors);
        store.updateRun(resumed.run());
        return launch(workload, resumed.run(), resumed.kept(), true, listener);
    }

    private RunHandle launch(Workload workload, Run run, List<Item> kept, boolean resumed, RunListener listener) {
        var handle = new RunHandle(run.runId());
        RunMeters.runStarted(run.counts().total() - kept.size());
        handle.update(run);
        RunAnnouncer announcer = RunAnnouncer.started(run, listener, observer);
        Thread.ofVirtual()
                .name("assay-run-" + run.runId())
                .start(() -> execute(workload, handle, announcer, kept, resumed));
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

    private void execute(
            Workload workload, RunHandle handle, RunAnnouncer announcer, List<Item> kept, boolean resumed) {
        var progress = new RunProgress(store, storeOutageLimit, handle, workload, announcer);
        StartGate gate = progress.gate();
        progress.keep(kept);
        Set<String> done = kept.stream().map(Item::caseId).collect(Collectors.toSet());
        RunStatus status = RunStatus.FINISHED;
        Problem error = null;
        try {
            runItems(workload, handle, progress, done, resumed);
            if (progress.writes().gaveUp()) {
                status = RunStatus.INTERRUPTED;
                error = progress.writes().outageProblem();
            } else if (gate.refused() != null) {
                status = RunStatus.FAILED;
                error = gate.refused();
            } else if (gate.budgetExhausted() != null && progress.unfinished() > 0) {
                // Stopped by a limit before every case ran: resumable with a higher limit.
                status = RunStatus.INTERRUPTED;
                error = gate.budgetExhausted();
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
            if (progress.writes().gaveUp()) {
                status = RunStatus.INTERRUPTED;
                error = progress.writes().outageProblem();
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
            announcer.runAbandoned(handle.current());
            handle.fail(storeFailure);
        } finally {
            RunMeters.runEnded(progress.unfinished());
        }
    }

    /**
     * Runs every item and returns once all of them have ended, so that the final record counts every item, those stored
     * by items interrupted by a cancellation included.
     */
    private void runItems(Workload workload, RunHandle handle, RunProgress progress, Set<String> done, boolean resumed)
            throws InterruptedException {
        // Only the items running are held, so that a run of any size keeps the memory of its concurrency.
        Map<Integer, ItemTask> running = new ConcurrentHashMap<>();
        handle.onCancel(() -> {
            progress.log("cancel requested");
            running.values().forEach(ItemTask::cancel);
        });
        // Items run on threads of their own and end, as the item executor closes, before their subjects' threads close.
        try (ExecutorService subjectThreads = Executors.newVirtualThreadPerTaskExecutor();
                ExecutorService itemThreads = Executors.newVirtualThreadPerTaskExecutor()) {
            var responses = new StoredResponses(
                    store, progress.commits(), handle.runId(), answersAcrossRuns, resumed, progress::log);
            var limit = new Semaphore(workload.concurrency());
            // A case frees its slot once it has been judged, before its item is stored, so that the next case's call
            // does not wait for its round's group commits (1 000 cases at 200 ms, c64: served span median 11.5 ->
            // 10.2 s, alternated on a loaded host; commit message). Its item then waits in memory for the store: at
            // most as many as run, so the items held stay within twice the concurrency. An item holds its permit of
            // `unstored` from its start to its store, so there are twice as many: with as many as slots, a round's
            // next cases waited for its commits after all.
            var unstored = new Semaphore((int) Math.min(Integer.MAX_VALUE, 2L * workload.concurrency()));
            int items = workload.itemCount();
            // Items start in order: the dispatcher takes a permit of each before submitting one, so at most `limit`
            // cases run, as many items wait to be stored, and nothing is queued that a cancellation would have to
            // unwind. Nothing new starts while the database is away (finished items wait in memory, at most two per
            // slot) or once the system under test refused the credentials.
            // Nor once a limit on the run's cost or tokens is reached: the cases running then finish (they are paid for
            // already, and their answers count), so a run ends at most their cost past its limit. Nor once a
            // head-to-head has decided: the run then ends finished, its cases running finished too.
            for (int seq = 0;
                    seq < items
                            && !progress.gate().closed()
                            && acquire(unstored, handle)
                            && acquire(limit, handle)
                            && !progress.gate().closed()
                            && progress.writes()
                                    .awaitAvailable(() -> handle.isCancelRequested()
                                            || progress.gate().refused() != null);
                    seq++) {
                int index = seq;
                Workload.WorkItem work = workload.item(seq);
                String itemId = work.id();
                if (done.contains(itemId)) {
                    // Resumed: this item is stored and counted already.
                    limit.release();
                    unstored.release();
                    continue;
                }
                // The prompt is let go once announced: a queued run's items all wait at once, for workers, and would
                // otherwise hold every prompt until they end.
                var prompt = new AtomicReference<>(work.prompt());
                Workload.ItemRunner runner = work.runner();
                var item = new ItemTask();
                item.task = new FutureTask<Void>(() -> {
                    boolean slotHeld = true;
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
                            RunAnnouncer.trialEnded(trial, ran);
                        }
                        item.judged();
                        progress.judged(ran);
                        limit.release();
                        slotHeld = false;
                        progress.finished(ran);
                    } catch (AssayException lost) {
                        if (lost.problem().type().equals(Budget.EXHAUSTED)) {
                            // Not started, elsewhere, because the run reached a limit (a queued run's workers keep
                            // it): the run stops as at its own limit.
                            progress.gate().budgetReached(lost.problem());
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
                        if (slotHeld) {
                            limit.release();
                        }
                        unstored.release();
                    }
                    return null;
                });
                running.put(index, item);
                itemThreads.execute(() -> {
                    try {
                        item.task.run();
                    } finally {
                        running.remove(index);
                    }
                });
            }
            if (handle.isCancelRequested()) {
                running.values().forEach(ItemTask::cancel);
            }
            // Closing the item executor waits for every item; an item cancelled before it started never runs.
        }
        try {
            progress.commits().flush();
        } catch (AssayException unkept) {
            progress.log("answers of cases that stored no item could not be kept: "
                    + unkept.problem().message());
        }
    }

    /**
     * An item's task, which a cancellation interrupts only while its case runs: once judged, the item is a finished
     * one, and it is stored and counted even though the run is cancelled while its store is under way. Thread-safe.
     */
    private static final class ItemTask {
        // Set once, before the task is published to the map of running items and to its thread.
        private FutureTask<Void> task;
        // Guarded by this.
        private boolean judged;

        synchronized void cancel() {
            if (!judged) {
                task.cancel(true);
            }
        }

        /**
         * Called by the item's own thread once its case is judged: no cancellation interrupts it from now on, and one
         * that raced the verdict came too late to stop the case, so its interrupt is cleared.
         */
        synchronized void judged() {
            judged = true;
            Thread.interrupted();
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
        return new ItemWriter(store, storeOutageLimit, runId, gate, log);
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
                    new StoredResponses(store, commits.group(), writer.runId(), answersAcrossRuns, false, itemLog);
            var context =
                    new ItemContext(writer.runId(), responses, subjectThreads, itemLog, cancelled, (step, steps) -> {});
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
}
