package dev.assay.code;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Finds {@code shared/data} by walking up from the working directory (it sits beside the repository). */
final class SharedData {
    private SharedData() {}

    static Optional<Path> file(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared/data").resolve(relative);
            if (Files.exists(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
