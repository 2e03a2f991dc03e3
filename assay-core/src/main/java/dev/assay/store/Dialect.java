package dev.assay.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Properties;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * What differs between the two supported databases; everything else (SQL, upsert via {@code ON CONFLICT}, paging via
 * {@code LIMIT/OFFSET}) is written once in {@link JdbiStore}. Stateless and thread-safe.
 */
enum Dialect {
    /** Embedded, one file; times are epoch milliseconds because SQLite has no timestamp type. */
    SQLITE,
    /** Shared server; times are {@code TIMESTAMPTZ(3)} so they read naturally in psql. */
    POSTGRESQL;

    /** {@return the dialect for a JDBC URL, or null when Assay does not support it} */
    static Dialect forUrl(String jdbcUrl) {
        if (jdbcUrl == null) {
            return null;
        }
        if (jdbcUrl.startsWith("jdbc:sqlite:")) {
            return SQLITE;
        }
        if (jdbcUrl.startsWith("jdbc:postgresql://")) {
            return POSTGRESQL;
        }
        return null;
    }

    /** {@return the Flyway location of this dialect's migrations} */
    String migrationLocation() {
        return "classpath:db/migration/" + name().toLowerCase(Locale.ROOT);
    }

    /** {@return the pool size}: SQLite serialises writers anyway, so a few connections only serve readers. */
    int maxPoolSize() {
        return switch (this) {
            case SQLITE -> 4;
            case POSTGRESQL -> 8;
        };
    }

    /** {@return driver properties applied to every pooled connection} */
    Properties connectionProperties() {
        var properties = new Properties();
        if (this == SQLITE) {
            // xerial's driver reads pragmas from connection properties, so every pooled connection gets them.
            properties.setProperty("journal_mode", "WAL");
            // NORMAL is the documented safe setting under WAL: no corruption, only the last commits may be lost on
            // power failure, and it avoids one fsync per item upsert.
            properties.setProperty("synchronous", "NORMAL");
            properties.setProperty("busy_timeout", "5000");
            properties.setProperty("foreign_keys", "true");
        }
        return properties;
    }

    /** {@return a condition: {@code column} contains {@code :parameter}, which the caller binds lower-cased} */
    String containsIgnoreCase(String column, String parameter) {
        // A position search rather than LIKE, so '%' and '_' in the user's text need no escaping.
        // SQLite's lower() folds ASCII only; PostgreSQL's follows the database locale.
        return switch (this) {
            case SQLITE -> "instr(lower(" + column + "), :" + parameter + ") > 0";
            case POSTGRESQL -> "strpos(lower(" + column + "), :" + parameter + ") > 0";
        };
    }

    /** Binds an instant (null allowed) in this dialect's time representation. */
    void setInstant(PreparedStatement statement, int position, Instant instant) throws SQLException {
        switch (this) {
            case SQLITE -> {
                if (instant == null) {
                    statement.setNull(position, Types.BIGINT);
                } else {
                    statement.setLong(position, instant.toEpochMilli());
                }
            }
            case POSTGRESQL -> {
                if (instant == null) {
                    statement.setNull(position, Types.TIMESTAMP_WITH_TIMEZONE);
                } else {
                    statement.setObject(position, OffsetDateTime.ofInstant(instant, ZoneOffset.UTC));
                }
            }
        }
    }

    /** {@return the instant in a column, or null} */
    Instant getInstant(ResultSet resultSet, String column) throws SQLException {
        return switch (this) {
            case SQLITE -> {
                long millis = resultSet.getLong(column);
                yield resultSet.wasNull() ? null : Instant.ofEpochMilli(millis);
            }
            case POSTGRESQL -> {
                OffsetDateTime time = resultSet.getObject(column, OffsetDateTime.class);
                yield time == null ? null : time.toInstant();
            }
        };
    }

    /**
     * {@return whether the failure means the database could not be reached or was busy, so the same statement may
     * succeed later}: connection failures (SQLSTATE class 08, a pool that timed out), a server shutting down (57P), out
     * of resources (53), serialization failures and deadlocks, and SQLite's busy, locked, I/O and cannot-open errors
     */
    boolean isUnavailable(SQLException failure) {
        if (failure instanceof SQLTransientException
                || failure instanceof SQLRecoverableException
                || failure instanceof SQLNonTransientConnectionException) {
            return true;
        }
        return switch (this) {
            case SQLITE ->
                failure instanceof SQLiteException sqlite
                        && switch (sqlite.getResultCode().code & 0xff) {
                            case 5, 6, 10, 14 -> true; // SQLITE_BUSY, SQLITE_LOCKED, SQLITE_IOERR, SQLITE_CANTOPEN
                            default -> false;
                        };
            case POSTGRESQL -> {
                String state = failure.getSQLState() == null ? "" : failure.getSQLState();
                yield state.startsWith("08")
                        || state.startsWith("57P")
                        || state.startsWith("53")
                        || state.equals("40001")
                        || state.equals("40P01");
            }
        };
    }

    /** {@return whether the failure is a foreign-key violation} */
    boolean isForeignKeyViolation(SQLException failure) {
        return switch (this) {
            // getErrorCode() gives only the primary code (19, any constraint); the extended one names the kind.
            case SQLITE ->
                failure instanceof SQLiteException sqlite
                        && sqlite.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_FOREIGNKEY;
            case POSTGRESQL -> "23503".equals(failure.getSQLState());
        };
    }
}
