package dev.assay.cli;

import dev.assay.run.SilentRuns;
import dev.assay.store.SqliteLibrary;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
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

    /** {@return the Assay home, created owner-only when it does not exist ({@link AssayHome#createIfMissing})} */
    Path home() {
        return AssayHome.createIfMissing(AssayHome.of(env));
    }

    String url() {
        return url != null ? url : Stores.defaultUrl(home());
    }

    /**
     * Opens the store and first ends the runs whose process died ({@link SilentRuns}), so every command shows them as
     * interrupted with counts equal to their stored items. {@code ASSAY_RUN_SILENCE_S} sets how long a run may be
     * silent before it is taken for dead (default 60).
     */
    Store open() {
        String url = url();
        if (url.startsWith("jdbc:sqlite:")) {
            SqliteLibrary.keepIn(home().resolve("cache"));
        }
        Store store = Stores.open(url);
        try {
            SilentRuns.interrupt(store, silence());
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        return store;
    }

    /** {@return how long a run may be silent before it is taken for dead} */
    Duration silence() {
        String seconds = env.get("ASSAY_RUN_SILENCE_S");
        if (seconds == null || seconds.isBlank()) {
            return SilentRuns.DEFAULT_SILENCE;
        }
        try {
            return Duration.ofMillis((long) (Double.parseDouble(seconds.strip()) * 1000));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "ASSAY_RUN_SILENCE_S must be a number of seconds, got '" + seconds + "'");
        }
    }
}
