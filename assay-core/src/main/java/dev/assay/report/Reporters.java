package dev.assay.report;

import dev.assay.AssayException;
import dev.assay.OwnerOnly;
import dev.assay.Plugins;
import dev.assay.internal.WholeFiles;
import dev.assay.report.internal.HtmlReporter;
import dev.assay.report.internal.JUnitReporter;
import dev.assay.report.internal.JsonReporter;
import dev.assay.report.internal.MarkdownReporter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reporters by name: the built-ins, plus those found on the class path ({@link Plugins}). Thread-safe (immutable). */
public final class Reporters {
    private final Plugins<Reporter> byName;

    private Reporters(Plugins<Reporter> byName) {
        this.byName = byName;
    }

    public static Reporters builtins() {
        return new Reporters(Plugins.load(
                Reporter.class,
                "report format",
                Reporter::name,
                List.of(new JsonReporter(), new MarkdownReporter(), new JUnitReporter(), new HtmlReporter())));
    }

    /** @throws AssayException {@code plugin.unknown} listing the known formats */
    public Reporter get(String name) {
        return byName.get(name, null);
    }

    public List<String> names() {
        return byName.names();
    }

    /**
     * {@return the files written: every format that writes for the run ({@link Reporter#writesFor}), into
     * {@code directory} (made owner-only when missing, the files owner-only)} Each file is written beside its name and
     * moved there once complete: the items are read from the store as the file is written, and a report cut short by a
     * failure must not pass for a whole one.
     */
    public List<Path> writeAll(RunReport report, Path directory) throws IOException {
        OwnerOnly.createDirectories(directory);
        var written = new ArrayList<Path>();
        for (Reporter reporter : byName.all()) {
            if (!reporter.writesFor(report)) {
                continue;
            }
            Path file = directory.resolve(reporter.fileName());
            WholeFiles.write(file, out -> reporter.write(report, out));
            written.add(file);
        }
        return written;
    }
}
