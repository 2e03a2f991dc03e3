package dev.assay.cli;

import java.nio.file.Path;
import java.util.Map;

/** Where Assay keeps its database and workspaces: {@code $ASSAY_HOME}, else {@code ~/.assay}. */
final class AssayHome {
    private AssayHome() {}

    static Path of(Map<String, String> env) {
        String configured = env.get("ASSAY_HOME");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        return Path.of(System.getProperty("user.home"), ".assay");
    }
}
