package dev.assay.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.assay.AssayException;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.store.internal.ItemRepository;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
                assertThat(plan(ItemRepository.itemsQuery(fields, after)))
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
            store.createRun(run("r1"));
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

    @Test
    @Tag("security")
    void a_database_it_creates_is_owner_only_with_its_new_directories_and_its_wal_and_shm_files() throws IOException {
        assumeTrue(posix());
        Path file = directory.resolve("new/dir/assay.db");

        try (Store store = Stores.open("jdbc:sqlite:" + file)) {
            store.createRun(run("r1"));

            assertThat(mode(directory.resolve("new"))).isEqualTo("rwx------");
            assertThat(mode(directory.resolve("new/dir"))).isEqualTo("rwx------");
            assertThat(mode(file)).isEqualTo("rw-------");
            assertThat(mode(directory.resolve("new/dir/assay.db-wal"))).isEqualTo("rw-------");
            assertThat(mode(directory.resolve("new/dir/assay.db-shm"))).isEqualTo("rw-------");
        }
    }

    @Test
    @Tag("security")
    void an_existing_directory_and_database_keep_the_modes_their_owner_gave_them() throws IOException {
        assumeTrue(posix());
        Path shared = Files.createDirectory(directory.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path inShared = shared.resolve("new.db");
        Path existing = Files.createFile(directory.resolve("existing.db"));
        Files.setPosixFilePermissions(existing, PosixFilePermissions.fromString("rw-r-----"));

        Stores.open("jdbc:sqlite:" + inShared).close();
        Stores.open("jdbc:sqlite:" + existing).close();

        assertThat(mode(shared)).isEqualTo("rwxr-xr-x");
        assertThat(mode(inShared)).isEqualTo("rw-------");
        assertThat(mode(existing)).isEqualTo("rw-r-----");
    }

    private boolean posix() {
        return directory.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    private static Run run(String runId) {
        return new Run(
                runId,
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
                null);
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
