package dev.assay.cli;

import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.run.RunListener;
import java.io.PrintWriter;

/** One line per finished case on stderr, so stdout stays clean for the summary (and for --format json). */
final class ProgressPrinter implements RunListener {
    private final PrintWriter err;
    private final boolean quiet;

    ProgressPrinter(PrintWriter err, boolean quiet) {
        this.err = err;
        this.quiet = quiet;
    }

    @Override
    public void runStarted(Run run) {
        err.printf("run %s: %d cases of %s against %s%n", run.runId(), run.counts().total(), run.caseSet(),
                run.modelName());
        err.flush();
    }

    @Override
    public void itemFinished(Run run, Item item) {
        if (quiet) {
            return;
        }
        err.printf("[%d/%d] %-9s %s (%.1f s)%s%n", run.counts().completed(), run.counts().total(),
                item.status().wireName(), item.caseId(), item.elapsedS(),
                item.error() == null ? "" : " " + item.error().type());
        err.flush();
    }

    @Override
    public void log(Run run, String message) {
        if (!quiet) {
            err.println("  " + message);
            err.flush();
        }
    }
}
