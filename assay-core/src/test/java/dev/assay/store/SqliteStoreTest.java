package dev.assay.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on SQLite, in a directory the store has to create; plus SQLite's query plans. */
class SqliteStoreTest extends StoreContract {
    @TempDir
    Path directory;

    @Override
    protected String freshUrl() {
        return "jdbc:sqlite:" + directory.resolve("not/yet/there/assay.db");
    }

    @Test
    void item_pages_are_read_through_the_index_without_sorting() throws SQLException {
        for (ItemFields fields : ItemFields.values()) {
            for (boolean after : new boolean[] {true, false}) {
                assertThat(plan(JdbiStore.itemsQuery(fields, after)))
                        .anySatisfy(step -> assertThat(step).contains("evaluation_items_run_seq"))
                        .noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
            }
        }
    }

    @Test
    void newest_runs_are_read_through_the_index_without_sorting() throws SQLException {
        assertThat(plan("SELECT * FROM evaluation_runs ORDER BY started_at DESC, run_id DESC LIMIT 50 OFFSET 100"))
                .anySatisfy(step -> assertThat(step).contains("evaluation_runs_started"))
                .noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
    }

    @Test
    @Tag("fault")
    void a_write_to_a_locked_database_is_unavailable_and_its_message_holds_no_sql_or_stored_text() throws SQLException {
        try (Store store = Stores.open(url());
                var locker = DriverManager.getConnection(url())) {
            store.createRun(new Run(
                    "r1",
                    null,
                    null,
                    "m",
                    null,
                    RunStatus.RUNNING,
                    "s",
                    "v",
                    null,
                    null,
                    null,
                    null,
                    null,
                    Instant.parse("2026-11-23T10:00:00Z"),
                    null,
                    0,
                    null));
            locker.setAutoCommit(false);
            locker.createStatement().execute("UPDATE evaluation_runs SET user_id = user_id");
            Item item = new Item(
                    "r1",
                    "c",
                    0,
                    "d",
                    ItemStatus.PASSED,
                    1,
                    1,
                    1,
                    "the secret prompt",
                    "the secret answer",
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    0);

            assertThatThrownBy(() -> store.upsertItem(item)).isInstanceOfSatisfying(AssayException.class, e -> {
                assertThat(e.problem().type()).isEqualTo("store.unavailable");
                assertThat(e.problem().message())
                        .contains("SQLITE_BUSY")
                        .doesNotContain("INSERT", "evaluation_items", "secret");
            });
            locker.rollback();
        }
    }

    private List<String> plan(String sql) throws SQLException {
        var steps = new ArrayList<String>();
        try (var connection = DriverManager.getConnection(url());
                var result = connection.createStatement().executeQuery("EXPLAIN QUERY PLAN " + sql)) {
            while (result.next()) {
                steps.add(result.getString("detail"));
            }
        }
        return steps;
    }
}
