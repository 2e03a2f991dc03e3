package dev.assay.report;

import dev.assay.AssayException;
import dev.assay.Problem;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/** Reporters by name: the built-ins, plus those found through {@link ServiceLoader}. Thread-safe (immutable). */
public final class Reporters {
    private final Map<String, Reporter> byName = new LinkedHashMap<>();

    private Reporters() {}

    public static Reporters builtins() {
        var reporters = new Reporters();
        for (Reporter reporter :
                List.of(new JsonReporter(), new MarkdownReporter(), new JUnitReporter(), new HtmlReporter())) {
            reporters.byName.put(reporter.name(), reporter);
        }
        ServiceLoader.load(Reporter.class).forEach(reporter -> reporters.byName.put(reporter.name(), reporter));
        return reporters;
    }

    /** @throws AssayException {@code plugin.unknown} listing the known formats */
    public Reporter get(String name) {
        Reporter reporter = byName.get(name);
        if (reporter == null) {
            throw new AssayException(Problem.of(
                    "plugin.unknown",
                    "unknown report format '" + name + "'; known: " + String.join(", ", byName.keySet())));
        }
        return reporter;
    }

    public List<String> names() {
        return List.copyOf(byName.keySet());
    }

    /**
     * Writes every format into {@code directory}; {@return the files written} Each file is written beside its name and
     * moved there once complete: the items are read from the store as the file is written, and a report cut short by a
     * failure must not pass for a whole one.
     */
    public List<Path> writeAll(RunReport report, Path directory) throws IOException {
        Files.createDirectories(directory);
        var written = new ArrayList<Path>();
        for (Reporter reporter : byName.values()) {
            Path file = directory.resolve(reporter.fileName());
            Path partial = directory.resolve(reporter.fileName() + ".partial");
            try {
                try (OutputStream out = Files.newOutputStream(partial)) {
                    reporter.write(report, out);
                }
                Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(partial);
            }
            written.add(file);
        }
        return written;
    }
}
