package dev.assay.cli;

import dev.assay.store.Store;
import dev.assay.store.Stores;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/** {@code --db}: the database every command shares; SQLite in the Assay home by default. */
final class DatabaseOption implements EnvironmentFactory.NeedsEnvironment {
    @Option(
            names = "--db",
            paramLabel = "<jdbc-url>",
            description = "Database: jdbc:sqlite:FILE or jdbc:postgresql://HOST/DB "
                    + "(default: jdbc:sqlite:$ASSAY_HOME/assay.db, ASSAY_HOME defaulting to ~/.assay).")
    String url;

    private Map<String, String> env = Map.of();

    @Override
    public void environment(Map<String, String> environment) {
        this.env = environment;
    }

    Path home() {
        return AssayHome.of(env);
    }

    String url() {
        return url != null ? url : Stores.defaultUrl(home());
    }

    Store open() {
        return Stores.open(url());
    }
}
