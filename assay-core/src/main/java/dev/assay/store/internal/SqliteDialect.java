package dev.assay.store.internal;

import dev.assay.AssayException;
import dev.assay.OwnerOnly;
import dev.assay.Problem;
import dev.assay.store.StoreDialect;
import dev.assay.store.Stores;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * SQLite, Assay's built-in database: embedded, one file; times are epoch milliseconds because SQLite has no timestamp
 * type. Stateless and thread-safe.
 */
public final class SqliteDialect implements StoreDialect {
    /** What the threads of this process opening SQLite stores take turns on before they take the file's lock. */
    private static final ReentrantLock MIGRATING = new ReentrantLock();

    @Override
    public String scheme() {
        return "sqlite";
    }

    @Override
    public String urlForm() {
        return "jdbc:sqlite:<file path>";
    }

    /**
     * Refuses in-memory databases and creates the database file owner-only (0600), with its missing parent directories
     * (0700), when it does not exist: it holds prompts, answers and transcripts, SQLite would create it under the umask
     * (0644 commonly), and SQLite gives its -wal and -shm files the database file's mode. An existing file or directory
     * keeps the mode its owner chose.
     */
    @Override
    public void prepare(String jdbcUrl) {
        Path file = file(jdbcUrl);
        Path parent = file.getParent();
        try {
            if (parent != null) {
                OwnerOnly.createDirectories(parent);
            }
        } catch (IOException e) {
            throw unavailable("cannot create the directory " + parent + " for the database", jdbcUrl, e);
        }
        try {
            OwnerOnly.createFile(file);
        } catch (IOException e) {
            throw unavailable("cannot create the database file", jdbcUrl, e);
        }
        try {
            if (Files.size(file) == 0) {
                // A new file is switched to WAL by one connection at a time: the switch takes an exclusive lock,
                // which connections opened at once on the same new file were refused (SQLITE_BUSY) without waiting.
                // Opening a connection applies the pragmas, WAL among them.
                inTurn(
                        file,
                        () -> DriverManager.getConnection(jdbcUrl, connectionProperties())
                                .close());
            }
        } catch (IOException | SQLException e) {
            throw unavailable("cannot create the database file", jdbcUrl, e);
        }
    }

    /** {@return the database file a URL names} */
    private static Path file(String jdbcUrl) {
        String path = jdbcUrl.substring("jdbc:sqlite:".length());
        int query = path.indexOf('?');
        path = query < 0 ? path : path.substring(0, query);
        path = path.startsWith("file:") ? path.substring("file:".length()) : path;
        if (path.isBlank() || path.equals(":memory:") || jdbcUrl.contains("mode=memory")) {
            // Each pooled connection would see its own empty in-memory database.
            throw Stores.unsupported("in-memory SQLite is not supported");
        }
        return Path.of(path).toAbsolutePath();
    }

    /**
     * Takes turns with a lock on a file beside the database ({@code <file>.migration-lock}, made owner-only once and
     * left there), which processes opening it at once share; the threads of one process take turns first, since a
     * process holds a file's lock once. Without it they created the same tables at once, and all but one failed.
     */
    @Override
    public void migrateInTurn(String jdbcUrl, DataSource dataSource, Runnable migrate) throws SQLException {
        inTurn(file(jdbcUrl), migrate::run);
    }

    /** What may not run at once on one new database, done by one thread of one process at a time. */
    private interface Turn {
        void run() throws SQLException;
    }

    private static void inTurn(Path database, Turn turn) throws SQLException {
        Path lockFile = database.resolveSibling(database.getFileName() + ".migration-lock");
        MIGRATING.lock();
        try (FileChannel channel = lockFile(lockFile)) {
            FileLock held = channel.lock();
            try {
                turn.run();
            } finally {
                held.release();
            }
        } catch (IOException e) {
            throw new SQLException("cannot lock " + lockFile + " to migrate the database", e);
        } finally {
            MIGRATING.unlock();
        }
    }

    private static FileChannel lockFile(Path lockFile) throws IOException {
        OwnerOnly.createFile(lockFile);
        return FileChannel.open(lockFile, StandardOpenOption.WRITE);
    }

    private static AssayException unavailable(String reason, String jdbcUrl, Exception cause) {
        return new AssayException(
                new Problem(
                        "store.unavailable",
                        reason + " " + Stores.redact(jdbcUrl),
                        Map.of("url", Stores.redact(jdbcUrl))),
                cause);
    }

    /** {@return the pool size}: SQLite serialises writers anyway, so a few connections only serve readers. */
    @Override
    public int maxPoolSize() {
        return 4;
    }

    @Override
    public boolean serialisesWriters() {
        return true;
    }

    @Override
    public Properties connectionProperties() {
        var properties = new Properties();
        // xerial's driver reads pragmas from connection properties, so every pooled connection gets them.
        properties.setProperty("journal_mode", "WAL");
        // NORMAL is the documented safe setting under WAL: no corruption, only the last commits may be lost on
        // power failure, and it avoids one fsync per item upsert.
        properties.setProperty("synchronous", "NORMAL");
        properties.setProperty("busy_timeout", "5000");
        properties.setProperty("foreign_keys", "true");
        return properties;
    }

    @Override
    public String containsIgnoreCase(String column, String parameter) {
        // A position search rather than LIKE, so '%' and '_' in the user's text need no escaping. SQLite's lower()
        // folds ASCII only.
        return "instr(lower(" + column + "), :" + parameter + ") > 0";
    }

    @Override
    public void setInstant(PreparedStatement statement, int position, Instant instant) throws SQLException {
        if (instant == null) {
            statement.setNull(position, Types.BIGINT);
        } else {
            statement.setLong(position, instant.toEpochMilli());
        }
    }

    @Override
    public Instant getInstant(ResultSet resultSet, String column) throws SQLException {
        long millis = resultSet.getLong(column);
        return resultSet.wasNull() ? null : Instant.ofEpochMilli(millis);
    }

    /** {@return whether the failure is SQLite's busy, locked, I/O or cannot-open error} */
    @Override
    public boolean isUnavailable(SQLException failure) {
        return failure instanceof SQLiteException sqlite
                && switch (sqlite.getResultCode().code & 0xff) {
                    case 5, 6, 10, 14 -> true; // SQLITE_BUSY, SQLITE_LOCKED, SQLITE_IOERR, SQLITE_CANTOPEN
                    default -> false;
                };
    }

    @Override
    public boolean isForeignKeyViolation(SQLException failure) {
        // getErrorCode() gives only the primary code (19, any constraint); the extended one names the kind.
        return failure instanceof SQLiteException sqlite
                && sqlite.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_FOREIGNKEY;
    }
}
