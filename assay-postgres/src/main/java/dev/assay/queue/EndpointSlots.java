package dev.assay.queue;

import dev.assay.AssayException;
import dev.assay.Problem;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;

/**
 * The per-endpoint concurrency limit, shared by every worker on the database: an endpoint with limit {@code n} has
 * {@code n} slots, each a PostgreSQL session-level advisory lock, and a case runs only while its worker holds one.
 * PostgreSQL releases a lock when the session holding it ends, so a worker that dies (kill -9, a lost node) frees its
 * slots with its connections; nothing needs cleaning up. Runs with different limits on one endpoint share its slots
 * from 0 up, so the endpoint gets at most the largest of their limits at once. Thread-safe.
 */
final class EndpointSlots {
    /** How long a worker waits, on average, before it tries again for a slot when all are taken. */
    private static final Duration RETRY = Duration.ofMillis(100);

    private final DataSource dataSource;

    /** @param dataSource connections to hold the slots with: one per slot held, so as many as cases at once */
    EndpointSlots(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** A slot held; closing it frees it. */
    static final class Slot implements AutoCloseable {
        private final Connection connection;
        private final String key;

        private Slot(Connection connection, String key) {
            this.connection = connection;
            this.key = key;
        }

        @Override
        public void close() {
            try (connection;
                    var unlock = connection.prepareStatement("SELECT pg_advisory_unlock(hashtextextended(?, 0))")) {
                // A pooled connection outlives the case: the lock must go before the connection returns to the pool.
                unlock.setString(1, key);
                unlock.execute();
            } catch (SQLException e) {
                // The connection broke: its session ended, and with it the lock.
            }
        }
    }

    /**
     * Waits for a free slot of the endpoint and takes it.
     *
     * @param endpoint the endpoint's name ({@code host:port})
     * @param limit its slots, >= 1
     * @param stop whether to stop waiting
     * @return the slot, or null when {@code stop} said so first
     * @throws AssayException {@code store.unavailable} when the database cannot be reached
     */
    Slot acquire(String endpoint, int limit, BooleanSupplier stop) throws InterruptedException {
        int first = ThreadLocalRandom.current().nextInt(limit);
        while (!stop.getAsBoolean()) {
            Connection connection = connection();
            try (var tryLock = connection.prepareStatement("SELECT pg_try_advisory_lock(hashtextextended(?, 0))")) {
                // Starting at a random slot spreads workers over the slots instead of all contending for slot 0.
                for (int i = 0; i < limit; i++) {
                    String key = "assay-endpoint:" + endpoint + "#" + (first + i) % limit;
                    tryLock.setString(1, key);
                    try (var result = tryLock.executeQuery()) {
                        if (result.next() && result.getBoolean(1)) {
                            return new Slot(connection, key);
                        }
                    }
                }
            } catch (SQLException e) {
                close(connection);
                throw unavailable(e);
            }
            close(connection);
            Thread.sleep(RETRY.toMillis() / 2 + ThreadLocalRandom.current().nextLong(RETRY.toMillis()));
        }
        return null;
    }

    private Connection connection() {
        try {
            return dataSource.getConnection();
        } catch (SQLException e) {
            throw unavailable(e);
        }
    }

    private static void close(Connection connection) {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // Returned to the pool or gone; either way nothing is held.
        }
    }

    private static AssayException unavailable(SQLException e) {
        return new AssayException(Problem.of(
                "store.unavailable", "the endpoint slots cannot be reached in the database: " + e.getMessage()));
    }
}
