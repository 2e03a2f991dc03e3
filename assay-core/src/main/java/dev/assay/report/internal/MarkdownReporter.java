package dev.assay.report.internal;

import dev.assay.report.Coverage;
import dev.assay.report.Reporter;
import dev.assay.report.RunReport;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import java.io.IOException;
import java.io.OutputStream;

/**
 * {@code report.md}: the summary table, counts, and every item that did not pass with its reason, up to
 * {@value #LISTED} of them (the rest are in {@code report.json}).
 */
public final class MarkdownReporter implements Reporter {
    /** The most items that did not pass a report lists: past this, a table is no longer read. */
    static final int LISTED = 1000;

    /**
     * The marks that open links and images ({@code [ ] ( ) !}), emphasis and strikethrough ({@code * _ ~}), code
     * ({@code `}), headings ({@code #}), math ({@code $}), table cells ({@code |}), and the backslash that escapes.
     */
    private static final String MARKDOWN_MARKS = "\\`*_[]()!#|~$";

    @Override
    public String name() {
        return "markdown";
    }

    @Override
    public String fileName() {
        return "report.md";
    }

    @Override
    public void write(RunReport report, OutputStream out) throws IOException {
        var text = new StreamedText(out);
        StringBuilder md = text.text();
        Run run = report.run();
        md.append("# Assay report: ").append(literal(run.caseSet())).append("\n\n");
        md.append("- Run: `")
                .append(run.runId())
                .append("` (")
                .append(run.status().wireName())
                .append(")\n");
        md.append("- Target: ").append(literal(run.modelName())).append('\n');
        md.append("- Case set version: `").append(run.caseSetVersion()).append("`\n");
        md.append("- Scoring: ").append(literal(ItemText.scoring(run))).append('\n');
        md.append("- Started: ")
                .append(run.startedAt())
                .append(", elapsed ")
                .append("%.1f s".formatted(run.elapsedS()))
                .append("\n\n");
        md.append("| Dimension | Score | 95% CI | Passed | Partial | Failed | Error | Skipped |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        var intervals = report.intervals();
        report.countsByDimension()
                .forEach((dimension, row) -> md.append("| ")
                        .append(literal(dimension))
                        .append(" | ")
                        .append(ItemText.percent(run.dimensionScores().get(dimension)))
                        .append(" | ")
                        .append(ItemText.interval(intervals, dimension))
                        .append(" | ")
                        .append(row.passed())
                        .append(" | ")
                        .append(row.partial())
                        .append(" | ")
                        .append(row.failed())
                        .append(" | ")
                        .append(row.error())
                        .append(" | ")
                        .append(row.skipped() + row.cancelled())
                        .append(" |\n"));
        var counts = run.counts();
        md.append("| **Total** | **")
                .append(ItemText.percent(run.totalScore()))
                .append("** | | ")
                .append(counts.passed())
                .append(" | ")
                .append(counts.partial())
                .append(" | ")
                .append(counts.failed())
                .append(" | ")
                .append(counts.error())
                .append(" | ")
                .append(counts.skipped() + counts.cancelled())
                .append(" |\n\n");
        md.append("Skipped and cancelled cases are left out of the scores; errors count as 0. ")
                .append(literal(ItemText.intervalNote(intervals)))
                .append("\n\n");
        report.matrix().ifPresent(matrix -> matrix(md, matrix));
        report.headToHead()
                .ifPresent(outcome -> md.append("Head to head: ")
                        .append(literal(outcome.reason()))
                        .append("; ")
                        .append(outcome.casesUsed())
                        .append(" of ")
                        .append(outcome.casesPlanned())
                        .append(" cases used, ")
                        .append(outcome.casesSaved())
                        .append(" saved (")
                        .append(outcome.itemsSaved())
                        .append(" items not run).\n\n"));
        var cost = report.cost();
        md.append("- Cost: ").append(literal(ItemText.cost(cost.total()))).append('\n');
        cost.byDimension()
                .forEach((dimension, spent) -> md.append("- Cost of ")
                        .append(literal(dimension))
                        .append(": ")
                        .append(ItemText.usd(spent.totalUsd()))
                        .append('\n'));
        md.append('\n');
        if (!report.passAtK().isEmpty()) {
            md.append("pass@k over ")
                    .append(report.samples())
                    .append(" samples per case: ")
                    .append(ItemText.passAtK(report.passAtK()))
                    .append("\n\n");
        }
        coverage(md, report.coverage());
        long notPassed = report.countsByDimension().values().stream()
                .mapToLong(row -> row.total() - row.passed())
                .sum();
        if (notPassed > 0) {
            md.append("## Items that did not pass\n\n");
            if (notPassed > LISTED) {
                md.append("The first ")
                        .append(LISTED)
                        .append(" of ")
                        .append(notPassed)
                        .append("; every item is in report.json.\n\n");
            }
            md.append("| Case | Dimension | Status | Score | Reason | Final answer |\n");
            md.append("|---|---|---|---:|---|---|\n");
            int listed = 0;
            for (Item item : report.briefItems()) {
                if (item.status() == ItemStatus.PASSED) {
                    continue;
                }
                if (listed++ == LISTED) {
                    break;
                }
                md.append("| ")
                        .append(literal(item.caseId()))
                        .append(" | ")
                        .append(literal(item.dimension()))
                        .append(" | ")
                        .append(item.status().wireName())
                        .append(" | ")
                        .append("%.2f".formatted(item.score()))
                        .append(" | ")
                        .append(literal(ItemText.cut(ItemText.reason(item), 200)))
                        .append(" | ")
                        .append(literal(ItemText.cut(item.finalAnswer(), 120)))
                        .append(" |\n");
                text.flushIfFull();
            }
        }
        text.finish();
    }

    private static void coverage(StringBuilder md, Coverage coverage) {
        md.append("## Tool coverage\n\n");
        md.append(coverage.exercised().size())
                .append(" of ")
                .append(coverage.available().size())
                .append(" available tools exercised (")
                .append(ItemText.percent(coverage.exercisedShare()))
                .append(").\n\n");
        if (!coverage.calls().isEmpty()) {
            md.append("| Tool | Offered | Calls |\n|---|---|---:|\n");
            coverage.calls()
                    .forEach((tool, count) -> md.append("| ")
                            .append(literal(tool))
                            .append(" | ")
                            .append(coverage.available().contains(tool) ? "yes" : "no")
                            .append(" | ")
                            .append(count)
                            .append(" |\n"));
            md.append('\n');
        }
        if (!coverage.neverCalled().isEmpty()) {
            md.append("Never called: ")
                    .append(literal(String.join(", ", coverage.neverCalled())))
                    .append("\n\n");
        }
        md.append(
                "| Tag | Cases | Passed | Partial | Failed | Error | Skipped |\n|---|---:|---:|---:|---:|---:|---:|\n");
        coverage.byTag()
                .forEach((tag, counts) -> md.append("| ")
                        .append(literal(tag))
                        .append(" | ")
                        .append(counts.total())
                        .append(" | ")
                        .append(counts.passed())
                        .append(" | ")
                        .append(counts.partial())
                        .append(" | ")
                        .append(counts.failed())
                        .append(" | ")
                        .append(counts.error())
                        .append(" | ")
                        .append(counts.skipped() + counts.cancelled())
                        .append(" |\n"));
        md.append('\n');
        if (!coverage.skipped().isEmpty()) {
            md.append("### Skipped cases\n\n| Case | Reason |\n|---|---|\n");
            for (Coverage.Skip skip : coverage.skipped()) {
                md.append("| ")
                        .append(literal(skip.caseId()))
                        .append(" | ")
                        .append(literal(ItemText.skipReason(skip)))
                        .append(" |\n");
            }
            md.append('\n');
        }
    }

    /** The matrix of a run of several models: a row per model, its overall score, then a column per dimension. */
    private static void matrix(StringBuilder md, RunReport.Matrix matrix) {
        md.append("| Model | Overall |");
        matrix.dimensions()
                .forEach(dimension -> md.append(' ').append(literal(dimension)).append(" |"));
        md.append("\n|---|---:|");
        matrix.dimensions().forEach(dimension -> md.append("---:|"));
        md.append('\n');
        for (String label : matrix.labels()) {
            md.append("| ")
                    .append(literal(label))
                    .append(" | **")
                    .append(ItemText.percent(matrix.total(label)))
                    .append("** |");
            matrix.dimensions()
                    .forEach(dimension -> md.append(' ')
                            .append(ItemText.percent(matrix.score(label, dimension)))
                            .append(" |"));
            md.append('\n');
        }
        md.append('\n');
    }

    /**
     * Text Assay did not write (answers, checker messages, errors, case ids, names from the suite) as literal text
     * wherever it lands: a table cell, the title, a list item. report.md is rendered as a CI job summary or a merge
     * request comment, where Markdown in model output would be live: a link to anywhere, an image fetched from a remote
     * host (a tracking pixel), emphasis, math, a code span or fence that breaks the layout. Each ASCII mark that can
     * open such syntax is backslash-escaped, which CommonMark renders as the mark itself, the pipe among them so a cell
     * stays one cell; {@code <}, {@code >} and {@code &} become entities, so no HTML tag or entity forms; line breaks
     * become spaces, as a table row is one line.
     */
    private static String literal(String text) {
        var out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\r' -> {}
                case '\n' -> out.append(' ');
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                default -> {
                    if (MARKDOWN_MARKS.indexOf(c) >= 0) {
                        out.append('\\');
                    }
                    out.append(c);
                }
            }
        }
        return out.toString();
    }
}
