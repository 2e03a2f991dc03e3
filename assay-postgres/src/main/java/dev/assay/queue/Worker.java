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
import dev.assay.cases.SuiteChanges;
import dev.assay.check.CheckerRegistry;
import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.run.CaseWorkload;
import dev.assay.run.Engine;
import dev.assay.run.RunPlan;
import dev.assay.run.RunRequest;
import dev.assay.run.StoredCases;
import dev.assay.run.Workload;
import dev.assay.store.Store;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A worker: takes queued cases ({@link CaseQueue}) from the database and runs up to {@code concurrency} of them at
 * once, through db-scheduler, which polls with {@code SELECT ... FOR UPDATE SKIP LOCKED}, keeps a heartbeat on each
 * case it runs, and hands the case of a worker whose heartbeat lapsed to another worker. A case runs as the engine runs
 * it ({@link Engine#runItem}), from the run's stored description, rebuilt once per run as {@code --resume} does, and
 * only while its worker holds one of the endpoint's slots ({@link EndpointSlots}). A case of a run that is no longer
 * running (cancelled, ended) is dropped. Thread-safe.
 */
public final class Worker implements AutoCloseable {
    /** How long a case that could not start (its run could not be rebuilt here) waits before any worker tries again. */
    private static final Duration RETRY = Duration.ofSeconds(10);

    /** The fewest missed heartbeats db-scheduler accepts before it takes a case for dead. */
    public static final int MIN_MISSED_HEARTBEATS = 4;

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
    private record Loaded(RunRequest.Prepared prepared, CaseWorkload workload, String endpoint) {}

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
        // One connection per slot held (a case holds one while it runs), and a few for db-scheduler's polls,
        // heartbeats and completions.
        this.dataSource = CaseQueue.connect(jdbcUrl, settings.concurrency() + 4, "assay-worker");
        this.slots = new EndpointSlots(dataSource);
        OneTimeTask<Void> task = Tasks.oneTime(CaseQueue.TASK)
                .onFailure(new FailureHandler.OnFailureRetryLater<>(RETRY))
                .onDeadExecutionRevive()
                .execute((instance, context) -> execute(instance));
        this.scheduler = Scheduler.create(dataSource, task)
                .schedulerName(new SchedulerName.Fixed(new SchedulerName.Hostname().getName() + "-"
                        + ProcessHandle.current().pid()))
                .threads(settings.concurrency())
                .pollingInterval(settings.pollingInterval())
                .heartbeatInterval(settings.heartbeat())
                .missedHeartbeatsLimit(settings.missedHeartbeats())
                .pollUsingLockAndFetch(0.5, 1.0)
                .shutdownMaxWait(settings.shutdownWait())
                .build();
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
        synchronized (runs) {
            runs.values().forEach(loaded -> loaded.prepared().close());
            runs.clear();
        }
        dataSource.close();
    }

    private void execute(TaskInstance<Void> instance) {
        releaseEndedRuns();
        QueuedCase queued = QueuedCase.parse(instance.getId());
        Optional<Run> run = store.findRun(queued.runId());
        if (run.isEmpty() || run.get().status() != RunStatus.RUNNING) {
            // Cancelled, ended or deleted: its remaining cases are dropped with the task.
            forget(queued.runId());
            return;
        }
        try {
            Loaded loaded = loaded(run.get());
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
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + queued.instanceId(), e);
        } catch (AssayException e) {
            log.accept("cannot run " + queued.instanceId() + " here, retrying in " + RETRY.toSeconds() + " s: "
                    + e.problem().message() + " (" + e.problem().type() + ")");
            throw e;
        }
    }

    /** {@return the run as rebuilt from its stored description, once per run} */
    private Loaded loaded(Run run) throws InterruptedException {
        synchronized (runs) {
            Loaded loaded = runs.get(run.runId());
            if (loaded == null) {
                RunRequest.Prepared prepared = RunRequest.fromSnapshot(run)
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
        String baseUrl = plan.config().snapshot().path("model").path("base_url").asText("");
        return baseUrl.isEmpty() ? plan.target().name() : EndpointUrl.hostAndPort(baseUrl);
    }
}
