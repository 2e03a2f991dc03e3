package dev.assay.store;

import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

/**
 * The store contract on PostgreSQL, each test in its own schema, dropped afterwards. The server is
 * {@code ASSAY_TEST_POSTGRES_URL} or {@value #DEFAULT_URL}; when it is unreachable the tests are skipped, unless
 * {@code ASSAY_REQUIRE_POSTGRES=1} (set in CI) makes that a failure.
 */
class PostgresStoreTest extends StoreContract {
    private static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
    private static final String SERVER_URL = System.getenv().getOrDefault("ASSAY_TEST_POSTGRES_URL", DEFAULT_URL);
    private static final List<String> SCHEMAS = new ArrayList<>();

    @BeforeAll
    static void requireServer() {
        try (Connection connection = DriverManager.getConnection(SERVER_URL)) {
            connection.isValid(5);
        } catch (SQLException e) {
            String message = "PostgreSQL is not reachable at " + Stores.redact(SERVER_URL) + " (" + e.getMessage()
                    + "); start it, e.g. pg_ctlcluster --skip-systemctl-redirect <version> main start";
            if ("1".equals(System.getenv("ASSAY_REQUIRE_POSTGRES"))) {
                fail(message + "; ASSAY_REQUIRE_POSTGRES=1 makes this a failure", e);
            }
            Assumptions.abort(message + "; skipping the PostgreSQL store tests");
        }
    }

    @AfterAll
    static void dropSchemas() throws SQLException {
        if (SCHEMAS.isEmpty()) {
            return;
        }
        try (Connection connection = DriverManager.getConnection(SERVER_URL);
             var statement = connection.createStatement()) {
            for (String schema : SCHEMAS) {
                statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            }
        }
        SCHEMAS.clear();
    }

    @Override
    protected String freshUrl() throws SQLException {
        String schema = "assay_test_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection connection = DriverManager.getConnection(SERVER_URL);
             var statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA " + schema);
        }
        SCHEMAS.add(schema);
        // Asynchronous commit only for the tests: thousands of one-item transactions would otherwise wait for
        // an fsync each on a shared machine.
        return SERVER_URL + (SERVER_URL.contains("?") ? "&" : "?") + "currentSchema=" + schema
                + "&options=-c%20synchronous_commit%3Doff";
    }
}
