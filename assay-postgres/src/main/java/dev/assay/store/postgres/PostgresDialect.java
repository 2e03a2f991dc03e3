package dev.assay.store.postgres;

import dev.assay.store.StoreDialect;
import dev.assay.store.Stores;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import javax.sql.DataSource;

/**
 * PostgreSQL, a shared server: the {@code postgresql} {@link StoreDialect} service of assay-postgres, for URLs
 * {@code jdbc:postgresql://HOST[:PORT]/DATABASE[?...]}. Times are {@code TIMESTAMPTZ(3)} so they read naturally in
 * psql; the migrations are this module's {@code db/migration/postgresql}. Stateless and thread-safe.
 */
public final class PostgresDialect implements StoreDialect {
    /** The first half of the advisory lock's key while a schema migrates: Assay's own, "assa" in ASCII. */
    private static final int MIGRATION_LOCK = 0x6173_7361;

    @Override
    public String scheme() {
        return "postgresql";
    }

    @Override
    public String urlForm() {
        return "jdbc:postgresql://<host>[:<port>]/<database>[?...]";
    }

    /** Refuses the URL forms without a host ({@code jdbc:postgresql:DATABASE}), which workers could not share. */
    @Override
    public void prepare(String jdbcUrl) {
        if (!jdbcUrl.startsWith("jdbc:postgresql://")) {
            throw Stores.unsupportedUrl(jdbcUrl);
        }
    }

    /**
     * Takes turns with a session advisory lock on one connection held while {@code migrate} runs on others: keyed by
     * the current schema, so stores in different schemas of one database do not wait for each other. The lock is a
     * session's, so a process that dies while holding it gives it back with its connection.
     */
    @Override
    public void migrateInTurn(String jdbcUrl, DataSource dataSource, Runnable migrate) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            lock(connection, "pg_advisory_lock");
            try {
                migrate.run();
            } finally {
                lock(connection, "pg_advisory_unlock");
            }
        }
    }

    /** Calls {@code pg_advisory_lock} or {@code pg_advisory_unlock} on the key of migrating the current schema. */
    private static void lock(Connection connection, String function) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT " + function + "(" + MIGRATION_LOCK + ", hashtext(current_schema()))")) {
            statement.execute();
        }
    }

    @Override
    public int maxPoolSize() {
        return 8;
    }

    @Override
    public String containsIgnoreCase(String column, String parameter) {
        // A position search rather than LIKE, so '%' and '_' in the user's text need no escaping; lower() follows the
        // database locale.
        return "strpos(lower(" + column + "), :" + parameter + ") > 0";
    }

    @Override
    public void setInstant(PreparedStatement statement, int position, Instant instant) throws SQLException {
        if (instant == null) {
            statement.setNull(position, Types.TIMESTAMP_WITH_TIMEZONE);
        } else {
            statement.setObject(position, OffsetDateTime.ofInstant(instant, ZoneOffset.UTC));
        }
    }

    @Override
    public Instant getInstant(ResultSet resultSet, String column) throws SQLException {
        OffsetDateTime time = resultSet.getObject(column, OffsetDateTime.class);
        return time == null ? null : time.toInstant();
    }

    /**
     * {@return whether the SQLSTATE says the server was unreachable or busy}: connection failures (class 08), a server
     * shutting down (57P), out of resources (53), serialization failures and deadlocks
     */
    @Override
    public boolean isUnavailable(SQLException failure) {
        String state = failure.getSQLState() == null ? "" : failure.getSQLState();
        return state.startsWith("08")
                || state.startsWith("57P")
                || state.startsWith("53")
                || state.equals("40001")
                || state.equals("40P01");
    }

    @Override
    public boolean isForeignKeyViolation(SQLException failure) {
        return "23503".equals(failure.getSQLState());
    }
}
