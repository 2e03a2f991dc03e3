package dev.assay.run;

import dev.assay.store.Store;
import dev.assay.store.Stores;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The outage on SQLite: another connection holds the database's write lock (as another process writing a long
 * transaction would), longer than the store's 5 s busy timeout.
 */
class SqliteStoreOutageTest extends StoreOutageContract {
    private String url;
    private Connection locker;

    @Override
    protected Store openStore(Path directory) {
        url = "jdbc:sqlite:" + directory.resolve("assay.db");
        return Stores.open(url);
    }

    @Override
    protected synchronized void cut() throws SQLException {
        locker = DriverManager.getConnection(url);
        try (var statement = locker.createStatement()) {
            statement.execute("PRAGMA busy_timeout = 10000");
            statement.execute("BEGIN EXCLUSIVE");
        }
    }

    @Override
    protected synchronized void restore() throws SQLException {
        if (locker != null) {
            try (var statement = locker.createStatement()) {
                statement.execute("ROLLBACK");
            }
            locker.close();
            locker = null;
        }
    }

    @Override
    protected Duration outageThatFailsAWrite() {
        return Duration.ofMillis(6500);
    }
}
