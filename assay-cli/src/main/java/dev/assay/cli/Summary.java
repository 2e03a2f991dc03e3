package dev.assay.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.report.RunReport;
import dev.assay.run.Counts;
import dev.assay.run.Item;
import dev.assay.run.Run;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/** The run summary on stdout: a table for people, or one JSON object for scripts. */
final class Summary {
    private Summary() {
    }

    static void print(PrintWriter out, RunReport report, String format, Path reportDirectory) {
        Run run = report.run();
        if (format.equals("json")) {
            ObjectNode node = Json.object();
            node.put("run_id", run.runId());
            node.put("status", run.status().wireName());
            node.putPOJO("total_score", run.totalScore());
            node.set("dimension_scores", Json.tree(run.dimensionScores()));
            node.set("counts", Json.tree(run.counts()));
            if (!report.passAtK().isEmpty()) {
                node.set("pass_at_k", Json.tree(report.passAtK()));
            }
            node.put("report_dir", reportDirectory == null ? null : reportDirectory.toString());
            out.println(Json.write(node));
            return;
        }
        Map<String, int[]> byDimension = new TreeMap<>();
        for (Item item : report.items()) {
            int[] counts = byDimension.computeIfAbsent(item.dimension(), dimension -> new int[5]);
            switch (item.status()) {
                case PASSED -> counts[0]++;
                case PARTIAL -> counts[1]++;
                case FAILED -> counts[2]++;
                case ERROR -> counts[3]++;
                case SKIPPED, CANCELLED -> counts[4]++;
            }
        }
        out.printf("%nRun %s  %s  %s%n", run.runId(), run.status().wireName(), run.modelName());
        out.printf("%-10s %8s %7s %8s %7s %6s %8s%n", "dimension", "score", "passed", "partial", "failed", "error",
                "skipped");
        byDimension.forEach((dimension, counts) -> out.printf("%-10s %8s %7d %8d %7d %6d %8d%n", dimension,
                percent(run.dimensionScores().get(dimension)), counts[0], counts[1], counts[2], counts[3], counts[4]));
        Counts counts = run.counts();
        out.printf("%-10s %8s %7d %8d %7d %6d %8d%n", "TOTAL", percent(run.totalScore()), counts.passed(),
                counts.partial(), counts.failed(), counts.error(), counts.skipped() + counts.cancelled());
        out.printf("%d cases in %.1f s; skipped cases are left out of the scores, errors count as 0.%n",
                counts.total(), run.elapsedS());
        if (!report.passAtK().isEmpty()) {
            var rates = new java.util.StringJoiner(", ");
            report.passAtK().forEach((k, value) -> rates.add("pass@" + k + " = " + percent(value)));
            out.printf("%d samples per case: %s%n", report.samples(), rates);
        }
        if (reportDirectory != null) {
            out.println("Reports: " + reportDirectory.toAbsolutePath());
        }
    }

    private static String percent(Double score) {
        return score == null ? "-" : "%.1f%%".formatted(score * 100);
    }
}
