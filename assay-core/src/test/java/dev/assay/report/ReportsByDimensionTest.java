package dev.assay.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.report.internal.HtmlReporter;
import dev.assay.report.internal.JUnitReporter;
import dev.assay.report.internal.MarkdownReporter;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import dev.assay.result.ToolCallView;
import dev.assay.result.TrialId;
import dev.assay.score.Reducer;
import dev.assay.score.Spread;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The figures by dimension every format shows, and junit.xml's suites, from items of several dimensions interleaved.
 */
class ReportsByDimensionTest {
    private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");

    private static final List<Item> ITEMS = List.of(
            item(0, "tool", ItemStatus.PASSED),
            item(1, "logic", ItemStatus.FAILED),
            item(2, "tool", ItemStatus.ERROR),
            item(3, "common", ItemStatus.SKIPPED),
            item(4, "logic", ItemStatus.PARTIAL),
            item(5, "tool", ItemStatus.CANCELLED),
            item(6, "logic", ItemStatus.PASSED));

    private final RunReport report = new RunReport(run(), ITEMS);

    @Test
    void each_dimension_counts_its_own_items_by_status_in_alphabetical_order() {
        assertThat(report.countsByDimension())
                .containsExactly(
                        Map.entry("common", new Counts(1, 0, 0, 0, 1, 0, 0)),
                        Map.entry("logic", new Counts(3, 1, 1, 1, 0, 0, 0)),
                        Map.entry("tool", new Counts(3, 1, 0, 0, 0, 1, 1)));
        assertThat(report.spreads()).containsOnlyKeys("logic", "tool");
    }

