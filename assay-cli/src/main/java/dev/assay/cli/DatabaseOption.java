package dev.assay.cli;

import dev.assay.config.AssayConfig;
import dev.assay.run.SilentRuns;
import dev.assay.store.SqliteLibrary;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --db}: the database every command shares. Chosen in this one place, for every command that opens the store:
 * {@code --db}, else {@code defaults.db} of the command's assay.yaml ({@code --config} where the command has it, else
 * ./assay.yaml when it exists), else SQLite in the Assay home.
 */
final class DatabaseOption implements EnvironmentFactory.NeedsEnvironment {
    @Option(
            names = "--db",
            paramLabel = "<jdbc-url>",
            description = "Database: jdbc:sqlite:FILE or jdbc:postgresql://HOST/DB (default: assay.yaml's defaults.db, "
                    + "else jdbc:sqlite:$ASSAY_HOME/assay.db, ASSAY_HOME defaulting to ~/.assay).")
    String url;

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    private Map<String, String> env = Map.of();

    /** The database chosen without {@code --db}, once asked for: assay.yaml is read once per command. */
    private String chosen;

    @Override
    public void environment(Map<String, String> environment) {
        this.env = environment;
    }

    /** {@return the Assay home, created owner-only when it does not exist ({@link AssayHome#createIfMissing})} */
    Path home() {
        return AssayHome.createIfMissing(AssayHome.of(env));
    }

    /** {@return the database's JDBC URL: {@code --db}, else assay.yaml's {@code defaults.db}, else Assay's own} */
    String url() {
        if (url != null) {
            return url;
        }
        if (chosen == null) {
            AssayConfig config = ConfigurationFile.load(configFile());
            chosen = config != null && config.database() != null ? config.database() : Stores.defaultUrl(home());
        }
        return chosen;
    }

    /** {@return the command's {@code --config}; null when it has none or it was not given} */
    private Path configFile() {
        OptionSpec option = mixee == null ? null : mixee.findOption("--config");
        return option == null ? null : option.getValue();
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
