package dev.assay.run;

import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.testing.CuttableProxy;
import dev.assay.testing.TestPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The outage on PostgreSQL: the store reaches the shared server through a {@link CuttableProxy} that resets every
 * connection and refuses new ones; the server itself keeps running for everyone else.
 */
@ExtendWith(TestPostgres.Schemas.class)
class PostgresStoreOutageTest extends StoreOutageContract {
    private CuttableProxy proxy;

    @Override
    protected Store openStore(Path directory) throws SQLException, IOException {
        String url = TestPostgres.freshUrl();
        proxy = CuttableProxy.before(url);
        return Stores.open(proxy.route(url));
    }

    @AfterEach
    void closeProxy() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Override
    protected void cut() {
        proxy.cut();
    }

    @Override
    protected void restore() {
        if (proxy != null) {
            proxy.restore();
        }
    }

    /** Longer than the pool's 5 s connection timeout, and than the 10 s it was before writes were retried. */
    @Override
    protected Duration outageThatFailsAWrite() {
        return Duration.ofSeconds(11);
    }
}
