package dev.assay.report.internal;

import dev.assay.cost.ItemCost;
import dev.assay.report.Coverage;
import dev.assay.report.Reporter;
import dev.assay.report.RunReport;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.function.Predicate;

/**
 * {@code report.html}: a self-contained page (no scripts, no external resources) with the summary and every item, or,
 * for a run of more than {@value #LISTED} items, that many of them, those that did not pass first, so that the page
 * still opens in a browser; the rest are in {@code report.json}. Everything that came from a model or a case file is
 * HTML-escaped.
 */
public final class HtmlReporter implements Reporter {
    /** The most items a page lists: a browser handles a table of this size at once. */
    public static final int LISTED = 1000;

    @Override
    public String name() {
        return "html";
    }

    @Override
    public String fileName() {
        return "report.html";
    }

    @Override
    public void write(RunReport report, OutputStream out) throws IOException {
        var page = new StreamedText(out);
        StringBuilder html = page.text();
        Run run = report.run();
        html.append("""
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>Assay report</title>
                <style>
                body{font-family:system-ui,sans-serif;margin:1.5rem;color:#1d2330}
                table{border-collapse:collapse;margin:1rem 0;width:100%}
                th,td{border:1px solid #d5d9e0;padding:.35rem .5rem;text-align:left;vertical-align:top}
                th{background:#f3f5f8} td.num{text-align:right}
                .passed{color:#11733b}.failed,.error{color:#b42318}.partial{color:#9a6700}.skipped,.cancelled{color:#667085} td.never{color:#b42318}
                pre{white-space:pre-wrap;margin:0;max-height:12rem;overflow:auto}
                </style></head><body>
                """);
        html.append("<h1>Assay report: ")
                .append(escape(run.caseSet()))
                .append("</h1>\n<p>Run <code>")
                .append(escape(run.runId()))
                .append("</code> · ")
                .append(escape(run.status().wireName()))
                .append(" · target ")
                .append(escape(run.modelName()))
                .append(" · total <strong>")
                .append(ItemText.percent(run.totalScore()))
                .append("</strong> · scoring ")
                .append(escape(ItemText.scoring(run)))
                .append("</p>\n");
        report.matrix().ifPresent(matrix -> matrix(html, matrix));
        report.headToHead()
                .ifPresent(outcome -> html.append("<p>Head to head: ")
                        .append(escape(outcome.reason()))
                        .append("; ")
                        .append(outcome.casesUsed())
                        .append(" of ")
                        .append(outcome.casesPlanned())
                        .append(" cases used, ")
                        .append(outcome.casesSaved())
                        .append(" saved.</p>\n"));
        var cost = report.cost();
        html.append("<p>Cost ").append(escape(ItemText.cost(cost.total()))).append("</p>\n");
        var intervals = report.intervals();
        html.append("<table><tr><th>Dimension</th><th>Score</th><th>95% CI</th><th>Cost (USD)</th></tr>\n");
        run.dimensionScores()
                .forEach((dimension, score) -> html.append("<tr><td>")
                        .append(escape(dimension))
                        .append("</td><td class=num>")
                        .append(ItemText.percent(score))
                        .append("</td><td class=num>")
                        .append(escape(ItemText.interval(intervals, dimension)))
                        .append("</td><td class=num>")
                        .append("%.6f"
                                .formatted(cost.byDimension()
                                        .getOrDefault(dimension, ItemCost.NONE)
                                        .totalUsd()))
                        .append("</td></tr>\n"));
        var counts = run.counts();
        html.append("</table>\n<p>")
                .append(escape(ItemText.intervalNote(intervals)))
                .append("</p>\n<p>")
                .append(counts.passed())
                .append(" passed, ")
                .append(counts.partial())
                .append(" partial, ")
                .append(counts.failed())
                .append(" failed, ")
                .append(counts.error())
                .append(" error, ")
                .append(counts.skipped())
                .append(" skipped, ")
                .append(counts.cancelled())
                .append(" cancelled of ")
                .append(counts.total())
                .append(".</p>\n");
        List<Item> items = report.briefItems();
        if (items.size() > LISTED) {
            html.append("<p>")
                    .append(LISTED)
                    .append(" of ")
                    .append(items.size())
                    .append(" items are listed, those that did not pass first; every item is in "
                            + "<a href=\"report.json\">report.json</a> and on the run's page.</p>\n");
        }
        html.append("<table><tr><th>Case</th><th>Dimension</th><th>Status</th><th>Score</th><th>Reason</th>"
                + "<th>Final answer</th></tr>\n");
        // All items, or, for a large run, those that did not pass and then the others until the page is full. An ended
        // run's counts are those of its stored items, so the search for the items that did not pass stops once it has
        // found them all: a large run that passed whole is not read through for none.
        if (items.size() <= LISTED) {
            list(html, page, items, item -> true, LISTED);
        } else {
            int notPassed = run.status().isFinal() ? counts.completed() - counts.passed() : items.size();
            int listed =
                    list(html, page, items, item -> item.status() != ItemStatus.PASSED, Math.min(LISTED, notPassed));
            list(html, page, items, item -> item.status() == ItemStatus.PASSED, LISTED - listed);
        }
        html.append("</table>\n");
        coverage(html, report.coverage());
        html.append("</body></html>\n");
        page.finish();
    }

