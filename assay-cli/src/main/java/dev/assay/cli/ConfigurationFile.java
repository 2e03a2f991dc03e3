package dev.assay.cli;

import dev.assay.config.AssayConfig;
import java.nio.file.Files;
import java.nio.file.Path;

/** The {@code assay.yaml} a command reads: the one {@code --config} names, else ./assay.yaml when it exists. */
final class ConfigurationFile {
    private static final Path IMPLICIT = Path.of("assay.yaml");

    private ConfigurationFile() {}

    /**
     * {@return the configuration {@code given} names, else ./assay.yaml's when it exists; null for none}
     *
     * @param given {@code --config}; null when not given
     */
    static AssayConfig load(Path given) {
        if (given != null) {
            return AssayConfig.load(given);
        }
        return Files.isRegularFile(IMPLICIT) ? AssayConfig.load(IMPLICIT) : null;
    }
}
