package dev.assay.report;

import java.io.IOException;
import java.io.OutputStream;

/** Writes a run in one format. Thread-safe (stateless). */
public interface Reporter {
    /** {@return the format's name as users type it: {@code json}, {@code markdown}, {@code junit}, {@code html}} */
    String name();

    /** {@return the file this format is written to in an output directory, e.g. {@code report.json}} */
    String fileName();

    void write(RunReport report, OutputStream out) throws IOException;

    /**
     * {@return whether an output directory of {@code report}'s run gets this format's file}: every run by default; a
     * format for one kind of run (promptfoo's results for a promptfoo config's run) says so. Asked by name, a format is
     * written for any run.
     */
    default boolean writesFor(RunReport report) {
        return true;
    }
}
