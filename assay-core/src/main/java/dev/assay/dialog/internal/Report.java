package dev.assay.dialog.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.dialog.Counters;
import dev.assay.dialog.EvalSummary;
import dev.assay.dialog.JudgeScores;
import dev.assay.dialog.MetricResult;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders a summary as Markdown in the reference's layout: title, run, dataset, counters, then per metric Micro / Macro
 * / Counts bullet lists, floats with 6 decimals (docs/dialog-metrics.md §1.4). Thread-safe (stateless).
 */
public final class Report {
    private Report() {}

    /** {@return the report text} */
    public static String markdown(EvalSummary summary) {
        var out = new StringBuilder();
        Counters c = summary.counters();
        out.append("# MemFin Eval Report\n\n");
        out.append("- run_id: ").append(summary.runId()).append('\n');
        out.append("- dataset: ").append(summary.datasetPath()).append('\n');
        out.append("- counters: total_dialogs=")
                .append(c.totalDialogs())
                .append(", valid_dialogs=")
                .append(c.validDialogs())
                .append(", skipped_dialogs=")
                .append(c.skippedDialogs())
                .append(", failed_dialogs=")
                .append(c.failedDialogs())
                .append(", total_turn_pairs=")
                .append(c.totalTurnPairs())
                .append("\n\n");
        summary.metrics().forEach((name, metric) -> {
            out.append("## ").append(name).append("\n\n");
            metric(out, metric);
        });
        return out.toString();
    }

    /**
     * {@return the report text with a section for the LLM judge's metric after the reference's metrics}
     *
     * @param summary the reference metrics
     * @param judge the judge's grades
     */
    public static String markdown(EvalSummary summary, JudgeScores judge) {
        var out = new StringBuilder(markdown(summary));
        ObjectNode how = judge.judge();
        out.append("## ")
                .append(judge.metric().metricName())
                .append(" (LLM judge, not part of the reference metrics)\n\n");
        for (String key :
                List.of("judge_model", "base_url", "temperature", "seed", "prompt_version", "rubric_version")) {
            out.append("- ")
                    .append(key)
                    .append(": ")
                    .append(how.path(key).asText())
                    .append('\n');
        }
        out.append('\n');
        metric(out, judge.metric());
        return out.toString();
    }

    private static void metric(StringBuilder out, MetricResult metric) {
        section(out, "Micro", metric.micro());
        section(out, "Macro", metric.macro());
        out.append("### Counts\n");
        metric.counts()
                .forEach((key, value) ->
                        out.append("- ").append(key).append(": ").append(value).append('\n'));
        out.append('\n');
    }

    private static void section(StringBuilder out, String title, Map<String, Double> values) {
        out.append("### ").append(title).append('\n');
        values.forEach((key, value) -> out.append("- ")
                .append(key)
                .append(": ")
                .append(String.format(Locale.ROOT, "%.6f", value))
                .append('\n'));
        out.append('\n');
    }
}
