package dev.assay.queue;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.cost.Budget;
import dev.assay.store.Stores;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The queue of cases in a PostgreSQL database, kept by db-scheduler in its table {@code scheduled_tasks} (created by
 * Assay's Flyway migrations): one one-time task {@value #TASK} per case, which any {@link Worker} using the database
 * may take. Thread-safe; close it to release its connections.
 */
public final class CaseQueue implements AutoCloseable {
    /** The db-scheduler task name of a queued case; stored in the database, so never renamed. */
    public static final String TASK = "assay-case";

    /** What a run's workers spent on it together: the cost in US dollars, then the tokens. */
    static final String SPENT =
            "SELECT coalesce(sum(cost_usd), 0), coalesce(sum(tokens), 0) FROM queue_workers WHERE run_id = ?";

    /** How many cases one insert statement queues. */
    private static final int BATCH = 500;

    private final HikariDataSource dataSource;
    private final SchedulerClient client;

    private CaseQueue(HikariDataSource dataSource) {
        this.dataSource = dataSource;
        this.client =
                SchedulerClient.Builder.create(dataSource, List.of(task())).build();
    }

    /**
     * Opens the queue in the database a run is stored in. The store must have been opened on the URL before, so that
     * the queue's table exists.
     *
     * @throws AssayException {@code queue.needs_postgres} for any database but PostgreSQL, {@code store.unavailable}
     *     when it cannot be reached
     */
    public static CaseQueue open(String jdbcUrl) {
        return new CaseQueue(connect(jdbcUrl, 2, "assay-queue"));
    }

    /**
     * Puts cases of a run on the queue, in batches, due now; a case already waiting stays as it is.
     *
     * @param runId the run, stored and running
     * @param seqs the positions of its items to run
     */
    public void enqueue(String runId, List<Integer> seqs) {
        OneTimeTask<Void> task = task();
        for (int from = 0; from < seqs.size(); from += BATCH) {
            List<TaskInstance<?>> batch = seqs.subList(from, Math.min(seqs.size(), from + BATCH)).stream()
                    .<TaskInstance<?>>map(seq -> task.instance(new QueuedCase(runId, seq).instanceId()))
                    .toList();
            client.scheduleBatch(batch, Instant.now());
        }
    }

    /**
     * {@return the workers that ran cases of the run and how many each, by worker name ({@code host-pid}); empty for a
     * run that was not queued} A worker adds to its count in the commit that stores its items.
     *
     * @throws AssayException {@code store.unavailable} when the database cannot be read
     */
    public Map<String, Integer> workersOf(String runId) {
        try (Connection connection = dataSource.getConnection();
                var select = connection.prepareStatement(
                        "SELECT worker, cases FROM queue_workers WHERE run_id = ? ORDER BY worker")) {
            select.setString(1, runId);
            var workers = new LinkedHashMap<String, Integer>();
            try (var result = select.executeQuery()) {
                while (result.next()) {
                    workers.put(result.getString(1), result.getInt(2));
                }
            }
            return workers;
        } catch (SQLException e) {
            throw new AssayException(Problem.of(
                    "store.unavailable", "the queue's workers cannot be read in the database: " + e.getMessage()));
        }
    }

    /**
     * {@return how many of the run's cases are on the queue, waiting or running}: none once every case is stored or was
     * taken off (its run ended, or reached a limit)
     *
     * @throws AssayException {@code store.unavailable} when the database cannot be read
     */
    public int casesOnQueue(String runId) {
        try (Connection connection = dataSource.getConnection();
                var count = connection.prepareStatement(
                        "SELECT count(*) FROM scheduled_tasks WHERE task_name = ? AND task_instance LIKE ?")) {
            count.setString(1, TASK);
            count.setString(2, QueuedCase.pattern(runId));
            try (var result = count.executeQuery()) {
                return result.next() ? result.getInt(1) : 0;
            }
        } catch (SQLException e) {
            throw new AssayException(
                    Problem.of("store.unavailable", "the queue cannot be read in the database: " + e.getMessage()));
        }
    }

    /**
     * {@return why the run's workers stopped taking its cases ({@code run.budget_exhausted}), or empty}: what they
     * spent on it together, as each stored its items, against the run's limits
     *
     * @throws AssayException {@code store.unavailable} when the database cannot be read
     */
    public Optional<Problem> exhausted(String runId, Budget budget) {
        try (Connection connection = dataSource.getConnection();
                var sum = connection.prepareStatement(SPENT)) {
            sum.setString(1, runId);
            try (var result = sum.executeQuery()) {
                return result.next() ? budget.exhausted(result.getDouble(1), result.getLong(2)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new AssayException(Problem.of(
                    "store.unavailable", "the run's spend cannot be read in the database: " + e.getMessage()));
        }
    }

    @Override
    public void close() {
        dataSource.close();
    }

    /**
     * {@return the task's definition}: the queue only names it; what it does is the {@link Worker}'s, which registers a
     * task of the same name with a handler
     */
    private static OneTimeTask<Void> task() {
        return Tasks.oneTime(TASK).execute((instance, context) -> {
            throw new IllegalStateException("cases are run by workers, not by the queue");
        });
    }

    /**
     * {@return a connection pool to a PostgreSQL database}
     *
     * @throws AssayException {@code queue.needs_postgres} for another URL, {@code store.unavailable} when unreachable
     */
    static HikariDataSource connect(String jdbcUrl, int poolSize, String poolName) {
        if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:postgresql://")) {
            throw new AssayException(new Problem(
                    "queue.needs_postgres",
                    "a queue needs a PostgreSQL database (jdbc:postgresql://...), which workers on other machines "
                            + "can reach; " + (jdbcUrl == null ? "none" : Stores.redact(jdbcUrl)) + " is not one",
                    Map.of()));
        }
        var config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(1);
        config.setConnectionTimeout(5_000);
        config.setPoolName(poolName);
        try {
            return new HikariDataSource(config);
        } catch (RuntimeException e) {
            // The cause is not chained: pgjdbc echoes parts of the URL, passwords included.
            throw new AssayException(new Problem(
                    "store.unavailable",
                    "cannot connect to the database at " + Stores.redact(jdbcUrl),
                    Map.of("url", Stores.redact(jdbcUrl))));
        }
    }
}
