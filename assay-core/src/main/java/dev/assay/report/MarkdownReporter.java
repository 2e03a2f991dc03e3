package dev.assay.report;

import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import java.io.IOException;
import java.io.OutputStream;

/**
 * {@code report.md}: the summary table, counts, and every item that did not pass with its reason, up to
 * {@value #LISTED} of them (the rest are in {@code report.json}).
 */
final class MarkdownReporter implements Reporter {
    /** The most items that did not pass a report lists: past this, a table is no longer read. */
    static final int LISTED = 1000;

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
        md.append("# Assay report: ").append(cell(run.caseSet())).append("\n\n");
        md.append("- Run: `")
                .append(run.runId())
                .append("` (")
                .append(run.status().wireName())
                .append(")\n");
        md.append("- Target: ").append(cell(run.modelName())).append('\n');
        md.append("- Case set version: `").append(run.caseSetVersion()).append("`\n");
        md.append("- Scoring: ").append(ItemText.scoring(run)).append('\n');
        md.append("- Started: ")
                .append(run.startedAt())
                .append(", elapsed ")
                .append("%.1f s".formatted(run.elapsedS()))
                .append("\n\n");
        md.append("| Dimension | Score | 95% CI | Passed | Partial | Failed | Error | Skipped |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        var spreads = report.spreads();
        report.countsByDimension()
                .forEach((dimension, row) -> md.append("| ")
                        .append(cell(dimension))
                        .append(" | ")
                        .append(ItemText.percent(run.dimensionScores().get(dimension)))
                        .append(" | ")
                        .append(interval(spreads.get(dimension)))
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
        md.append("Skipped and cancelled cases are left out of the scores; errors count as 0. The 95% interval is "
                + "Student's t over the dimension's item scores, taken as independent.\n\n");
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
                        .append(cell(item.caseId()))
                        .append(" | ")
                        .append(cell(item.dimension()))
                        .append(" | ")
                        .append(item.status().wireName())
                        .append(" | ")
                        .append("%.2f".formatted(item.score()))
                        .append(" | ")
                        .append(cell(ItemText.cut(ItemText.reason(item), 200)))
                        .append(" | ")
                        .append(cell(ItemText.cut(item.finalAnswer(), 120)))
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
                            .append(cell(tool))
                            .append(" | ")
                            .append(coverage.available().contains(tool) ? "yes" : "no")
                            .append(" | ")
                            .append(count)
                            .append(" |\n"));
            md.append('\n');
        }
        if (!coverage.neverCalled().isEmpty()) {
            md.append("Never called: ")
                    .append(cell(String.join(", ", coverage.neverCalled())))
                    .append("\n\n");
        }
        md.append(
                "| Tag | Cases | Passed | Partial | Failed | Error | Skipped |\n|---|---:|---:|---:|---:|---:|---:|\n");
        coverage.byTag()
                .forEach((tag, counts) -> md.append("| ")
                        .append(cell(tag))
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
                        .append(cell(skip.caseId()))
                        .append(" | ")
                        .append(cell(ItemText.skipReason(skip)))
                        .append(" |\n");
            }
            md.append('\n');
        }
    }

    private static String interval(dev.assay.score.Spread spread) {
        return spread == null || spread.n() < 2
                ? "–"
                : ItemText.percent(spread.low()) + "–" + ItemText.percent(spread.high());
    }

    /** Model output may hold pipes, newlines and HTML; in a table cell it must stay inert text. */
    private static String cell(String text) {
        return text.replace("\\", "\\\\")
                .replace("|", "\\|")
                .replace("\r", "")
                .replace("\n", " ")
                .replace("<", "&lt;")
                .replace(">", "&gt;");
    }
}
