package dev.assay.store.internal;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.store.StoreDialect;
import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import javax.sql.DataSource;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.jdbi.v3.core.argument.Argument;

/**
 * What the store's repositories share: Jdbi over the pool, the dialect, one transaction per call with its failure as a
 * problem, and how values become columns and back. Plain text columns cannot hold U+0000 in PostgreSQL, so both
 * dialects store it as U+FFFD; JSON columns keep it escaped. Instants are kept to the millisecond. Thread-safe.
 */
final class JdbiDatabase {
    final StoreDialect dialect;
    final Jdbi jdbi;

    JdbiDatabase(DataSource dataSource, StoreDialect dialect) {
        this.dialect = dialect;
        this.jdbi = Jdbi.create(dataSource);
    }

    /**
     * Runs the work in one transaction. A failure becomes {@code store.unavailable} when the database could not be
     * reached or was busy (worth retrying once it is back) and {@code store.failed} otherwise. The message names only
     * the driver's own sentence, never Jdbi's text, which quotes the statement and its bound values (transcripts,
     * answers).
     */
    <T> T inTransaction(HandleCallback<T, RuntimeException> work) {
        try {
            return jdbi.inTransaction(work);
        } catch (JdbiException e) {
            throw failure(e);
        }
    }

    /** {@return a failed statement or transaction as {@code store.unavailable} or {@code store.failed}} */
    AssayException failure(Exception e) {
        SQLException sql = sqlCause(e);
        boolean unavailable = sql != null && isUnavailable(sql);
        String reason = sql == null ? e.getClass().getSimpleName() : brief(sql.getMessage());
        return new AssayException(
                unavailable
                        ? Problem.of("store.unavailable", "the database is unavailable: " + reason)
                        : Problem.of("store.failed", "database operation failed: " + reason),
                e);
    }

    /**
     * {@return whether the failure means the database could not be reached or was busy, so the same statement may
     * succeed later}: JDBC's transient and connection failures (a pool that timed out among them), and what the dialect
     * knows to be such
     */
    private boolean isUnavailable(SQLException failure) {
        return failure instanceof SQLTransientException
                || failure instanceof SQLRecoverableException
                || failure instanceof SQLNonTransientConnectionException
                || dialect.isUnavailable(failure);
    }

    static SQLException sqlCause(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            // A batch's own message quotes its statement; the driver's reason is the next exception.
            if (cause instanceof BatchUpdateException batch && batch.getNextException() != null) {
                return batch.getNextException();
            }
            if (cause instanceof SQLException sql) {
                return sql;
            }
        }
        return null;
    }

    /** The first line of a driver message, bounded: PostgreSQL appends "Detail:" and "Where:" lines. */
    private static String brief(String message) {
        String line = message == null ? "" : message.lines().findFirst().orElse("");
        return line.length() <= 200 ? line : line.substring(0, 200) + "...";
    }

    /** {@return an instant as the dialect stores it, to the millisecond} */
    Argument time(Instant instant) {
        Instant millis = millis(instant);
        return (position, statement, context) -> dialect.setInstant(statement, position, millis);
    }

    static Instant millis(Instant instant) {
        return instant == null ? null : instant.truncatedTo(ChronoUnit.MILLIS);
    }

    static AssayException unknownRun(String runId) {
        return new AssayException(
                new Problem("store.unknown_run", "no run with this id is stored", Map.of("run_id", runId)));
    }

    static String text(String value) {
        return value.replace('\u0000', '\uFFFD');
    }

    static String json(Object value) {
        return value == null || (value instanceof JsonNode node && node.isNull()) ? null : Json.write(value);
    }

    // JSON columns are read as their UTF-8 bytes (SQLite's and PostgreSQL's drivers give a text column's bytes as
    // stored), not as strings made only to be parsed: a large run's reports read every row in each of their passes,
    // and a 100 000-item run's took 8.3-8.5 s reading bytes, 8.9-9.0 s reading strings.
    static JsonNode readJson(byte[] utf8) {
        return utf8 == null ? null : Json.parse(utf8);
    }

    static <T> T readJson(byte[] utf8, Class<T> type) {
        return utf8 == null ? null : Json.read(utf8, type);
    }

    static <T> T readJson(byte[] utf8, TypeReference<T> type) {
        return utf8 == null ? null : Json.read(utf8, type);
    }
}
