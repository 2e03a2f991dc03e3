package dev.assay.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The local PostgreSQL server for tests: {@code ASSAY_TEST_POSTGRES_URL} or {@value #DEFAULT_URL}. Each caller gets a
 * fresh schema, dropped by {@link #dropSchemas()}. When the server is unreachable, tests are skipped with a message,
 * unless {@code ASSAY_REQUIRE_POSTGRES=1} (set in CI) makes that a failure.
 */
public final class TestPostgres {
    public static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
    private static final String SERVER_URL = System.getenv().getOrDefault("ASSAY_TEST_POSTGRES_URL", DEFAULT_URL);
    private static final List<String> SCHEMAS = new ArrayList<>();

    private TestPostgres() {}

    /** Skips (or, in CI, fails) the calling test class when the server is unreachable. */
    public static void require() {
        try (Connection connection = DriverManager.getConnection(SERVER_URL)) {
            connection.isValid(5);
        } catch (SQLException e) {
            String message = "PostgreSQL is not reachable at " + dev.assay.store.Stores.redact(SERVER_URL) + " ("
                    + e.getMessage() + "); start it, e.g. pg_ctlcluster --skip-systemctl-redirect <version> main start";
            if ("1".equals(System.getenv("ASSAY_REQUIRE_POSTGRES"))) {
                fail(message + "; ASSAY_REQUIRE_POSTGRES=1 makes this a failure", e);
            }
            Assumptions.abort(message + "; skipping the PostgreSQL tests");
        }
    }

    /** {@return a JDBC URL whose current schema is new and empty} */
    public static synchronized String freshUrl() throws SQLException {
        String schema = "assay_test_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection connection = DriverManager.getConnection(SERVER_URL);
                var statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA " + schema);
        }
        SCHEMAS.add(schema);
        // Asynchronous commit only for the tests: thousands of one-item transactions would otherwise wait for an
        // fsync each on a shared machine.
        return SERVER_URL + (SERVER_URL.contains("?") ? "&" : "?") + "currentSchema=" + schema
                + "&options=-c%20synchronous_commit%3Doff";
    }

    /**
     * For {@code @ExtendWith}: {@link #require()} before a test class's tests and {@link #dropSchemas()} after them.
     */
    public static final class Schemas implements BeforeAllCallback, AfterAllCallback {
        @Override
        public void beforeAll(ExtensionContext context) {
            require();
        }

        @Override
        public void afterAll(ExtensionContext context) throws SQLException {
            dropSchemas();
        }
    }

    /** Drops every schema handed out so far. */
    public static synchronized void dropSchemas() throws SQLException {
        try (Connection connection = DriverManager.getConnection(SERVER_URL);
                var statement = connection.createStatement()) {
            for (String schema : SCHEMAS) {
                statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            }
        }
        SCHEMAS.clear();
    }
}
