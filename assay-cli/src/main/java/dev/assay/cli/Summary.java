package dev.assay.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cost.CostTally;
import dev.assay.cost.ItemCost;
import dev.assay.dialog.DialogRunRecords;
import dev.assay.model.EndpointConcurrency;
import dev.assay.report.RunReport;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.score.Spread;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/** The run summary on stdout: a table for people, or one JSON object for scripts. */
final class Summary {
    private Summary() {}

    static void print(PrintWriter out, RunReport report, String format, Path reportDirectory) {
        Run run = report.run();
        if (format.equals("json")) {
            printJson(out, run, report.passAtK(), report.passHatK(), reportDirectory, report);
            return;
        }
        printTable(out, run, report, reportDirectory);
    }

    /**
     * The summary of a run whose report cannot be read because the database stayed away: the JSON object from what the
     * engine holds of the run (a script still learns its id, status and error); nothing for a table, whose reader has
     * the error line on stderr.
     */
    static void printUnreported(PrintWriter out, Run run, String format) {
        if (format.equals("json")) {
            printJson(out, run, Map.of(), Map.of(), null, null);
        }
    }

    private static void printJson(
            PrintWriter out,
            Run run,
            Map<Integer, Double> passAtK,
            Map<Integer, Double> passHatK,
            Path reportDirectory,
            RunReport report) {
        ObjectNode node = Json.object();
        node.put("run_id", run.runId());
        if (report != null) {
            node.put("cost_usd", report.cost().total().totalUsd());
            // The place of the cost, written streamed below: its by_case has an entry per case.
            node.putNull("cost");
        }
        node.put("status", run.status().wireName());
        node.putPOJO("total_score", run.totalScore());
        node.set("dimension_scores", Json.tree(run.dimensionScores()));
        node.set("counts", Json.tree(run.counts()));
        if (report != null) {
            node.set("intervals", Json.tree(report.intervals()));
        }
        if (!passAtK.isEmpty()) {
            node.set("pass_at_k", Json.tree(passAtK));
            node.set("pass_hat_k", Json.tree(passHatK));
        }
        if (!run.metrics().isEmpty()) {
            node.set("metrics", Json.tree(run.metrics()));
        }
        if (report != null) {
            report.matrix().ifPresent(matrix -> node.set("matrix", matrix.toJson()));
            report.headToHead().ifPresent(outcome -> node.set("head_to_head", outcome.toJson()));
        }
        if (run.error() != null) {
            node.set("error", Json.tree(run.error()));
        }
        node.put("report_dir", reportDirectory == null ? null : reportDirectory.toString());
        var throttled = EndpointConcurrency.throttledEndpoints();
        if (!throttled.isEmpty()) {
            ObjectNode endpoints = node.putObject("endpoints");
            throttled.forEach((endpoint, settled) -> endpoints
                    .putObject(endpoint)
                    .put("concurrency", settled.limit())
                    .put("rate_limited", settled.throttled()));
        }
        try (JsonGenerator json = Json.MAPPER.createGenerator(out).disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)) {
            json.writeStartObject();
            for (var field : node.properties()) {
                json.writeFieldName(field.getKey());
                if (report != null && field.getKey().equals("cost")) {
                    report.writeCost(json);
                } else {
                    json.writeTree(field.getValue());
                }
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.println();
    }

    private static void printTable(PrintWriter out, Run run, RunReport report, Path reportDirectory) {
        if (run.kind().equals(RunKind.DIALOG)) {
            printDialog(out, run, reportDirectory);
            return;
        }
        Counts counts = run.counts();
        // The cancelled column appears only when something was cancelled, so finished runs print as they always did.
        boolean anyCancelled = counts.cancelled() > 0;
        out.printf("%nRun %s  %s  %s%n", run.runId(), run.status().wireName(), TerminalText.line(run.modelName()));
        if (run.error() != null) {
            out.printf(
                    "Reason: %s (%s)%n",
                    TerminalText.line(run.error().message()), run.error().type());
        }
        // A promptfoo config's dimensions are its matrix's columns, "[provider] prompt": the column is as wide as they.
        int width = Math.max(
                10,
                report.countsByDimension().keySet().stream()
                        .mapToInt(dimension -> TerminalText.line(dimension).length())
                        .max()
                        .orElse(0));
        out.printf(
                "%-" + width + "s %8s %7s %8s %7s %6s %8s%s%n",
                "dimension",
                "score",
                "passed",
                "partial",
                "failed",
                "error",
                "skipped",
                anyCancelled ? " %9s".formatted("cancelled") : "");
        report.countsByDimension()
                .forEach((dimension, row) -> out.printf(
                        "%-" + width + "s %8s %7d %8d %7d %6d %8d%s%n",
                        TerminalText.line(dimension),
                        percent(run.dimensionScores().get(dimension)),
                        row.passed(),
                        row.partial(),
                        row.failed(),
                        row.error(),
                        row.skipped(),
                        anyCancelled ? " %9d".formatted(row.cancelled()) : ""));
        out.printf(
                "%-10s %8s %7d %8d %7d %6d %8d%s%n",
                "TOTAL",
                percent(run.totalScore()),
                counts.passed(),
                counts.partial(),
                counts.failed(),
                counts.error(),
                counts.skipped(),
                anyCancelled ? " %9d".formatted(counts.cancelled()) : "");
        out.println(extent(counts, run.elapsedS()) + "; skipped cases are left out of the scores, errors count as 0.");
        report.matrix().ifPresent(matrix -> printMatrix(out, matrix));
        report.headToHead()
                .ifPresent(outcome -> out.printf(
                        "Head to head: %s; %d of %d cases used, %d saved (%d items not run).%n",
                        TerminalText.line(outcome.reason()),
                        outcome.casesUsed(),
                        outcome.casesPlanned(),
                        outcome.casesSaved(),
                        outcome.itemsSaved()));
        printIntervals(out, report);
        printCost(out, report);
        if (!report.passAtK().isEmpty()) {
            var rates = new StringJoiner(", ");
            report.passAtK().forEach((k, value) -> {
                if (shownK(k, report.samples())) {
                    rates.add("pass@" + k + " = " + percent(value) + ", pass^" + k + " = "
                            + percent(report.passHatK().get(k)));
                }
            });
            out.printf(
                    "%d samples per case: %s%s%n",
                    report.samples(), rates, report.samples() > SHOWN_SAMPLES ? " (every k in the reports)" : "");
            printSampleSpreads(out, report);
        }
        EndpointConcurrency.throttledEndpoints()
                .forEach((endpoint, settled) -> out.printf(
                        "%s answered 429 to %d calls; Assay settled on %d calls at once to it.%n",
                        endpoint, settled.throttled(), settled.limit()));
        report.judgeWarnings().forEach(warning -> out.println("warning: " + TerminalText.line(warning)));
        if (reportDirectory != null) {
            out.println("Reports: " + reportDirectory.toAbsolutePath());
        }
    }

    /** A run of several models: a row per model, its overall score, then a column per dimension. */
    private static void printMatrix(PrintWriter out, RunReport.Matrix matrix) {
        int width = Math.max(
                5,
                matrix.labels().stream()
                        .mapToInt(label -> TerminalText.line(label).length())
                        .max()
                        .orElse(0));
        var header = new StringBuilder(("%-" + width + "s %8s").formatted("model", "overall"));
        matrix.dimensions()
                .forEach(dimension -> header.append(' ').append("%8s".formatted(TerminalText.line(dimension))));
        out.println(header);
        for (String label : matrix.labels()) {
            var row = new StringBuilder(
                    ("%-" + width + "s %8s").formatted(TerminalText.line(label), percent(matrix.total(label))));
            matrix.dimensions()
                    .forEach(dimension ->
                            row.append(' ').append("%8s".formatted(percent(matrix.score(label, dimension)))));
            out.println(row);
        }
    }

    /**
     * A dialog run's summary: its metrics M1–M5 (and the LLM judge's when it had one) by their headline values, the
     * total (the mean of M1–M5), and what became of its dialogs.
     */
    private static void printDialog(PrintWriter out, Run run, Path reportDirectory) {
        out.printf("%nRun %s  %s  %s%n", run.runId(), run.status().wireName(), run.modelName());
        out.printf("%-9s %-42s %8s%n", "dimension", "metric", "score");
        DialogRunRecords.dimensionNames().forEach((dimension, name) -> {
            if (run.dimensionScores().containsKey(dimension)) {
                out.printf(
                        "%-9s %-42s %8s%n",
                        dimension, name, percent(run.dimensionScores().get(dimension)));
            }
        });
        out.printf("%-9s %-42s %8s%n", "TOTAL", "mean of m1-m5", percent(run.totalScore()));
        Counts counts = run.counts();
        out.printf(
                Locale.ROOT,
                "%d dialogs in %.1f s: %d ok, %d partial, %d failed, %d skipped, %d cancelled%n",
                counts.total(),
                run.elapsedS(),
                counts.passed(),
                counts.partial() + counts.failed(),
                counts.error(),
                counts.skipped(),
                counts.cancelled());
        if (reportDirectory != null) {
            out.println("Reports: " + reportDirectory.toAbsolutePath());
        }
    }

    /**
     * Prints each dimension's 95 % interval and standard error as the run asks ({@link RunReport#intervals}): on one
     * line beside the scores above, or, when samples are reduced and the scores are no longer those above, a row each
     * with its score.
     */
    private static void printIntervals(PrintWriter out, RunReport report) {
        RunReport.Intervals intervals = report.intervals();
        if (intervals.dimensions().isEmpty()) {
            return;
        }
        if (intervals.reducer() != null) {
            printSpreads(
                    out,
                    "95% intervals, " + intervals.description() + " (k = " + report.samples() + ")",
                    intervals.dimensions());
            return;
        }
        var line = new StringJoiner(", ");
        intervals
                .dimensions()
                .forEach((dimension, spread) -> line.add(String.format(
                        Locale.ROOT,
                        "%s %.1f to %.1f (SE %.1f)",
                        TerminalText.line(dimension),
                        spread.low() * 100,
                        spread.high() * 100,
                        spread.stderr() * 100)));
        String over = intervals.clusterBy() == null ? "" : ", " + TerminalText.line(intervals.description());
        out.println("95% intervals" + over + ": " + line);
    }

    /** The run's cost on a line, then each dimension's and, for a run of a few cases, each case's. */
    private static void printCost(PrintWriter out, RunReport report) {
        CostTally cost = report.cost();
        ItemCost total = cost.total();
        var line = new StringJoiner(", ");
        total.costUsd().forEach((role, usd) -> line.add(role.wireName() + " %.6f".formatted(usd)));
        var tokens = total.totalUsage();
        out.println(String.format(
                Locale.ROOT,
                "Cost: %.6f USD (%s); %d input tokens (%d cached), %d output%s",
                total.totalUsd(),
                line.length() == 0 ? "no priced call" : line,
                tokens.inputTokens(),
                tokens.cachedInputTokens(),
                tokens.outputTokens(),
                total.unpriced().isEmpty() ? "" : "; no price for " + String.join(", ", total.unpriced())));
        var byDimension = new StringJoiner(", ");
        cost.byDimension()
                .forEach((dimension, spent) -> byDimension.add(
                        String.format(Locale.ROOT, "%s %.6f", TerminalText.line(dimension), spent.totalUsd())));
        if (byDimension.length() > 0) {
            out.println("Cost by dimension (USD): " + byDimension);
        }
        if (report.run().counts().total() <= (long) CASES_LISTED * report.samples()) {
            var byCase = new StringJoiner(", ");
            cost.eachCase(
                    report.briefItems(),
                    (caseId, spent) -> byCase.add(
                            String.format(Locale.ROOT, "%s %.6f", TerminalText.line(caseId), spent.totalUsd())));
            if (byCase.length() > 0) {
                out.println("Cost by case (USD): " + byCase);
            }
        }
    }

    /** Above this many cases the summary leaves the cost of each out (report.json's cost.by_case has it). */
    private static final int CASES_LISTED = 20;

    /**
     * {@return an item's score as {@code runs show} prints it: a capability item's score, or a dialog's M1–M5 values (a
     * metric with no eligible turn in the dialog as "-")}
     */
    static String itemScore(Run run, Item item) {
        if (!run.kind().equals(RunKind.DIALOG)) {
            return String.format(Locale.ROOT, "%5.2f", item.score());
        }
        Map<String, Double> values = DialogRunRecords.itemScores(item);
        var text = new StringJoiner(" ");
        DialogRunRecords.dimensionNames().keySet().forEach(dimension -> {
            Double value = values.get(dimension);
            if (value != null || !dimension.equals(DialogRunRecords.JUDGE_DIMENSION)) {
                text.add(dimension + " " + (value == null ? "-   " : String.format(Locale.ROOT, "%.2f", value)));
            }
        });
        return text.toString();
    }

    /** Up to this many samples, pass@k is printed for every k; past it, for the usual few and the last. */
    private static final int SHOWN_SAMPLES = 10;

    private static final int SHOWN_SPREADS = 10;

    private static final java.util.Set<Integer> USUAL_K = java.util.Set.of(1, 5, 10, 20, 50, 100, 200, 500);

    private static boolean shownK(int k, int samples) {
        return samples <= SHOWN_SAMPLES || k == samples || USUAL_K.contains(k);
    }

    /**
     * {@return what ran: "200 cases in 12.0 s" for a complete run, else how many of the selected cases ended, were
     * cancelled while running and never started}
     */
    static String extent(Counts counts, double elapsedS) {
        int ended = counts.completed() - counts.cancelled();
        int notStarted = counts.total() - counts.completed();
        if (counts.cancelled() == 0 && notStarted == 0) {
            return "%d cases in %.1f s".formatted(counts.total(), elapsedS);
        }
        return "%d of %d cases ran in %.1f s, %d cancelled while running, %d not started"
                .formatted(ended, counts.total(), elapsedS, counts.cancelled(), notStarted);
    }

    /**
     * Prints each dimension's score, standard error and 95 % interval under a title saying what they are over
     * ({@code runs show --cluster-by}, {@code --reducer}).
     */
    static void printSpreads(PrintWriter out, String title, Map<String, Spread> spreads) {
        out.printf("%n%s:%n", TerminalText.line(title));
        spreads.forEach((dimension, spread) -> out.printf(
                "%-10s %8s  SE %.1f  95%% CI %.1f to %.1f  (n = %d)%n",
                TerminalText.line(dimension),
                percent(spread.mean()),
                spread.stderr() * 100,
                spread.low() * 100,
                spread.high() * 100,
                spread.n()));
    }

    /** Prints the cases whose samples disagree, the most spread first, at most {@link #SHOWN_SPREADS}. */
    private static void printSampleSpreads(PrintWriter out, RunReport report) {
        var spread = report.sampleSpreads().entrySet().stream()
                .filter(entry -> entry.getValue().max() > entry.getValue().min())
                .sorted(Map.Entry.comparingByValue(Comparator.comparingDouble(RunReport.SampleSpread::stddev)
                        .reversed()))
                .toList();
        if (spread.isEmpty()) {
            return;
        }
        out.printf("%d cases whose samples disagree (passed/samples, mean, min-max, sd):%n", spread.size());
        spread.stream()
                .limit(SHOWN_SPREADS)
                .forEach(entry -> out.printf(
                        "  %-28s %d/%d  %s  %.2f-%.2f  %.2f%n",
                        TerminalText.line(entry.getKey()),
                        entry.getValue().passed(),
                        entry.getValue().samples(),
                        percent(entry.getValue().mean()),
                        entry.getValue().min(),
                        entry.getValue().max(),
                        entry.getValue().stddev()));
    }

    private static String percent(Double score) {
        return score == null ? "-" : "%.1f%%".formatted(score * 100);
    }
}
