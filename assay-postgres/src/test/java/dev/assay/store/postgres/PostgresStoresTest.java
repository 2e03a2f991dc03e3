package dev.assay.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.store.Stores;
import org.junit.jupiter.api.Test;

/** Opening PostgreSQL stores with assay-postgres on the class path: the URLs it takes and what failures show. */
class PostgresStoresTest {

    @Test
    void unreachable_database_is_unavailable_and_the_error_hides_the_password() {
        String url = "jdbc:postgresql://bob:s3cr3t@127.0.0.1:1/assay?user=postgres&password=hunter2&connectTimeout=2";

        assertThatThrownBy(() -> Stores.open(url)).isInstanceOfSatisfying(AssayException.class, e -> {
            assertThat(e.problem().type()).isEqualTo("store.unavailable");
            assertThat(e.problem().details())
                    .containsEntry("url", "jdbc:postgresql://127.0.0.1:1/assay?user=postgres&connectTimeout=2");
            assertThat(e.getMessage()).doesNotContain("hunter2").doesNotContain("s3cr3t");
        });
    }

    @Test
    void a_url_without_a_host_is_unsupported_and_the_accepted_forms_include_postgresql() {
        assertThatThrownBy(() -> Stores.open("jdbc:postgresql:assay"))
                .isInstanceOfSatisfying(AssayException.class, e -> {
                    assertThat(e.problem().type()).isEqualTo("store.unsupported_url");
                    assertThat(e.problem().details())
                            .containsEntry(
                                    "accepted",
                                    "jdbc:sqlite:<file path> or jdbc:postgresql://<host>[:<port>]/<database>[?...]");
                });
    }
}
