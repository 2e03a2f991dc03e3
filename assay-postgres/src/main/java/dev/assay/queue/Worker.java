package dev.assay.queue;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.CustomTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariDataSource;
import dev.assay.AssayException;
import dev.assay.EndpointUrl;
import dev.assay.Problem;
import dev.assay.cases.SuiteChanges;
import dev.assay.check.CheckerRegistry;
import dev.assay.cost.Budget;
import dev.assay.cost.CostTally;
import dev.assay.cost.ItemCost;
import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.run.CaseWorkload;
import dev.assay.run.Engine;
import dev.assay.run.EvalSpec;
import dev.assay.run.ItemWriter;
import dev.assay.run.Prepared;
import dev.assay.run.RunPlan;
import dev.assay.run.StoredCases;
import dev.assay.run.Workload;
import dev.assay.store.Store;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A worker: takes queued cases ({@link CaseQueue}) from the database and runs up to {@code concurrency} of them at
 * once, through db-scheduler, which polls with {@code SELECT ... FOR UPDATE SKIP LOCKED}, keeps a heartbeat on each
 * case it runs, and hands the case of a worker whose heartbeat lapsed to another worker. A case runs as the engine runs
 * it ({@link Engine#runItem}), from the run's stored description, rebuilt once per run as {@code --resume} does, and
 * only while its worker holds one of the endpoint's slots ({@link EndpointSlots}). A case of a run that is no longer
 * running (cancelled, ended) is dropped, and so is one of a run that reached a limit on its cost or tokens, which the
 * workers keep together (what each spent is added to {@code queue_workers} as it stores items). db-scheduler claims due
 * cases in batches (lock-and-fetch: one {@code UPDATE ... FOR UPDATE SKIP LOCKED} takes up to as many as the worker has
 * threads); the items of a run that end together are stored in one commit, which also takes their cases off the queue
 * and adds them to the run's tally ({@link Engine#itemWriter}); the slots are claimed and freed in batches too, and a
 * run's status and spend are read at most once per {@link #STATUS_CHECK}, not per case. Every report period
 * ({@link Settings#report}) the worker logs one line: cases done, their rate, cases in flight and cases waiting on the
 * queue ({@link WorkerMeters}). Thread-safe.
 */
public final class Worker implements AutoCloseable {
    /** How long a case that could not start (its run could not be rebuilt here) waits before any worker tries again. */
    private static final Duration RETRY = Duration.ofSeconds(10);

    /** The fewest missed heartbeats db-scheduler accepts before it takes a case for dead. */
    public static final int MIN_MISSED_HEARTBEATS = 4;

    /** How long slots no case of this worker used stay held before they are freed, in one statement. */
    private static final Duration FLUSH = Duration.ofMillis(100);

    /** How long a run read as running is taken to be running before its status is read again. */
    private static final Duration STATUS_CHECK = Duration.ofSeconds(1);

    /**
     * How a worker works.
     *
     * @param concurrency cases at once, >= 1
     * @param heartbeat how often it tells the database, for each case it runs, that it is alive (db-scheduler's
     *     heartbeat); default 10 s
     * @param missedHeartbeats how many heartbeats a case may miss before another worker takes it over, >=
     *     {@value #MIN_MISSED_HEARTBEATS} (db-scheduler's floor); default 6
     * @param pollingInterval how often it asks the database for due cases while it has free threads; default 1 s
     * @param shutdownWait how long closing waits for the cases it runs; the cases still running then are taken over by
     *     other workers once their heartbeats lapse; default 60 s
     * @param report how often it logs its throughput ({@code worker: N cases done, R/s, K in flight, W waiting}) and
     *     reads the queue's depth; default 10 s
     */
    public record Settings(
            int concurrency,
            Duration heartbeat,
            int missedHeartbeats,
            Duration pollingInterval,
            Duration shutdownWait,
            Duration report) {
        public Settings {
            if (concurrency < 1) {
                throw new IllegalArgumentException("concurrency must be >= 1");
            }
            if (missedHeartbeats < MIN_MISSED_HEARTBEATS) {
                throw new IllegalArgumentException("missedHeartbeats must be >= " + MIN_MISSED_HEARTBEATS);
            }
            for (Duration duration : new Duration[] {heartbeat, pollingInterval, shutdownWait, report}) {
                if (duration.isNegative() || duration.isZero()) {
                    throw new IllegalArgumentException(
                            "heartbeat, polling interval, shutdown wait and report period must be positive");
                }
            }
        }

        /** {@return the defaults, with {@code concurrency} cases at once} */
        public static Settings defaults(int concurrency) {
            return new Settings(
                    concurrency,
                    Duration.ofSeconds(10),
                    6,
                    Duration.ofSeconds(1),
                    Duration.ofSeconds(60),
                    Duration.ofSeconds(10));
        }

        /** {@return a copy with another heartbeat interval} */
        public Settings withHeartbeat(Duration interval) {
            return new Settings(concurrency, interval, missedHeartbeats, pollingInterval, shutdownWait, report);
        }

        /** {@return a copy with another limit of missed heartbeats} */
        public Settings withMissedHeartbeats(int limit) {
            return new Settings(concurrency, heartbeat, limit, pollingInterval, shutdownWait, report);
        }

        /** {@return a copy that logs its throughput every {@code period}} */
        public Settings withReport(Duration period) {
            return new Settings(concurrency, heartbeat, missedHeartbeats, pollingInterval, shutdownWait, period);
        }
    }

    /**
     * A run as this worker runs its cases: what preparing it holds (MCP servers, HTTP clients), its endpoint, how its
     * items are stored (grouped, {@link ItemWriter}) and priced, and its limits with what the run spent, across every
     * worker, when last read.
     */
    private static final class Loaded {
        final Prepared prepared;
        final CaseWorkload workload;
        final String endpoint;
        final CostTally prices;
        ItemWriter writer;
        volatile Budget budget;
        volatile Spent spent = Spent.NONE;
        /** Whether this worker took the run's cases off the queue because it reached a limit. */
        volatile boolean stopped;

        Loaded(Prepared prepared, CaseWorkload workload, String endpoint, Run run) {
            this.prepared = prepared;
            this.workload = workload;
            this.endpoint = endpoint;
            EvalSpec spec = EvalSpec.of(run);
            this.prices = new CostTally(
                    run.modelName(), spec.limits().prices(), spec.limits().samples());
            this.budget = spec.limits().budget();
        }

        Optional<Problem> exhausted() {
            return budget.exhausted(spent.usd(), spent.tokens());
        }
    }

    /** What a run's workers spent on it together, the sums of {@code queue_workers}. */
    private record Spent(double usd, long tokens) {
        static final Spent NONE = new Spent(0, 0);
    }

    private final Store store;
    private final CheckerRegistry checkers;
    private final Engine engine;
    private final Path workspaceRoot;
    private final Function<String, String> env;
    private final Consumer<String> log;
    private final HikariDataSource dataSource;
    private final EndpointSlots slots;
    /** How often cached runs are checked for having ended. */
    private static final Duration SWEEP = Duration.ofMinutes(1);

    private final Map<String, Loaded> runs = new HashMap<>();
    /** When each run was last read as running, in {@link System#nanoTime()}. */
    private final Map<String, Long> runningAt = new ConcurrentHashMap<>();

    private final ScheduledExecutorService chores;
    /** This worker's name in the database: its host and process id. */
    private final String name;

    private Instant lastSweep = Instant.EPOCH;
    private final Scheduler scheduler;
    private volatile boolean stopping;

    private Worker(
            String jdbcUrl,
            Store store,
            CheckerRegistry checkers,
            Path workspaceRoot,
            Function<String, String> env,
            Settings settings,
            Consumer<String> log) {
        this.store = store;
        this.checkers = checkers;
        this.engine = new Engine(store);
        this.workspaceRoot = workspaceRoot;
        this.env = env;
        this.log = log;
        // Statements only, none held across a call: db-scheduler's polls, heartbeats and completions, the slots' claims
        // and frees.
        this.dataSource = CaseQueue.connect(jdbcUrl, Math.min(settings.concurrency(), 8) + 4, "assay-worker");
        this.name = new SchedulerName.Hostname().getName() + "-"
                + ProcessHandle.current().pid();
        this.slots = new EndpointSlots(
                dataSource,
                name + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong()),
                settings.heartbeat().multipliedBy(settings.missedHeartbeats()));
        CustomTask<Void> task = Tasks.custom(CaseQueue.TASK, Void.class)
                .onFailure(new FailureHandler.OnFailureRetryLater<>(RETRY))
                .onDeadExecutionRevive()
                .execute((instance, context) -> execute(instance));
        this.scheduler = Scheduler.create(dataSource, task)
                .schedulerName(new SchedulerName.Fixed(name))
                .threads(settings.concurrency())
                .pollingInterval(settings.pollingInterval())
                .heartbeatInterval(settings.heartbeat())
                .missedHeartbeatsLimit(settings.missedHeartbeats())
                .pollUsingLockAndFetch(0.5, 1.0)
                .shutdownMaxWait(settings.shutdownWait())
                .build();
        this.chores = Executors.newSingleThreadScheduledExecutor(
                Thread.ofVirtual().name("assay-worker-chores").factory());
        long started = System.nanoTime();
        chore(FLUSH, () -> slots.flush(FLUSH));
        chore(settings.heartbeat(), slots::renew);
        var last = new long[] {started, 0};
        // The first report at once: the queue's depth is in /metrics from the start.
        chore(Duration.ZERO, settings.report(), () -> {
            WorkerMeters.waiting(waitingCases());
            long now = System.nanoTime();
            long done = WorkerMeters.finished();
            double rate = (done - last[1]) * 1e9 / Math.max(1, now - last[0]);
            last[0] = now;
            last[1] = done;
            log.accept(String.format(
                    Locale.ROOT,
                    "worker: %d cases done, %.1f/s, %d in flight, %d waiting",
                    done,
                    rate,
                    WorkerMeters.running(),
                    WorkerMeters.waiting()));
        });
    }

    /** Runs {@code chore} every {@code period}; a failure (the database away) is logged and tried at the next one. */
    private void chore(Duration period, Runnable chore) {
        chore(period, period, chore);
    }

    private void chore(Duration first, Duration period, Runnable chore) {
        // The schedule's future has nothing to report: failures are logged here.
        var unused = chores.scheduleWithFixedDelay(
                () -> {
                    try {
                        chore.run();
                    } catch (AssayException e) {
                        log.accept("worker: " + e.problem().message() + " ("
                                + e.problem().type() + ")");
                    }
                },
                first.toMillis(),
                period.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** {@return the cases on the queue no worker has taken yet} */
    private long waitingCases() {
        try (Connection connection = dataSource.getConnection();
                var count = connection.prepareStatement(
                        "SELECT count(*) FROM scheduled_tasks WHERE task_name = ? AND NOT picked")) {
            count.setString(1, CaseQueue.TASK);
            try (var result = count.executeQuery()) {
                return result.next() ? result.getLong(1) : 0;
            }
        } catch (SQLException e) {
            throw new AssayException(
                    Problem.of("store.unavailable", "the queue cannot be read in the database: " + e.getMessage()));
        }
    }

    /**
     * Starts a worker on the database the store is in; it runs until closed.
     *
     * @param jdbcUrl the PostgreSQL database of the store and the queue
     * @param store the store, opened on {@code jdbcUrl} (which migrated its schema, the queue's table included)
     * @param checkers the checkers cases may name
     * @param workspaceRoot where case workspaces are made on this machine
     * @param env where API keys are read, by the variable names the runs' descriptions give
     * @param log receives a line per case started and ended, and per failure
     * @throws AssayException {@code queue.needs_postgres}, {@code store.unavailable}
     */
    public static Worker start(
            String jdbcUrl,
            Store store,
            CheckerRegistry checkers,
            Path workspaceRoot,
            Function<String, String> env,
            Settings settings,
            Consumer<String> log) {
        var worker = new Worker(jdbcUrl, store, checkers, workspaceRoot, env, settings, log);
        worker.scheduler.start();
        return worker;
    }

    /** Stops taking cases, waits for the running ones up to the shutdown wait, and releases what runs held. */
    @Override
    public void close() {
        stopping = true;
        scheduler.stop();
        chores.shutdownNow();
        try {
            slots.releaseAll();
        } catch (AssayException e) {
            // Their lease lapses instead.
            log.accept("worker: " + e.problem().message() + " (" + e.problem().type() + ")");
        }
        synchronized (runs) {
            runs.values().forEach(loaded -> loaded.prepared.close());
            runs.clear();
        }
        dataSource.close();
    }

    /**
     * {@return what db-scheduler does with the case's row once it ran: nothing, since the commit that stored its item
     * removed it ({@link #admit}); a case not run (its run ended, or reached a limit) is removed here}
     */
    private CompletionHandler<Void> execute(TaskInstance<Void> instance) {
        releaseEndedRuns();
        QueuedCase queued = QueuedCase.parse(instance.getId());
        Long readAt = runningAt.get(queued.runId());
        Loaded cached;
        synchronized (runs) {
            cached = runs.get(queued.runId());
        }
        Run run = null;
        // One case reads a stale status again, the others meanwhile take the run as running: all of a worker's threads
        // reading it at once made a read per case under load.
        boolean stale = readAt != null
                && System.nanoTime() - readAt > STATUS_CHECK.toNanos()
                && runningAt.replace(queued.runId(), readAt, System.nanoTime());
        if (cached == null || readAt == null || stale) {
            Optional<Run> found = store.findRun(queued.runId());
            if (found.isEmpty() || found.get().status() != RunStatus.RUNNING) {
                // Cancelled, ended or deleted: its remaining cases are dropped with the task.
                forget(queued.runId());
                return REMOVE;
            }
            run = found.get();
            runningAt.put(queued.runId(), System.nanoTime());
        }
        WorkerMeters.caseStarted();
        try {
            Loaded loaded = run == null ? cached : loaded(run);
            if (run != null) {
                // A resumed run may have been given higher limits; what the other workers spent is read with them.
                loaded.budget = EvalSpec.of(run).limits().budget();
                loaded.spent = spent(queued.runId());
            }
            Optional<Problem> exhausted = loaded.exhausted();
            if (exhausted.isPresent()) {
                stop(queued.runId(), loaded, exhausted.get());
                return REMOVE;
            }
            loaded.stopped = false;
            try (var slot = slots.acquire(loaded.endpoint, loaded.workload.concurrency(), () -> stopping)) {
                if (slot == null) {
                    throw new IllegalStateException("the worker is stopping; " + queued.instanceId() + " runs later");
                }
                Workload.WorkItem work = loaded.workload.item(queued.seq());
                String itemId = work.id();
                log.accept("started " + queued.instanceId() + " " + itemId);
                Item item = engine.runItem(
                        loaded.workload,
                        work,
                        loaded.writer,
                        () -> stopping,
                        line -> log.accept(queued.runId() + " " + line));
                log.accept("finished " + queued.instanceId() + " " + itemId + " "
                        + item.status().wireName());
                WorkerMeters.caseFinished(item.status());
                return (complete, operations) -> {};
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + queued.instanceId(), e);
        } catch (AssayException e) {
            log.accept("cannot run " + queued.instanceId() + " here, retrying in " + RETRY.toSeconds() + " s: "
                    + e.problem().message() + " (" + e.problem().type() + ")");
            throw e;
        } finally {
            WorkerMeters.caseEnded();
        }
    }

    /** Removes the row of a case that is not run. */
    private static final CompletionHandler<Void> REMOVE = (complete, operations) -> operations.remove();

    /**
     * Takes the cases of a run that reached a limit off the queue, in one statement, those no worker took yet; the
     * others are dropped one by one as their workers find the run at its limit. The process following the run learns
     * from the emptied queue that they will not run, and ends the run {@code interrupted}; resuming it queues them
     * again.
     */
    private void stop(String runId, Loaded loaded, Problem why) {
        if (!loaded.stopped) {
            loaded.stopped = true;
            log.accept(runId + " stopping: " + why.message() + "; its waiting cases are taken off the queue");
        }
        try (Connection connection = dataSource.getConnection();
                var drop = connection.prepareStatement(
                        "DELETE FROM scheduled_tasks WHERE task_name = ? AND NOT picked AND task_instance LIKE ?")) {
            drop.setString(1, CaseQueue.TASK);
            drop.setString(2, QueuedCase.pattern(runId));
            drop.executeUpdate();
        } catch (SQLException e) {
            throw new AssayException(
                    Problem.of("store.unavailable", "the queue cannot be written in the database: " + e.getMessage()));
        }
    }

    /** {@return what every worker spent on the run so far} */
    private Spent spent(String runId) {
        try (Connection connection = dataSource.getConnection();
                var sum = connection.prepareStatement(CaseQueue.SPENT)) {
            sum.setString(1, runId);
            try (var result = sum.executeQuery()) {
                return spent(result);
            }
        } catch (SQLException e) {
            throw new AssayException(Problem.of(
                    "store.unavailable", "the run's spend cannot be read in the database: " + e.getMessage()));
        }
    }

    private static Spent spent(ResultSet result) throws SQLException {
        return result.next() ? new Spent(result.getDouble(1), result.getLong(2)) : Spent.NONE;
    }

    /**
     * {@return whether to store the items} Runs in the transaction that stores a group of a run's items: the run must
     * still be running (read under a share lock, so that the process following it cannot end it in between, which would
     * leave its counts one item short); the items' cases leave the queue in the same commit, so that a case is either
     * stored and gone or neither, whoever dies when; and their count, cost and tokens are added to this worker's row of
     * the run, whose sum over every worker is then read as what the run spent.
     */
    private boolean admit(String runId, Loaded loaded, Store.Statements statements, List<Item> items)
            throws SQLException {
        PreparedStatement status = statements.prepared("SELECT status FROM evaluation_runs WHERE run_id = ? FOR SHARE");
        status.setString(1, runId);
        boolean running;
        try (var result = status.executeQuery()) {
            running = result.next() && RunStatus.RUNNING.wireName().equals(result.getString(1));
        }
        // Done either way: an item of a run that ended is not stored, and its case is not run again.
        PreparedStatement done =
                statements.prepared("DELETE FROM scheduled_tasks WHERE task_name = ? AND task_instance = ANY(?)");
        done.setString(1, CaseQueue.TASK);
        done.setArray(
                2,
                done.getConnection()
                        .createArrayOf(
                                "text",
                                items.stream()
                                        .map(item -> new QueuedCase(runId, item.seq()).instanceId())
                                        .toArray()));
        done.executeUpdate();
        if (!running) {
            return false;
        }
        double usd = 0;
        long tokens = 0;
        for (Item item : items) {
            ItemCost cost = loaded.prices.costOf(item);
            usd += cost.totalUsd();
            tokens += cost.totalUsage().totalTokens();
        }
        PreparedStatement add =
                statements.prepared("INSERT INTO queue_workers (run_id, worker, cases, cost_usd, tokens)"
                        + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (run_id, worker) DO UPDATE SET"
                        + " cases = queue_workers.cases + EXCLUDED.cases,"
                        + " cost_usd = queue_workers.cost_usd + EXCLUDED.cost_usd,"
                        + " tokens = queue_workers.tokens + EXCLUDED.tokens");
        add.setString(1, runId);
        add.setString(2, name);
        add.setInt(3, items.size());
        add.setDouble(4, usd);
        add.setLong(5, tokens);
        add.executeUpdate();
        PreparedStatement sum = statements.prepared(CaseQueue.SPENT);
        sum.setString(1, runId);
        try (var result = sum.executeQuery()) {
            loaded.spent = spent(result);
        }
        return true;
    }

    /** {@return the run as rebuilt from its stored description, once per run} */
    private Loaded loaded(Run run) throws InterruptedException {
        synchronized (runs) {
            Loaded loaded = runs.get(run.runId());
            if (loaded == null) {
                Prepared prepared = EvalSpec.toResume(run)
                        .prepare(
                                run.runId(),
                                workspaceRoot,
                                checkers,
                                env,
                                line -> log.accept(run.runId() + " " + line));
                RunPlan plan = prepared.planOf(run);
                Optional<SuiteChanges> changed = StoredCases.changes(store, run, plan.suite());
                if (changed.isPresent()) {
                    prepared.close();
                    throw new AssayException(StoredCases.problem(
                            "queue.suite_changed",
                            run,
                            changed.get(),
                            "the suite files differ here (another version, or another machine's copy); workers need "
                                    + "the same files at the same paths"));
                }
                var made = new Loaded(prepared, new CaseWorkload(plan), endpoint(plan), run);
                made.writer = engine.itemWriter(
                        run.runId(),
                        (statements, items) -> admit(run.runId(), made, statements, items),
                        line -> log.accept(run.runId() + " " + line));
                loaded = made;
                runs.put(run.runId(), loaded);
            }
            return loaded;
        }
    }

    /** Releases, at most once per {@link #SWEEP}, what runs that have ended since their last case here hold. */
    private void releaseEndedRuns() {
        List<String> cached;
        synchronized (runs) {
            Instant now = Instant.now();
            if (runs.isEmpty() || Duration.between(lastSweep, now).compareTo(SWEEP) < 0) {
                return;
            }
            lastSweep = now;
            cached = List.copyOf(runs.keySet());
        }
        for (String runId : cached) {
            if (store.findRun(runId)
                    .map(run -> run.status() != RunStatus.RUNNING)
                    .orElse(true)) {
                forget(runId);
            }
        }
    }

    private void forget(String runId) {
        runningAt.remove(runId);
        synchronized (runs) {
            Loaded loaded = runs.remove(runId);
            if (loaded != null) {
                loaded.prepared.close();
            }
        }
    }

    /**
     * {@return the name of the endpoint the run's model is called at: {@code host:port} of its base URL, or the model's
     * name when it has none (the provider's default endpoint)}
     */
    private static String endpoint(RunPlan plan) {
        String baseUrl = plan.config().spec().subject().sut() instanceof EvalSpec.Model model
                        && model.options().baseUrl() != null
                ? model.options().baseUrl()
                : "";
        return baseUrl.isEmpty() ? plan.subject().name() : EndpointUrl.hostAndPort(baseUrl);
    }
}
