package dev.assay.store.internal;

import dev.assay.store.Store;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;

/**
 * The connection a store's grouped writes go through ({@link Store#saveAll}: every item and model answer of a run). On
 * a database that lets one writer in at a time (SQLite) it is held between writes with its statements prepared once:
 * borrowing a connection, preparing the statements and binding them through Jdbi for each commit cost more CPU than
 * SQLite's commit itself (bench/README.md, "Harness cost"). One write at a time uses the held connection; a write that
 * finds it in use borrows one from the pool for itself. A held connection that failed, for whatever reason, is given
 * back to the pool (which drops a broken one and closes the statements, with any rows left in a batch) and the next
 * write takes another; one that idled for longer than {@link #IDLE_CHECK_NANOS} is checked first. On other databases
 * every write borrows a connection, so concurrent runs commit side by side; PostgreSQL's driver keeps each connection's
 * prepared statements itself, and a connection held through an outage there made a run's final record miss its window
 * once the server was back (PostgresStoreOutageTest, one run in four). Thread-safe.
 */
public final class HeldWriter implements AutoCloseable {
    /** Idle time after which the held connection is checked before use: a server may have dropped it meanwhile. */
    private static final long IDLE_CHECK_NANOS = TimeUnit.SECONDS.toNanos(10);

    private static final int VALIDATION_TIMEOUT_S = 2;

    /**
     * One transaction's statements ({@link Store.Statements}, closed by the writer, not the work) and their execution.
     */
    interface Work {
        void run(Store.Statements statements) throws SQLException;
    }

    private final DataSource pool;
    private final boolean holds;
    private final ReentrantLock holding = new ReentrantLock();
    private final Map<String, PreparedStatement> prepared = new HashMap<>(); // guarded by holding
    private Connection held; // guarded by holding
    private long lastUsed; // guarded by holding
    private boolean closed; // guarded by holding

    /** @param holds whether to hold a connection between writes; else every write borrows one from the pool */
    HeldWriter(DataSource pool, boolean holds) {
        this.pool = pool;
        this.holds = holds;
    }

    /**
     * Runs the work in one transaction, committed when it returns, rolled back when it throws.
     *
     * @throws SQLException as the driver or the pool threw it
     */
    void inTransaction(Work work) throws SQLException {
        if (holds && holding.tryLock()) {
            try {
                if (!closed) {
                    inHeldTransaction(work);
                    return;
                }
            } finally {
                holding.unlock();
            }
        }
        // Giving the connection back closes its statements, as it does the held one's (release).
        try (Connection borrowed = pool.getConnection()) {
            borrowed.setAutoCommit(false);
            var statements = new HashMap<String, PreparedStatement>();
            run(borrowed, work, sql -> prepare(borrowed, statements, sql));
        }
    }

    private void inHeldTransaction(Work work) throws SQLException {
        Connection connection = held();
        try {
            run(connection, work, sql -> prepare(connection, prepared, sql));
            lastUsed = System.nanoTime();
        } catch (SQLException | RuntimeException | Error e) {
            // Whatever failed, a statement may still hold rows added to its batch and not executed, which the next
            // write would commit: the connection goes, and its statements with it.
            release(e);
            throw e;
        }
    }

    private Connection held() throws SQLException {
        if (held != null && System.nanoTime() - lastUsed > IDLE_CHECK_NANOS && !held.isValid(VALIDATION_TIMEOUT_S)) {
            release(null);
        }
        if (held == null) {
            held = pool.getConnection();
            held.setAutoCommit(false);
        }
        return held;
    }

    private static PreparedStatement prepare(Connection connection, Map<String, PreparedStatement> cache, String sql)
            throws SQLException {
        PreparedStatement statement = cache.get(sql);
        if (statement == null) {
            statement = connection.prepareStatement(sql);
            cache.put(sql, statement);
        }
        return statement;
    }

    private static void run(Connection connection, Work work, Store.Statements statements) throws SQLException {
        try {
            work.run(statements);
            connection.commit();
        } catch (SQLException | RuntimeException | Error e) {
            try {
                connection.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        }
    }

    /**
     * Gives the held connection back to the pool, which closes its statements, rolls back what is open and drops it if
     * broken.
     *
     * @param failure the failure that made it go, to which a failure to give it back is added; null when none
     */
    private void release(Throwable failure) throws SQLException {
        Connection connection = held;
        held = null;
        prepared.clear();
        try {
            connection.close();
        } catch (SQLException e) {
            if (failure == null) {
                throw e;
            }
            failure.addSuppressed(e);
        }
    }

    /** Gives the held connection back, after the write under way; later writes borrow from the pool (closed too). */
    @Override
    public void close() throws SQLException {
        holding.lock();
        try {
            closed = true;
            if (held != null) {
                release(null);
            }
        } finally {
            holding.unlock();
        }
    }
}
