package dev.assay.dialog;

import java.util.Locale;
import java.util.Map;

/**
 * Renders a summary as Markdown in the reference's layout: title, run, dataset, counters, then per metric
 * Micro / Macro / Counts bullet lists, floats with 6 decimals (memfin-metrics.md §2.4). Thread-safe (stateless).
 */
public final class Report {
    private Report() {
    }

    /** {@return the report text} */
    public static String markdown(EvalSummary summary) {
        var out = new StringBuilder();
        Counters c = summary.counters();
        out.append("# MemFin Eval Report\n\n");
        out.append("- run_id: ").append(summary.runId()).append('\n');
        out.append("- dataset: ").append(summary.datasetPath()).append('\n');
        out.append("- counters: total_dialogs=").append(c.totalDialogs())
                .append(", valid_dialogs=").append(c.validDialogs())
                .append(", skipped_dialogs=").append(c.skippedDialogs())
                .append(", failed_dialogs=").append(c.failedDialogs())
                .append(", total_turn_pairs=").append(c.totalTurnPairs()).append("\n\n");
        summary.metrics().forEach((name, metric) -> {
            out.append("## ").append(name).append("\n\n");
            section(out, "Micro", metric.micro());
            section(out, "Macro", metric.macro());
            out.append("### Counts\n");
            metric.counts().forEach((key, value) -> out.append("- ").append(key).append(": ").append(value).append('\n'));
            out.append('\n');
        });
        return out.toString();
    }

    private static void section(StringBuilder out, String title, Map<String, Double> values) {
        out.append("### ").append(title).append('\n');
        values.forEach((key, value) -> out.append("- ").append(key).append(": ")
                .append(String.format(Locale.ROOT, "%.6f", value)).append('\n'));
        out.append('\n');
    }
}
