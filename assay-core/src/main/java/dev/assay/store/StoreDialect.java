package dev.assay.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * What differs between the databases a store can be kept in; everything else (SQL, upsert via {@code ON CONFLICT},
 * paging via {@code LIMIT/OFFSET}) is written once in the store. A dialect is a plug-in found by the scheme of a JDBC
 * URL ({@code jdbc:SCHEME:...}) through {@link dev.assay.Plugins}: SQLite's is built in, PostgreSQL's is a service of
 * the module assay-postgres ({@code META-INF/services/dev.assay.store.StoreDialect}), which also holds its driver and
 * its Flyway migrations. Implementations must be stateless and thread-safe.
 */
public interface StoreDialect {
    /** {@return the JDBC URL scheme this dialect opens: {@code postgresql} for {@code jdbc:postgresql:...}} */
    String scheme();

    /** {@return the form of the URLs it opens, for messages: {@code jdbc:sqlite:<file path>}} */
    String urlForm();

    /**
     * Checks a URL of this dialect's scheme and prepares what opening it needs (SQLite creates the file's directories).
     *
     * @throws dev.assay.AssayException {@code store.unsupported_url} for a URL of the scheme that is not supported,
     *     {@code store.unavailable} when what it needs cannot be prepared
     */
    default void prepare(String jdbcUrl) {}

    /**
     * {@return the Flyway location of this dialect's migrations}: {@code classpath:db/migration/<scheme>}, on the class
     * path of the dialect's own class
     */
    default String migrationLocation() {
        return "classpath:db/migration/" + scheme();
    }

    /**
     * Runs the check-and-migrate of opening a store so that processes opening the same database at once take turns:
     * Flyway alone lets two of them create the same history table, and the loser fails ("Unable to baseline schema
     * history table ... as it already exists, and is empty"). {@code migrate} checks again whether the schema is
     * current, so whoever waited finds the work done. The default runs it as it is, for databases one process opens.
     *
     * @param jdbcUrl the database's URL, as {@link #prepare} took it
     * @param dataSource the store's pool, for a connection to hold the turn on while {@code migrate} uses others
     * @throws SQLException when the turn cannot be taken or given back
     */
    default void migrateInTurn(String jdbcUrl, DataSource dataSource, Runnable migrate) throws SQLException {
        migrate.run();
    }

    /** {@return the size of the store's connection pool} */
    int maxPoolSize();

    /**
     * {@return whether the database lets one writer in at a time} Then a store keeps one connection for its item
     * writes, with their statements prepared once ({@code HeldWriter}); otherwise each write borrows one from the pool.
     */
    default boolean serialisesWriters() {
        return false;
    }

    /** {@return driver properties applied to every pooled connection} */
    default Properties connectionProperties() {
        return new Properties();
    }

    /** {@return an SQL condition: {@code column} contains {@code :parameter}, which the caller binds lower-cased} */
    String containsIgnoreCase(String column, String parameter);

    /** Binds an instant (null allowed) in this dialect's time representation. */
    void setInstant(PreparedStatement statement, int position, Instant instant) throws SQLException;

    /** {@return the instant in a column, or null} */
    Instant getInstant(ResultSet resultSet, String column) throws SQLException;

    /**
     * {@return whether the failure, beyond the transient and connection exceptions of JDBC that every dialect counts,
     * means the database could not be reached or was busy, so the same statement may succeed later}
     */
    boolean isUnavailable(SQLException failure);

    /** {@return whether the failure is a foreign-key violation} */
    boolean isForeignKeyViolation(SQLException failure);
}
