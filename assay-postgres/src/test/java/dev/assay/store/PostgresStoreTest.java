package dev.assay.store;

import dev.assay.testing.TestPostgres;
import java.sql.SQLException;
import org.junit.jupiter.api.extension.ExtendWith;

/** The store contract on PostgreSQL, each test in its own schema (see {@link TestPostgres}). */
@ExtendWith(TestPostgres.Schemas.class)
class PostgresStoreTest extends StoreContract {
    @Override
    protected String freshUrl() throws SQLException {
        return TestPostgres.freshUrl();
    }
}
