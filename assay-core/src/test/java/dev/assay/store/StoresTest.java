package dev.assay.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.store.internal.SqliteDialect;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sqlite.SQLiteDataSource;

/** Opening stores: accepted URLs, failures and what their messages may show. */
class StoresTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "jdbc:mysql://localhost/assay",
                "postgresql://localhost/assay",
                "",
                "jdbc:sqlite::memory:",
                "jdbc:sqlite:",
                "jdbc:sqlite:file:x?mode=memory"
            })
    void other_urls_are_rejected_as_unsupported(String url) {
        assertThatThrownBy(() -> Stores.open(url))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("store.unsupported_url"));
    }

    @Test
    void unsupported_url_message_names_the_accepted_forms() {
        assertThatThrownBy(() -> Stores.open("jdbc:h2:mem:x"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().details()).containsEntry("accepted", "jdbc:sqlite:<file path>"));
    }

    /** assay-core alone has no PostgreSQL (assay-postgres has): its URLs name the module to add. */
    @Test
    void a_postgresql_url_without_assay_postgres_is_plugin_unknown_naming_the_module() {
        assertThatThrownBy(() -> Stores.open("jdbc:postgresql://u:s3cr3t@127.0.0.1/assay"))
                .isInstanceOfSatisfying(AssayException.class, e -> {
                    assertThat(e.problem().type()).isEqualTo("plugin.unknown");
                    assertThat(e.problem().details()).containsEntry("module", "assay-postgres");
                    assertThat(e.getMessage()).doesNotContain("s3cr3t");
                });
    }

    @Test
    void redaction_removes_user_info_and_every_password_parameter() {
        assertThat(Stores.redact("jdbc:postgresql://u:p@db:5432/x?password=a&ssl=true&sslpassword=b&PASSWORD=c"))
                .isEqualTo("jdbc:postgresql://db:5432/x?ssl=true");
        assertThat(Stores.redact("jdbc:postgresql://db/x?password=a")).isEqualTo("jdbc:postgresql://db/x");
    }

    @Test
    void default_url_is_the_assay_db_file_in_the_home_directory(@TempDir Path home) {
        assertThat(Stores.defaultUrl(home))
                .isEqualTo("jdbc:sqlite:" + home.toAbsolutePath().resolve("assay.db"));
    }

    @Test
    void schema_that_no_longer_matches_its_migrations_is_a_migration_failure(@TempDir Path home) throws Exception {
        String url = Stores.defaultUrl(home);
        Stores.open(url).close();
        try (var connection = DriverManager.getConnection(url);
                var statement = connection.createStatement()) {
            statement.execute("UPDATE " + Stores.HISTORY_TABLE + " SET checksum = checksum + 1 WHERE version = '1'");
        }

        assertThatThrownBy(() -> Stores.open(url))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("store.migration_failed"));
    }

    @Test
    void database_already_holding_other_tables_is_migrated_beside_them(@TempDir Path home) throws Exception {
        String url = Stores.defaultUrl(home);
        try (var connection = DriverManager.getConnection(url);
                var statement = connection.createStatement()) {
            statement.execute("CREATE TABLE other_app (id INTEGER PRIMARY KEY)");
        }

        try (Store store = Stores.open(url)) {
            assertThat(store.countRuns(RunQuery.all())).isZero();
        }
        assertThat(SchemaHistory.isCurrent(dataSource(url), new SqliteDialect()))
                .isTrue();
    }

    @Test
    void sqlite_database_is_opened_in_wal_mode(@TempDir Path home) throws Exception {
        String url = Stores.defaultUrl(home);
        Stores.open(url).close();

        try (var connection = DriverManager.getConnection(url);
                var result = connection.createStatement().executeQuery("PRAGMA journal_mode")) {
            result.next();
            assertThat(result.getString(1)).isEqualToIgnoringCase("wal");
        }
    }

    @Test
    void schema_at_the_current_version_is_current_and_opens_as_it_is(@TempDir Path home) throws Exception {
        String url = Stores.defaultUrl(home);
        assertThat(SchemaHistory.isCurrent(dataSource(url), new SqliteDialect()))
                .isFalse();
        Stores.open(url).close();

        assertThat(SchemaHistory.isCurrent(dataSource(url), new SqliteDialect()))
                .isTrue();
        try (Store store = Stores.open(url)) {
            assertThat(store.countRuns(RunQuery.all())).isZero();
        }
        assertThat(historyVersions(url)).containsExactly("1", "2", "3", "4", "5", "6", "7", "8");
    }

    @Test
    void schema_one_version_behind_is_migrated(@TempDir Path home) throws Exception {
        String url = Stores.defaultUrl(home);
        Flyway.configure()
                .dataSource(url, null, null)
                .locations(new SqliteDialect().migrationLocation())
                .table(Stores.HISTORY_TABLE)
                .target("7")
                .load()
                .migrate();
        assertThat(SchemaHistory.isCurrent(dataSource(url), new SqliteDialect()))
                .isFalse();

        try (Store store = Stores.open(url)) {
            assertThat(store.countRuns(RunQuery.all())).isZero();
        }

        assertThat(historyVersions(url)).endsWith("7", "8");
        assertThat(SchemaHistory.isCurrent(dataSource(url), new SqliteDialect()))
                .isTrue();
    }

    /** Flyway ignores a version it does not know by default: such a database opens, as it did before the check. */
    @Test
    void schema_ahead_of_the_code_is_left_to_flyway(@TempDir Path home) throws Exception {
        String url = Stores.defaultUrl(home);
        Stores.open(url).close();
        execute(
                url,
                "INSERT INTO " + Stores.HISTORY_TABLE + " (installed_rank, version, description, type, script, "
                        + "checksum, installed_by, execution_time, success) VALUES (9, '9', 'later', 'SQL', 'V9__later.sql', 1, "
                        + "'test', 0, 1)");

        assertThat(SchemaHistory.isCurrent(dataSource(url), new SqliteDialect()))
                .isFalse();
        try (Store store = Stores.open(url)) {
            assertThat(store.countRuns(RunQuery.all())).isZero();
        }
    }

    @Test
    void schema_with_a_failed_migration_is_not_current(@TempDir Path home) throws Exception {
        String url = Stores.defaultUrl(home);
        Stores.open(url).close();
        execute(url, "UPDATE " + Stores.HISTORY_TABLE + " SET success = 0 WHERE version = '8'");

        assertThat(SchemaHistory.isCurrent(dataSource(url), new SqliteDialect()))
                .isFalse();
    }

    private static DataSource dataSource(String url) {
        var dataSource = new SQLiteDataSource();
        dataSource.setUrl(url);
        return dataSource;
    }

    private static void execute(String url, String sql) throws Exception {
        try (var connection = DriverManager.getConnection(url);
                var statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static List<String> historyVersions(String url) throws Exception {
        var versions = new ArrayList<String>();
        try (var connection = DriverManager.getConnection(url);
                var rows = connection
                        .createStatement()
                        .executeQuery("SELECT version FROM " + Stores.HISTORY_TABLE + " ORDER BY installed_rank")) {
            while (rows.next()) {
                versions.add(rows.getString(1));
            }
        }
        return versions;
    }

    /**
     * Processes opening one new database file at once (here threads, each with its pool of connections, as SQLite sees
     * processes) all open it, and its migrations are applied once: without turns most of them failed creating the same
     * tables.
     */
    @RepeatedTest(5)
    void stores_opened_at_once_on_a_new_sqlite_file_all_open_and_migrate_it_once(@TempDir Path home) throws Exception {
        String url = Stores.defaultUrl(home);
        int openers = 6;
        var barrier = new CyclicBarrier(openers);
        Callable<Store> open = () -> {
            barrier.await();
            return Stores.open(url);
        };
        var stores = new ArrayList<Store>();
        try (ExecutorService threads = Executors.newFixedThreadPool(openers)) {
            for (Future<Store> store : threads.invokeAll(Collections.nCopies(openers, open))) {
                stores.add(store.get());
            }
        } finally {
            stores.forEach(Store::close);
        }

        try (var connection = DriverManager.getConnection(url);
                var statement = connection.createStatement();
                var history = statement.executeQuery("SELECT count(*), count(DISTINCT version), min(success)"
                        + " FROM assay_schema_history WHERE type = 'SQL'")) {
            history.next();
            assertThat(history.getInt(1)).isPositive().isEqualTo(history.getInt(2));
            assertThat(history.getInt(3)).isEqualTo(1);
        }
    }
}
