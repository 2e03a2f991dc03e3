package dev.assay.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
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
        assertThat(plan(JdbiStore.LIST_ITEMS))
                .anySatisfy(step -> assertThat(step).contains("evaluation_items_run_seq"))
                .noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
    }

    @Test
    void newest_runs_are_read_through_the_index_without_sorting() throws SQLException {
        assertThat(plan("SELECT * FROM evaluation_runs ORDER BY started_at DESC, run_id DESC LIMIT 50 OFFSET 100"))
                .anySatisfy(step -> assertThat(step).contains("evaluation_runs_started"))
                .noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
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
