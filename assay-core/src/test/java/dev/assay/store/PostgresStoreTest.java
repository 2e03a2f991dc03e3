package dev.assay.store;

import dev.assay.testing.TestPostgres;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The store contract on PostgreSQL, each test in its own schema (see {@link TestPostgres}). */
class PostgresStoreTest extends StoreContract {
    @BeforeAll
    static void requireServer() {
        TestPostgres.require();
    }

    @AfterAll
    static void dropSchemas() throws SQLException {
        TestPostgres.dropSchemas();
    }

    @Override
    protected String freshUrl() throws SQLException {
        return TestPostgres.freshUrl();
    }
}