    /** The matrix of a run of several models: a row per model, its overall score, then a column per dimension. */
    private static void matrix(StringBuilder html, RunReport.Matrix matrix) {
        html.append("<table><tr><th>Model</th><th>Overall</th>");
        matrix.dimensions()
                .forEach(dimension ->
                        html.append("<th>").append(escape(dimension)).append("</th>"));
        html.append("</tr>\n");
        for (String label : matrix.labels()) {
            html.append("<tr><td>")
                    .append(escape(label))
                    .append("</td><td class=num><strong>")
                    .append(ItemText.percent(matrix.total(label)))
                    .append("</strong></td>");
            matrix.dimensions()
                    .forEach(dimension -> html.append("<td class=num>")
                            .append(ItemText.percent(matrix.score(label, dimension)))
                            .append("</td>"));
            html.append("</tr>\n");
        }
        html.append("</table>\n");
    }

    /** Lists the items {@code wanted} picks, in order, until {@code most} are; {@return how many were listed} */
    private static int list(StringBuilder html, StreamedText page, List<Item> items, Predicate<Item> wanted, int most)
            throws IOException {
        int listed = 0;
        for (int i = 0; i < items.size() && listed < most; i++) {
            Item item = items.get(i);
            if (wanted.test(item)) {
                row(html, item);
                listed++;
                page.flushIfFull();
            }
        }
        return listed;
    }

    private static void row(StringBuilder html, Item item) {
        html.append("<tr><td>")
                .append(escape(item.caseId()))
                .append("</td><td>")
                .append(escape(item.dimension()))
                .append("</td><td class=\"")
                .append(item.status().wireName())
                .append("\">")
                .append(item.status().wireName())
                .append("</td><td class=num>")
                .append("%.2f".formatted(item.score()))
                .append("</td><td>")
                .append(escape(ItemText.reason(item)))
                .append("</td><td><pre>")
                .append(escape(ItemText.cut(item.finalAnswer(), 2000)))
                .append("</pre></td></tr>\n");
    }

    private static void coverage(StringBuilder html, Coverage coverage) {
        html.append("<h2>Tool coverage</h2>\n<p>")
                .append(coverage.exercised().size())
                .append(" of ")
                .append(coverage.available().size())
                .append(" available tools exercised (")
                .append(ItemText.percent(coverage.exercisedShare()))
                .append(").</p>\n");
        html.append("<table><tr><th>Tool</th><th>Offered</th><th>Calls</th></tr>\n");
        coverage.calls()
                .forEach((tool, count) -> html.append("<tr><td>")
                        .append(escape(tool))
                        .append("</td><td>")
                        .append(coverage.available().contains(tool) ? "yes" : "no")
                        .append("</td><td class=\"num")
                        .append(count == 0 ? " never" : "")
                        .append("\">")
                        .append(count)
                        .append("</td></tr>\n"));
        html.append("</table>\n<table><tr><th>Tag</th><th>Cases</th><th>Passed</th><th>Partial</th><th>Failed</th>"
                + "<th>Error</th><th>Skipped</th></tr>\n");
        coverage.byTag()
                .forEach((tag, counts) -> html.append("<tr><td>")
                        .append(escape(tag))
                        .append("</td><td class=num>")
                        .append(counts.total())
                        .append("</td><td class=num>")
                        .append(counts.passed())
                        .append("</td><td class=num>")
                        .append(counts.partial())
                        .append("</td><td class=num>")
                        .append(counts.failed())
                        .append("</td><td class=num>")
                        .append(counts.error())
                        .append("</td><td class=num>")
                        .append(counts.skipped() + counts.cancelled())
                        .append("</td></tr>\n"));
        html.append("</table>\n");
        if (!coverage.skipped().isEmpty()) {
            html.append("<h3>Skipped cases</h3>\n<table><tr><th>Case</th><th>Reason</th></tr>\n");
            for (Coverage.Skip skip : coverage.skipped()) {
                html.append("<tr><td>")
                        .append(escape(skip.caseId()))
                        .append("</td><td>")
                        .append(escape(ItemText.skipReason(skip)))
                        .append("</td></tr>\n");
            }
            html.append("</table>\n");
        }
    }

    static String escape(String text) {
        if (text == null) {
            return "";
        }
        var out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
