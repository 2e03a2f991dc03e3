package dev.assay.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import java.nio.file.Path;
import java.sql.DriverManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
}
