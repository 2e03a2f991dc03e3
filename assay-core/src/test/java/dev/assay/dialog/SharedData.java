package dev.assay.dialog;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/** Finds the MemFin reference data ({@code shared/data/memfin}) by walking up from the working directory. */
final class SharedData {
    private SharedData() {}

    /** {@return the memfin data directory; aborts the test (skipped) with a clear message when absent} */
    static Path memfin() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared/data/memfin");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        Assumptions.abort("reference data shared/data/memfin not found above "
                + Path.of("").toAbsolutePath() + "; golden tests skipped");
        throw new IllegalStateException("unreachable");
    }
}
