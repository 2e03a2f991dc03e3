package dev.assay.cli;

import dev.assay.dialog.EvalSummary;
import dev.assay.dialog.MetricResult;
import dev.assay.dialog.Scoring;
import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.run.RunListener;
import java.io.PrintWriter;
import java.util.Locale;

/** What a dialog run prints: a line per dialog as it ends, and the metrics of a scored run. */
final class DialogPrinter {
    private DialogPrinter() {}

    /** {@return a listener printing to {@code err} a line per dialog as it ends, and the run's log lines} */
    static RunListener progress(PrintWriter err) {
        return new RunListener() {
            @Override
            public void itemFinished(Run run, Item item) {
                err.println("dialog " + (item.seq() + 1) + " " + TerminalText.line(item.caseId()) + ": "
                        + item.status().wireName());
                err.flush();
            }

            @Override
            public void log(Run run, String message) {
                err.println("  " + TerminalText.line(message));
                err.flush();
            }
        };
    }

    static void printSummary(PrintWriter out, Scoring.Result result) {
        EvalSummary summary = result.summary();
        var c = summary.counters();
        out.printf(
                Locale.ROOT,
                "run %s: %d dialogs (%d valid, %d skipped, %d failed), %d turn pairs%n",
                summary.runId(),
                c.totalDialogs(),
                c.validDialogs(),
                c.skippedDialogs(),
                c.failedDialogs(),
                c.totalTurnPairs());
        summary.metrics().values().forEach(metric -> printMetric(out, metric));
        result.judge().ifPresent(judge -> {
            printMetric(out, judge.metric());
            out.println("judge errors: " + judge.metric().counts().get("judge_error_count"));
        });
        out.flush();
    }

    private static void printMetric(PrintWriter out, MetricResult metric) {
        var line = new StringBuilder(metric.metricName())
                .append(" (eligible ")
                .append(metric.counts().get("eligible_count"))
                .append("):");
        metric.micro()
                .forEach((key, value) ->
                        line.append(' ').append(key).append('=').append(String.format(Locale.ROOT, "%.6f", value)));
        out.println(line);
    }
}
