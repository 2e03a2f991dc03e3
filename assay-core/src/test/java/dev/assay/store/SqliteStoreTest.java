package dev.assay.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on SQLite, in a directory the store has to create. */
class SqliteStoreTest extends StoreContract {
    @TempDir
    Path directory;

    @Override
    protected String freshUrl() {
        return "jdbc:sqlite:" + directory.resolve("not/yet/there/assay.db");
    }
}
