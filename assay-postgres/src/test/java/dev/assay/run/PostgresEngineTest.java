package dev.assay.run;

import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.testing.TestPostgres;
import java.nio.file.Path;
import java.sql.SQLException;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every engine end-to-end test again, with the runs stored in PostgreSQL. */
@ExtendWith(TestPostgres.Schemas.class)
class PostgresEngineTest extends EngineTest {
    @Override
    protected Store openStore(Path directory) {
        try {
            return Stores.open(TestPostgres.freshUrl());
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
