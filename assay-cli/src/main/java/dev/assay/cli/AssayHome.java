package dev.assay.cli;

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
}
