package dev.assay.queue;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariDataSource;
import dev.assay.AssayException;
import dev.assay.EndpointUrl;
import dev.assay.Problem;
import dev.assay.cases.SuiteChanges;
import dev.assay.check.CheckerRegistry;
import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.run.CaseWorkload;
import dev.assay.run.Engine;
import dev.assay.run.EvalSpec;
import dev.assay.run.Prepared;
import dev.assay.run.RunPlan;
import dev.assay.run.StoredCases;
import dev.assay.run.Workload;
import dev.assay.store.Store;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A worker: takes queued cases ({@link CaseQueue}) from the database and runs up to {@code concurrency} of them at
 * once, through db-scheduler, which polls with {@code SELECT ... FOR UPDATE SKIP LOCKED}, keeps a heartbeat on each
 * case it runs, and hands the case of a worker whose heartbeat lapsed to another worker. A case runs as the engine runs
 * it ({@link Engine#runItem}), from the run's stored description, rebuilt once per run as {@code --resume} does, and
 * only while its worker holds one of the endpoint's slots ({@link EndpointSlots}). A case of a run that is no longer
 * running (cancelled, ended) is dropped. db-scheduler claims due cases in batches (lock-and-fetch: one {@code UPDATE
 * ... FOR UPDATE SKIP LOCKED} takes up to as many as the worker has threads); the slots are claimed and freed in
 * batches too, and a run's status is read at most once per {@link #STATUS_CHECK}, not per case. Every {@link #REPORT}
 * the worker logs one line: cases done, their rate, cases in flight and cases waiting on the queue
 * ({@link WorkerMeters}). Thread-safe.
 */
public final class Worker implements AutoCloseable {
    /** How long a case that could not start (its run could not be rebuilt here) waits before any worker tries again. */
    private static final Duration RETRY = Duration.ofSeconds(10);

    /** The fewest missed heartbeats db-scheduler accepts before it takes a case for dead. */
    public static final int MIN_MISSED_HEARTBEATS = 4;

    /** How often the worker logs its throughput and reads the queue's depth. */
    static final Duration REPORT = Duration.ofSeconds(10);

    /** How long slots no case of this worker waits for stay held before they are freed, in one statement. */
    private static final Duration FLUSH = Duration.ofMillis(100);

    /** How often the cases this worker finished are added to the counts of {@code queue_workers}. */
    private static final Duration SERVED = Duration.ofSeconds(1);

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
     */
    public record Settings(
            int concurrency,
            Duration heartbeat,
            int missedHeartbeats,
            Duration pollingInterval,
            Duration shutdownWait) {
        public Settings {
            if (concurrency < 1) {
                throw new IllegalArgumentException("concurrency must be >= 1");
            }
            if (missedHeartbeats < MIN_MISSED_HEARTBEATS) {
                throw new IllegalArgumentException("missedHeartbeats must be >= " + MIN_MISSED_HEARTBEATS);
            }
            for (Duration duration : new Duration[] {heartbeat, pollingInterval, shutdownWait}) {
                if (duration.isNegative() || duration.isZero()) {
                    throw new IllegalArgumentException(
                            "heartbeat, polling interval and shutdown wait must be positive");
                }
            }
        }

        /** {@return the defaults, with {@code concurrency} cases at once} */
        public static Settings defaults(int concurrency) {
            return new Settings(concurrency, Duration.ofSeconds(10), 6, Duration.ofSeconds(1), Duration.ofSeconds(60));
        }

        /** {@return a copy with another heartbeat interval} */
        public Settings withHeartbeat(Duration interval) {
            return new Settings(concurrency, interval, missedHeartbeats, pollingInterval, shutdownWait);
        }

        /** {@return a copy with another limit of missed heartbeats} */
        public Settings withMissedHeartbeats(int limit) {
            return new Settings(concurrency, heartbeat, limit, pollingInterval, shutdownWait);
        }
    }

    /** A run as this worker runs its cases: what preparing it holds (MCP servers, HTTP clients) and its endpoint. */
    private record Loaded(Prepared prepared, CaseWorkload workload, String endpoint) {}

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
    /** The cases this worker finished per run, not yet added to {@code queue_workers}. */
    private final Map<String, AtomicInteger> served = new ConcurrentHashMap<>();

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
        OneTimeTask<Void> task = Tasks.oneTime(CaseQueue.TASK)
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
        chore(FLUSH, slots::flush);
        chore(settings.heartbeat(), slots::renew);
        chore(SERVED, this::storeServed);
        var last = new long[] {started, 0};
        // The first report at once: the queue's depth is in /metrics from the start.
        chore(Duration.ZERO, REPORT, () -> {
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

    /** Adds the cases finished since the last time to this worker's counts per run, in one statement. */
    private void storeServed() {
        var runIds = new ArrayList<String>();
        var counts = new ArrayList<Integer>();
        served.forEach((runId, count) -> {
            int cases = count.getAndSet(0);
            if (cases > 0) {
                runIds.add(runId);
                counts.add(cases);
            }
        });
        if (runIds.isEmpty()) {
            return;
        }
        try (Connection connection = dataSource.getConnection();
                var upsert = connection.prepareStatement("INSERT INTO queue_workers (run_id, worker, cases)"
                        + " SELECT r, ?, n FROM unnest(?::text[], ?::int[]) AS t(r, n)"
                        + " ON CONFLICT (run_id, worker) DO UPDATE SET cases = queue_workers.cases + EXCLUDED.cases")) {
            upsert.setString(1, name);
            upsert.setArray(2, connection.createArrayOf("text", runIds.toArray()));
            upsert.setArray(3, connection.createArrayOf("integer", counts.toArray()));
            upsert.executeUpdate();
        } catch (SQLException e) {
            // Counted again at the next try.
            for (int i = 0; i < runIds.size(); i++) {
                served.get(runIds.get(i)).addAndGet(counts.get(i));
            }
            throw new AssayException(Problem.of(
                    "store.unavailable", "the workers' counts cannot be stored in the database: " + e.getMessage()));
        }
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
            storeServed();
        } catch (AssayException e) {
            // Their lease lapses instead.
            log.accept("worker: " + e.problem().message() + " (" + e.problem().type() + ")");
        }
        synchronized (runs) {
            runs.values().forEach(loaded -> loaded.prepared().close());
            runs.clear();
        }
        dataSource.close();
    }

    private void execute(TaskInstance<Void> instance) {
        releaseEndedRuns();
        QueuedCase queued = QueuedCase.parse(instance.getId());
        Long readAt = runningAt.get(queued.runId());
        Loaded cached;
        synchronized (runs) {
            cached = runs.get(queued.runId());
        }
        Run run = null;
        if (cached == null || readAt == null || System.nanoTime() - readAt > STATUS_CHECK.toNanos()) {
            Optional<Run> found = store.findRun(queued.runId());
            if (found.isEmpty() || found.get().status() != RunStatus.RUNNING) {
                // Cancelled, ended or deleted: its remaining cases are dropped with the task.
                forget(queued.runId());
                return;
            }
            run = found.get();
            runningAt.put(queued.runId(), System.nanoTime());
        }
        WorkerMeters.caseStarted();
        try {
            Loaded loaded = run == null ? cached : loaded(run);
            try (var slot = slots.acquire(loaded.endpoint(), loaded.workload().concurrency(), () -> stopping)) {
                if (slot == null) {
                    throw new IllegalStateException("the worker is stopping; " + queued.instanceId() + " runs later");
                }
                Workload.WorkItem work = loaded.workload().item(queued.seq());
                String itemId = work.id();
                log.accept("started " + queued.instanceId() + " " + itemId);
                Item item = engine.runItem(
                        loaded.workload(),
                        work,
                        queued.runId(),
                        () -> stopping,
                        line -> log.accept(queued.runId() + " " + line));
                log.accept("finished " + queued.instanceId() + " " + itemId + " "
                        + item.status().wireName());
                WorkerMeters.caseFinished(item.status());
                served.computeIfAbsent(queued.runId(), key -> new AtomicInteger())
                        .incrementAndGet();
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
                loaded = new Loaded(prepared, new CaseWorkload(plan), endpoint(plan));
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
                loaded.prepared().close();
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
        return baseUrl.isEmpty() ? plan.target().name() : EndpointUrl.hostAndPort(baseUrl);
    }
}