    @Test
    void clustered_spreads_group_cases_by_a_field_of_the_case_file_or_a_tag() {
        // logic: c1 = 0 (scenario: x), c4 = 0.5 (tag scenario:x), c6 = 1 (no scenario: a cluster of its own).
        var cases = Map.of(
                "c1", clusterCase("c1", List.of(), Json.object().put("scenario", "x")),
                "c4", clusterCase("c4", List.of("scenario:x"), Json.object()),
                "c6", clusterCase("c6", List.of("other"), Json.object()));
        var clustered = report.spreads(null, "scenario", cases).get("logic");
        // Cluster sums of residuals -0.5 and 0.5, G = 2: SE = sqrt(2 · 0.5) / 3.
        assertThat(clustered.mean()).isEqualTo(0.5);
        assertThat(clustered.stderr()).isCloseTo(1.0 / 3, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(clustered.stderr())
                .isGreaterThan(report.spreads().get("logic").stderr());
        // One cluster for every case: no spread.
        assertThat(report.spreads(null, "dimension", cases).get("logic").stderr())
                .isZero();
    }

    @Test
    void reduced_spreads_count_each_case_once_in_its_cluster() {
        Run sampled = run(Json.object().put("samples", 2), List.of());
        var items = List.of(
                item(0, new TrialId("c1", 1), "logic", ItemStatus.PASSED, List.of()),
                item(1, new TrialId("c1", 2), "logic", ItemStatus.FAILED, List.of()),
                item(2, new TrialId("c2", 1), "logic", ItemStatus.FAILED, List.of()),
                item(3, new TrialId("c2", 2), "logic", ItemStatus.FAILED, List.of()),
                item(4, new TrialId("c3", 1), "logic", ItemStatus.PASSED, List.of()),
                item(5, new TrialId("c3", 2), "logic", ItemStatus.PASSED, List.of()));
        var cases = Map.of(
                "c1", clusterCase("c1", List.of(), Json.object().put("scenario", "x")),
                "c2", clusterCase("c2", List.of(), Json.object().put("scenario", "x")),
                "c3", clusterCase("c3", List.of(), Json.object().put("scenario", "y")));
        var report = new RunReport(sampled, items);

        // max: c1 = 1, c2 = 0, c3 = 1; clusters x {1, 0} and y {1}, residuals summed -1/3 + 1/3 = 0... and 1/3.
        Spread reduced = report.spreads(Reducer.MAX, "scenario", cases).get("logic");
        assertThat(reduced.n()).isEqualTo(3);
        assertThat(reduced.mean()).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(reduced.stderr())
                .isCloseTo(
                        Spread.clustered(List.of(1.0, 0.0, 1.0), List.of("=x", "=x", "=y"))
                                .stderr(),
                        within(1e-12));
        assertThat(report.spreads(Reducer.MAX, null, Map.of()).get("logic"))
                .isEqualTo(Spread.of(List.of(1.0, 0.0, 1.0)));
    }

    @Test
    void the_text_reports_show_the_intervals_the_run_asks_for() throws Exception {
        Run clustered = run(Json.object().put("cluster_by", "scenario"), List.of());
        var out = new ByteArrayOutputStream();
        new MarkdownReporter().write(new RunReport(clustered, ITEMS), out);
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("its standard error clustered by scenario \\(CR1\\)")
                .contains("| logic | 50.0% | 0.0%–100.0% (SE 28.9) |");

        Run reduced = run(Json.object().put("reducer", "max"), List.of());
        var html = new ByteArrayOutputStream();
        new HtmlReporter().write(new RunReport(reduced, ITEMS), html);
        assertThat(html.toString(StandardCharsets.UTF_8))
                .contains("<th>95% CI</th>")
                .contains("<td class=num>50.0%: 0.0%–100.0% (SE 28.9)</td>")
                .contains("each case&#39;s samples reduced by max");
    }

    private static dev.assay.cases.Case clusterCase(
            String id, List<String> tags, com.fasterxml.jackson.databind.node.ObjectNode attributes) {
        return new dev.assay.cases.Case(
                id,
                "logic",
                "",
                "?",
                1.0,
                null,
                List.of(dev.assay.cases.Check.of("exact", Json.parse("\"x\""))),
                List.of(),
                tags,
                Map.of(),
                attributes,
                null);
    }

    @Test
    void junit_has_a_suite_per_dimension_in_the_order_first_seen_each_holding_only_its_cases() throws Exception {
        var out = new ByteArrayOutputStream();
        new JUnitReporter().write(report, out);
        String xml = out.toString(StandardCharsets.UTF_8);

        assertThat(xml).contains("<testsuites name=\"assay bench\" tests=\"7\"");
        assertThat(xml.indexOf("<testsuite name=\"tool\""))
                .isLessThan(xml.indexOf("<testsuite name=\"logic\""))
                .isLessThan(xml.indexOf("<testsuite name=\"common\""));
        assertThat(suite(xml, "tool"))
                .startsWith("<testsuite name=\"tool\" tests=\"3\" failures=\"0\" errors=\"1\" skipped=\"1\">")
                .contains("name=\"c0\"", "name=\"c2\"", "name=\"c5\"")
                .doesNotContain("name=\"c1\"", "name=\"c3\"", "name=\"c4\"", "name=\"c6\"");
        assertThat(suite(xml, "logic"))
                .startsWith("<testsuite name=\"logic\" tests=\"3\" failures=\"2\" errors=\"0\" skipped=\"0\">")
                .contains("name=\"c1\"", "name=\"c4\"", "name=\"c6\"")
                .doesNotContain("name=\"c0\"", "name=\"c2\"", "name=\"c3\"", "name=\"c5\"");
        assertThat(suite(xml, "common"))
                .startsWith("<testsuite name=\"common\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\">")
                .contains("name=\"c3\"");
        assertThat(xml).endsWith("  </testsuite>\n</testsuites>\n");
    }

    @Test
    void markdown_rows_and_the_items_that_did_not_pass_come_from_the_counts() throws Exception {
        var out = new ByteArrayOutputStream();
        new MarkdownReporter().write(report, out);
        String markdown = out.toString(StandardCharsets.UTF_8);

        assertThat(markdown).contains("| logic | ").contains("| 1 | 1 | 1 | 0 | 0 |\n");
        assertThat(markdown).contains("| tool | ").contains("| 1 | 0 | 0 | 1 | 1 |\n");
        assertThat(markdown).contains("## Items that did not pass");
    }

    @Test
    void sampled_items_carry_their_cases_tags_into_the_coverage_counted_in_the_same_pass_as_the_other_figures() {
        Run sampled = run(Json.object().put("samples", 2), List.of("read_file", "write"));
        var items = List.of(
                item(
                        0,
                        new TrialId("c1", 1),
                        "tool",
                        ItemStatus.PASSED,
                        List.of(new ToolCallView("read_file", Json.object(), true))),
                item(1, new TrialId("c1", 2), "tool", ItemStatus.FAILED, List.of()),
                item(2, new TrialId("c2", 1), "logic", ItemStatus.SKIPPED, List.of()),
                item(3, new TrialId("c2", 2), "logic", ItemStatus.PASSED, List.of()));
        var tagged = new RunReport(sampled, items, Map.of("c1", List.of("builtin", "zeta"), "c2", List.of()));

        Coverage coverage = tagged.coverage();
        assertThat(coverage.byTag().keySet())
                .containsExactly("builtin", "mcp", "skill", "knowledge", "user", "shared", "zeta");
        assertThat(coverage.byTag().get("builtin")).isEqualTo(new Counts(2, 1, 1, 0, 0, 0, 0));
        assertThat(coverage.byTag().get("zeta")).isEqualTo(new Counts(2, 1, 1, 0, 0, 0, 0));
        assertThat(coverage.byTag().get("mcp")).isEqualTo(Counts.ZERO);
        assertThat(coverage.calls()).containsExactly(Map.entry("read_file", 1), Map.entry("write", 0));
        assertThat(coverage.exercised()).containsExactly("read_file");
        assertThat(coverage.neverCalled()).containsExactly("write");
        assertThat(coverage.skipped()).extracting(Coverage.Skip::caseId).containsExactly("c2#1");
        assertThat(tagged.countsByDimension())
                .containsExactly(
                        Map.entry("logic", new Counts(2, 1, 0, 0, 1, 0, 0)),
                        Map.entry("tool", new Counts(2, 1, 1, 0, 0, 0, 0)));
        assertThat(tagged.passAtK()).containsKeys(1, 2).containsEntry(1, 0.75);
    }

    private static String suite(String xml, String dimension) {
        int start = xml.indexOf("<testsuite name=\"" + dimension + "\"");
        return xml.substring(start, xml.indexOf("</testsuite>", start));
    }

    private static Run run() {
        return run(null, List.of());
    }

    private static Run run(JsonNode config, List<String> toolSnapshot) {
        return new Run(
                "r",
                RunKind.CAPABILITY,
                "",
                "openai:bench",
                "",
                RunStatus.FINISHED,
                "bench",
                "",
                config,
                toolSnapshot,
                Map.of("logic", 0.5, "tool", 0.5),
                0.5,
                new Counts(7, 2, 1, 1, 1, 1, 1),
                T0,
                T0.plusSeconds(1),
                1,
                null);
    }

    private static Item item(int seq, String dimension, ItemStatus status) {
        return item(seq, "c" + seq, dimension, status, List.of());
    }

    private static Item item(
            int seq, TrialId trial, String dimension, ItemStatus status, List<ToolCallView> toolCalls) {
        return item(seq, trial.toString(), dimension, status, toolCalls).withTrial(trial);
    }

    private static Item item(
            int seq, String caseId, String dimension, ItemStatus status, List<ToolCallView> toolCalls) {
        return new Item(
                "r",
                caseId,
                seq,
                dimension,
                status,
                status == ItemStatus.PASSED ? 1 : status == ItemStatus.PARTIAL ? 0.5 : 0,
                1,
                1,
                "question " + seq,
                "answer " + seq,
                toolCalls,
                Json.object(),
                status == ItemStatus.ERROR ? Problem.of("target.unreachable", "down") : null,
                Json.MAPPER.createArrayNode(),
                T0,
                T0.plusMillis(5),
                0.005,
                false);
    }
}
