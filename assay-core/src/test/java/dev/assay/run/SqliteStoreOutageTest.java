package dev.assay.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The outage on SQLite: another connection holds the database's write lock (as another process writing a long
 * transaction would), longer than the store's 5 s busy timeout. Plus what SQLite alone makes easy to fake: a database
 * that refuses one item for good.
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

    @Test
    void an_item_the_database_refuses_ends_the_run_interrupted_not_finished() throws Exception {
        try (Connection connection = DriverManager.getConnection(url);
                var statement = connection.createStatement()) {
            statement.execute("CREATE TRIGGER refuse_case5 BEFORE INSERT ON evaluation_items "
                    + "WHEN NEW.case_id = 'case5' BEGIN SELECT RAISE(ABORT, 'refused by a trigger'); END");
        }

        Run run = engine(Duration.ofSeconds(30)).run(plan(), RunListener.NONE);

        assertThat(run.status()).isEqualTo(RunStatus.INTERRUPTED);
        assertThat(run.error().type()).isEqualTo("store.items_missing");
        assertThat(run.error().details()).containsEntry("unstored", java.util.List.of("case5"));
        assertThat(run.counts().completed()).isEqualTo(CASES - 1).isEqualTo(store.countItems(run.runId()));
        assertThat(store.findRun(run.runId()).orElseThrow().status()).isEqualTo(RunStatus.INTERRUPTED);
    }

    @Override
    protected Duration outageThatFailsAWrite() {
        return Duration.ofMillis(6500);
    }
}
