package dev.assay.run;

import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.testing.TestPostgres;
import java.nio.file.Path;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Every engine end-to-end test again, with the runs stored in PostgreSQL. */
class PostgresEngineTest extends EngineTest {
    @BeforeAll
    static void requireServer() {
        TestPostgres.require();
    }

    @AfterAll
    static void dropSchemas() throws SQLException {
        TestPostgres.dropSchemas();
    }

    @Override
    protected Store openStore(Path directory) {
        try {
            return Stores.open(TestPostgres.freshUrl());
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
