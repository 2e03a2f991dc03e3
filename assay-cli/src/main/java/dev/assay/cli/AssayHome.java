package dev.assay.cli;

import dev.assay.OwnerOnly;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where Assay keeps its database and workspaces: {@code $ASSAY_HOME}, else {@code ~/.assay}, {@code ~} being
 * {@code $HOME} as in the shell (and in the launcher, which finds plug-ins there), else the JVM's {@code user.home}.
 */
final class AssayHome {
    private AssayHome() {}

    static Path of(Map<String, String> env) {
        String configured = env.get("ASSAY_HOME");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        // user.home is the account's home from its entry, not $HOME: a CI job or container that sets HOME would
        // otherwise find its runs in a directory it did not name.
        String home = env.get("HOME");
        return Path.of(home != null && !home.isBlank() ? home : System.getProperty("user.home"), ".assay");
    }

    /**
     * {@return the home, created owner-only (0700) first when it does not exist}: it holds the database, transcripts,
     * workspaces and the server token, which other users of the machine must not read, and whatever writes into it
     * first would otherwise create it under the umask (0755 commonly). A home that exists keeps the mode its owner gave
     * it. Call it before anything is written into the home.
     */
    static Path createIfMissing(Path home) {
        try {
            OwnerOnly.createDirectories(home);
        } catch (IOException cannotCreate) {
            // Not this command's failure to report: what writes into the home reports that it cannot (the database as
            // store.unavailable), and a command that needs nothing there (its --db and --workspace-dir elsewhere)
            // runs as it would have.
        }
        return home;
    }
}
