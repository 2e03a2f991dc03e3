package dev.assay.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * The project's reference data ({@code ../shared/data} beside the repository), found by walking up from the working
 * directory. Users do not have it, so tests that need it skip with a clear message when it is absent.
 */
public final class SharedData {
    private SharedData() {}

    public static Optional<Path> find() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared/data");
            if (Files.isDirectory(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** {@return the path below shared/data}, or aborts the test (reported as skipped) saying what is missing */
    public static Path require(String relative) {
        Optional<Path> data = find();
        Assumptions.assumeTrue(
                data.isPresent(),
                "shared/data not found above " + Path.of("").toAbsolutePath() + ": skipping a test on reference data");
        Path path = data.get().resolve(relative);
        Assumptions.assumeTrue(Files.exists(path), "reference data missing: " + path + ": skipping");
        return path;
    }
}
