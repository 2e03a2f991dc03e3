package dev.assay.cases;

import dev.assay.Plugins;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * A file format that holds a whole suite in a shape other than Assay's case files (a promptfoo config), found by name
 * through {@link Plugins} ({@code META-INF/services/dev.assay.cases.SuiteFormat}). {@link SuiteLoader} hands a path to
 * the first format that {@linkplain #reads reads} it. Implementations are thread-safe.
 */
public interface SuiteFormat {
    /** {@return the format's name, e.g. {@code promptfoo}} */
    String name();

    /** {@return whether {@code path} (a file, or a directory holding one) is in this format} */
    boolean reads(Path path);

    /**
     * {@return the suite {@code path} holds, with every problem found (file, line or key named)}
     *
     * @param checks validates each check's checker and expectation
     */
    SuiteLoad load(Path path, CheckValidator checks);

    /**
     * {@return the system under test the suite names itself, as {@code NAME:ARGUMENT} of a plug-in's subject (a
     * promptfoo config's providers)}, used when the run names none; empty when the suite names none
     */
    default Optional<String> subject(Path path) {
        return Optional.empty();
    }

    /** {@return the plug-ins' formats} */
    static Collection<SuiteFormat> all() {
        return Formats.ALL.all();
    }

    /** {@return the format that reads {@code path}, if a plug-in's does} */
    static Optional<SuiteFormat> of(Path path) {
        return all().stream().filter(format -> format.reads(path)).findFirst();
    }

    /** The formats found once per process. */
    final class Formats {
        private static final Plugins<SuiteFormat> ALL =
                Plugins.load(SuiteFormat.class, "suite format", SuiteFormat::name, List.of());

        private Formats() {}
    }
}
