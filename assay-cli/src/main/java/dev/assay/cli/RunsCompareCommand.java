package dev.assay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.report.RunComparison;
import dev.assay.result.Run;
import dev.assay.store.RunIds;
import dev.assay.store.Store;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code assay runs compare}: two runs over their shared cases, as a table or as JSON. */
@Command(
        name = "compare",
        mixinStandardHelpOptions = true,
        description = "Compare two runs over their shared cases: score deltas per dimension, changed verdicts, "
                + "and a paired test (McNemar) of whether B passes different cases than A.")
final class RunsCompareCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    DatabaseOption database;

    @Parameters(index = "0", paramLabel = "<run-a>", description = "The baseline run (a unique prefix is enough).")
    String runA;

    @Parameters(index = "1", paramLabel = "<run-b>", description = "The run compared with it.")
    String runB;

    @Option(names = "--format", paramLabel = "<format>", defaultValue = "table", description = "table or json.")
    OutputFormats.Table format;

    @Option(
            names = "--cluster-by",
            paramLabel = "<field>",
            description = "Cluster the paired interval by this case field (default: the one run B, else run A, "
                    + "was run with; else id, each case with its samples, when a run has several samples a case; "
                    + "none: cases taken as independent).")
    String clusterBy;

    @Override
    public Integer call() {
        try (Store store = database.open()) {
            Run a = store.findRun(RunIds.resolve(store, runA)).orElseThrow();
            Run b = store.findRun(RunIds.resolve(store, runB)).orElseThrow();
            var comparison =
                    clusterBy == null ? RunComparison.of(store, a, b) : RunComparison.of(store, a, b, clusterBy);
            PrintWriter out = spec.commandLine().getOut();
            if (format == OutputFormats.Table.json) {
                out.println(Json.write(comparison));
                return ExitCodes.OK;
            }
            out.printf(
                    "A %s  %s%nB %s  %s%n%n",
                    a.runId(), TerminalText.line(a.modelName()), b.runId(), TerminalText.line(b.modelName()));
            out.printf("%-12s %8s %8s %8s%n", "dimension", "A", "B", "B-A");
            comparison
                    .path("dimensions")
                    .forEach(row -> out.printf(
                            "%-12s %8s %8s %8s%n",
                            TerminalText.line(row.path("dimension").asText()),
                            points(row.path("a")),
                            points(row.path("b")),
                            points(row.path("delta"))));
            var total = comparison.path("total");
            out.printf(
                    "%-12s %8s %8s %8s%n",
                    "TOTAL", points(total.path("a")), points(total.path("b")), points(total.path("delta")));
            var paired = comparison.path("paired");
            out.printf(
                    "%n%d shared cases scored in both: %d passed in both, %d only in B, %d only in A, %d in "
                            + "neither; McNemar p = %.3g%nmean score change %s points (95%% CI %s to %s%s)%n",
                    paired.path("n").asInt(),
                    paired.path("both_passed").asInt(),
                    paired.path("only_b").asInt(),
                    paired.path("only_a").asInt(),
                    paired.path("neither").asInt(),
                    paired.path("mcnemar_p").asDouble(),
                    points(paired.path("mean_delta")),
                    points(paired.path("delta_low")),
                    points(paired.path("delta_high")),
                    paired.path("cluster_by").isTextual()
                            ? ", clustered by "
                                    + TerminalText.line(
                                            paired.path("cluster_by").asText()) + " in "
                                    + paired.path("clusters").asInt() + " clusters"
                            : "");
            out.println(paired.path("sentence").asText());
            int shown = 0;
            for (var change : comparison.path("changed")) {
                if (shown++ == 0) {
                    out.printf(
                            "%nchanged verdicts (%d):%n",
                            comparison.path("changed_count").asInt());
                }
                if (shown > 20) {
                    out.println("  ... (--format json lists them all)");
                    break;
                }
                out.printf(
                        "  %-28s %-9s -> %s%n",
                        TerminalText.line(change.path("case_id").asText()),
                        change.path("a_status").asText(),
                        change.path("b_status").asText());
            }
            return ExitCodes.OK;
        }
    }

    private static String points(JsonNode score) {
        return score.isNumber() ? "%.1f".formatted(score.asDouble() * 100) : "-";
    }
}
