package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.result.Counts;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import dev.assay.score.PairedComparison;
import dev.assay.store.Stores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunsCommandTest {
    @TempDir
    Path home;

    private String runOnce(CliRunner cli) throws Exception {
        Path suite = home.resolve("s.jsonl");
        Files.writeString(
                suite,
                "{\"id\": \"a\", \"dimension\": \"logic\", \"prompt\": \"q\", \"checker\": "
                        + "\"exact\", \"expected\": \"mock response\"}\n");
        var result = cli.run("run", suite.toString(), "--model", "mock", "--format", "json", "-q");
        assertThat(result.code()).as(result.err()).isZero();
        return Json.parse(result.out()).path("run_id").asText();
    }

    @Test
    void runs_are_listed_shown_by_prefix_and_deleted() throws Exception {
        var cli = new CliRunner(home);
        String runId = runOnce(cli);

        var list = cli.run("runs", "list", "--format", "json");
        JsonNode listed = Json.parse(list.out());
        assertThat(listed.path("total").asInt()).isEqualTo(1);
        assertThat(listed.at("/runs/0/run_id").asText()).isEqualTo(runId);
        assertThat(Json.parse(cli.run("runs", "list", "--kind", "dialog", "--format", "json")
                                .out())
                        .path("total")
                        .asInt())
                .isZero();

        var show = cli.run("runs", "show", runId.substring(0, 8));
        assertThat(show.code()).isZero();
        assertThat(show.out()).contains(runId).contains("passed");

        assertThat(cli.run("runs", "delete", runId).code()).isZero();
        var missing = cli.run("runs", "show", runId);
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("run.not_found");
    }

    @Test
    void the_table_shows_the_items_that_ended_out_of_those_selected_under_columns_that_fit_every_status()
            throws Exception {
        try (var store = Stores.open(Stores.defaultUrl(home))) {
            store.createRun(storedRun("killed", RunStatus.INTERRUPTED, new Counts(40, 10, 3, 1, 0, 2, 0)));
        }
        var cli = new CliRunner(home);

        var table = cli.run("runs", "list");
        var json = cli.run("runs", "list", "--format", "json");

        assertThat(table.code()).as(table.err()).isZero();
        String header = table.out().lines().findFirst().orElseThrow();
        String row = table.out()
                .lines()
                .filter(line -> line.startsWith("killed "))
                .findFirst()
                .orElseThrow();
        assertThat(row.substring(header.indexOf("status"))).startsWith("interrupted ");
        assertThat(row.substring(header.indexOf("kind"))).startsWith("capability ");
        assertThat(row.substring(header.indexOf("model"))).startsWith("m ");
        assertThat(row.substring(header.indexOf("case_set"))).startsWith("s ");
        assertThat(row).hasSameSizeAs(header).endsWith(" 16/40");
        JsonNode counts = Json.parse(json.out()).at("/runs/0/counts");
        assertThat(counts.path("total").asInt()).isEqualTo(40);
        assertThat(counts.path("passed").asInt()).isEqualTo(10);
    }

    private static Run storedRun(String runId, RunStatus status, Counts counts) {
        Instant started = Instant.parse("2026-11-27T08:00:00Z");
        return new Run(
                runId,
                RunKind.CAPABILITY,
                null,
                "m",
                null,
                status,
                "s",
                "v",
                null,
                null,
                null,
                null,
                counts,
                started,
                started.plusSeconds(60),
                60,
                null);
    }

    @Test
    void a_run_shown_as_json_prints_its_report_json_with_or_without_the_reports_written() throws Exception {
        var cli = new CliRunner(home);
        String runId = runOnce(cli);
        Path reports = home.resolve("reports");

        var written = cli.run("runs", "show", runId, "--format", "json", "--out", reports.toString());
        var alone = cli.run("runs", "show", runId, "--format", "json");

        assertThat(written.code()).as(written.err()).isZero();
        assertThat(written.out()).isEqualTo(Files.readString(reports.resolve("report.json")) + System.lineSeparator());
        assertThat(alone.out()).isEqualTo(written.out());
        assertThat(Json.parse(alone.out()).path("run_id").asText()).isEqualTo(runId);
    }

    @Test
    void a_run_another_process_is_running_is_not_deleted() throws Exception {
        String url = dev.assay.store.Stores.defaultUrl(home);
        try (var store = dev.assay.store.Stores.open(url)) {
            store.createRun(new dev.assay.result.Run(
                    "live",
                    null,
                    null,
                    "m",
                    null,
                    dev.assay.result.RunStatus.RUNNING,
                    "s",
                    "v",
                    null,
                    null,
                    null,
                    null,
                    null,
                    java.time.Instant.now(),
                    null,
                    0,
                    null));
        }

        var refused = new CliRunner(home).run("runs", "delete", "live");

        assertThat(refused.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(refused.err())
                .contains("run live is running", "run.still_running")
                .doesNotContain("\tat ");
        try (var store = dev.assay.store.Stores.open(url)) {
            assertThat(store.findRun("live")).isPresent();
        }
    }

    @Test
    void cases_validate_reports_every_problem_and_fails() throws Exception {
        Path suite = home.resolve("bad.yaml");
        Files.writeString(suite, """
                - id: one
                  dimension: logic
                  prompt: "?"
                  checker: choice
                  expected: Z9
                - id: two
                  dimension: logic
                  checker: exact
                  expected: x
                """);
        var result = new CliRunner(home).run("cases", "validate", suite.toString(), "--format", "json");
        assertThat(result.code()).isEqualTo(2);
        JsonNode report = Json.parse(result.out());
        assertThat(report.path("valid").asBoolean()).isFalse();
        assertThat(report.path("problems").size()).isGreaterThanOrEqualTo(2);
        // The bad expectation is named at its own line, not at the line its case starts on.
        assertThat(report.at("/problems/0/details/line").asInt()).isEqualTo(5);
    }

    @Test
    void cases_validate_accepts_the_example_suite() {
        var result = new CliRunner(home).run("cases", "validate", "../examples/capability");
        assertThat(result.code()).as(result.out()).isZero();
        assertThat(result.out()).contains("0 problem(s)");
    }

    @Test
    void two_runs_are_compared_with_a_paired_test() throws Exception {
        var cli = new CliRunner(home);
        String first = runOnce(cli);
        String second = runOnce(cli);

        var table = cli.run("runs", "compare", first.substring(0, 10), second);
        assertThat(table.code()).as(table.err()).isZero();
        assertThat(table.out()).contains("TOTAL").contains("McNemar p");
        JsonNode json = Json.parse(
                cli.run("runs", "compare", first, second, "--format", "json").out());
        assertThat(json.at("/paired/n").asInt()).isEqualTo(1);
        assertThat(json.at("/paired/both_passed").asInt()).isEqualTo(1);
        assertThat(json.path("changed_count").asInt()).isZero();
        assertThat(json.at("/paired/sentence").asText()).startsWith("no difference detected");
        assertThat(table.out()).contains("no difference detected");
    }

    @Test
    void plan_sizes_a_comparison_from_the_baseline_variance() throws Exception {
        var cli = new CliRunner(home);
        Path suite = home.resolve("four.jsonl");
        var lines = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            lines.append("{\"id\": \"c%d\", \"dimension\": \"logic\", \"prompt\": \"q\", \"checker\": \"exact\", "
                            .formatted(i))
                    .append("\"expected\": \"%s\"}\n".formatted(i < 2 ? "mock response" : "other"));
        }
        Files.writeString(suite, lines);
        var result = cli.run("run", suite.toString(), "--model", "mock", "--format", "json", "-q");
        String runId = Json.parse(result.out()).path("run_id").asText();

        var plan = cli.run("plan", "--baseline", runId, "--mde", "10", "--format", "json");
        assertThat(plan.code()).as(plan.err()).isZero();
        JsonNode json = Json.parse(plan.out());
        // s² = 1/3 (two of four pass); σ_D² = 2/3; (1.959964 + 0.841621)² · (2/3) / 0.1² = 523.3.
        assertThat(json.at("/options/0/cases").asLong()).isEqualTo(524);
        assertThat(json.path("baseline_cases").asInt()).isEqualTo(4);
        assertThat(cli.run("plan", "--baseline", runId, "--mde", "0").code()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void runs_show_gives_intervals_clustered_by_a_case_field() throws Exception {
        var cli = new CliRunner(home);
        String runId = runOnce(cli);
        var shown = cli.run("runs", "show", runId, "--cluster-by", "scenario");
        assertThat(shown.code()).as(shown.err()).isZero();
        assertThat(shown.out()).contains("95% intervals: logic").contains("clustered by scenario:");
        var reduced = cli.run("runs", "show", runId, "--reducer", "majority");
        assertThat(reduced.code()).as(reduced.err()).isZero();
        assertThat(reduced.out()).contains("samples reduced by majority (k = 1):");
        assertThat(cli.run("runs", "show", runId, "--reducer", "median").code()).isNotZero();
    }

    /**
     * Six logic cases in three scenarios: x passes twice, y fails twice, z once each ({@code expected} of the failing
     * ones is not what the mock answers); {@code allPass} makes every case pass.
     */
    private Path scenarios(String name, boolean allPass) throws Exception {
        var lines = new StringBuilder();
        String[] scenario = {"x", "x", "y", "y", "z", "z"};
        boolean[] passes = {true, true, false, false, true, false};
        for (int i = 0; i < 6; i++) {
            lines.append(("{\"id\": \"c%d\", \"dimension\": \"logic\", \"prompt\": \"q\", \"checker\": \"exact\", "
                            + "\"expected\": \"%s\", \"scenario\": \"%s\"}%n")
                    .formatted(i, allPass || passes[i] ? "mock response" : "other", scenario[i]));
        }
        return Files.writeString(home.resolve(name), lines);
    }

    /** CR1 with the scores 1 1 | 0 0 | 1 0 (mean 1/2): cluster residual sums 1, -1, 0; SE = sqrt(3/2 · 2) / 6. */
    private static final double CLUSTERED_SE = Math.sqrt(3) / 6;

    @Test
    void a_run_clustered_by_a_case_field_reports_clustered_intervals_everywhere() throws Exception {
        var cli = new CliRunner(home);
        Path out = home.resolve("out");
        var result = cli.run(
                "run",
                scenarios("six.jsonl", false).toString(),
                "--model",
                "mock",
                "--cluster-by",
                "scenario",
                "--out",
                out.toString(),
                "--format",
                "json",
                "-q");
        assertThat(result.code()).as(result.err()).isZero();
        JsonNode summary = Json.parse(result.out());
        assertThat(summary.at("/intervals/cluster_by").asText()).isEqualTo("scenario");
        assertThat(summary.at("/intervals/dimensions/logic/stderr").asDouble()).isCloseTo(CLUSTERED_SE, within(1e-12));

        JsonNode report = Json.MAPPER.readTree(out.resolve("report.json").toFile());
        assertThat(report.at("/intervals/dimensions/logic/stderr").asDouble()).isCloseTo(CLUSTERED_SE, within(1e-12));
        // The plain figure stays what it was: s / sqrt(n), s² = 6 · 1/4 / 5.
        assertThat(report.at("/dimension_stats/logic/stderr").asDouble()).isCloseTo(Math.sqrt(0.3 / 6), within(1e-12));
        assertThat(Files.readString(out.resolve("report.md"))).contains("clustered by scenario");

        // A stored run's reports use the field it was run with.
        String runId = summary.path("run_id").asText();
        var shown = cli.run("runs", "show", runId);
        assertThat(shown.out()).contains("95% intervals, clustered by scenario: logic 0.0 to 100.0 (SE 28.9)");
    }

    @Test
    void a_comparison_clusters_its_paired_interval_by_the_field_the_run_was_run_with() throws Exception {
        var cli = new CliRunner(home);
        String a = Json.parse(cli.run(
                                "run",
                                scenarios("a.jsonl", false).toString(),
                                "--model",
                                "mock",
                                "--format",
                                "json",
                                "-q")
                        .out())
                .path("run_id")
                .asText();
        var runB = cli.run(
                "run",
                scenarios("b.jsonl", true).toString(),
                "--model",
                "mock",
                "--cluster-by",
                "scenario",
                "--format",
                "json",
                "-q");
        String b = Json.parse(runB.out()).path("run_id").asText();

        // B − A: 0 0 | 1 1 | 0 1, mean 1/2, the same cluster residual sums as above; t with G − 1 = 2 degrees.
        JsonNode clustered =
                Json.parse(cli.run("runs", "compare", a, b, "--format", "json").out());
        assertThat(clustered.at("/paired/cluster_by").asText()).isEqualTo("scenario");
        assertThat(clustered.at("/paired/clusters").asInt()).isEqualTo(3);
        assertThat(clustered.at("/paired/mean_delta").asDouble()).isCloseTo(0.5, within(1e-12));
        assertThat(clustered.at("/paired/delta_low").asDouble()).isCloseTo(0.5 - 4.303 * CLUSTERED_SE, within(1e-12));
        assertThat(clustered.at("/paired/sentence").asText()).contains("over 3 clusters");
        var table = cli.run("runs", "compare", a, b);
        assertThat(table.out()).contains("clustered by scenario in 3 clusters");

        // Asked for by the case id alone, every case is a cluster of its own: the plain paired t-interval.
        JsonNode plain = Json.parse(cli.run("runs", "compare", a, b, "--cluster-by", "id", "--format", "json")
                .out());
        assertThat(plain.at("/paired/clusters").asInt()).isEqualTo(6);
        assertThat(plain.at("/paired/delta_low").asDouble())
                .isGreaterThan(clustered.at("/paired/delta_low").asDouble());
    }

    @Test
    void a_comparison_of_runs_with_samples_clusters_its_paired_interval_by_case() throws Exception {
        var cli = new CliRunner(home);
        String a = sampledRun(cli, scenarios("a.jsonl", false));
        String b = sampledRun(cli, scenarios("b.jsonl", true));

        JsonNode compared =
                Json.parse(cli.run("runs", "compare", a, b, "--format", "json").out());

        // B − A: three equal samples of 0 0 1 1 0 1; the six cases are the clusters, so the interval is the plain
        // paired t-interval of the six cases, wider than that of the 18 samples taken as independent.
        assertThat(compared.at("/paired/cluster_by").asText()).isEqualTo("id");
        assertThat(compared.at("/paired/clusters").asInt()).isEqualTo(6);
        assertThat(compared.at("/paired/n").asInt()).isEqualTo(18);
        var byCase = PairedComparison.of(deltas(1));
        var bySample = PairedComparison.of(deltas(3));
        assertThat(compared.at("/paired/delta_low").asDouble()).isCloseTo(byCase.deltaLow(), within(1e-12));
        assertThat(compared.at("/paired/delta_high").asDouble()).isCloseTo(byCase.deltaHigh(), within(1e-12));
        assertThat(byCase.deltaLow()).isLessThan(bySample.deltaLow());
        assertThat(cli.run("runs", "compare", a, b).out()).contains("clustered by id in 6 clusters");

        JsonNode independent = Json.parse(cli.run("runs", "compare", a, b, "--cluster-by", "none", "--format", "json")
                .out());
        assertThat(independent.at("/paired/cluster_by").isNull()).isTrue();
        assertThat(independent.at("/paired/delta_low").asDouble()).isCloseTo(bySample.deltaLow(), within(1e-12));
    }

    private String sampledRun(CliRunner cli, Path suite) {
        var result = cli.run("run", suite.toString(), "--model", "mock", "--samples", "3", "--format", "json", "-q");
        assertThat(result.code()).as(result.err()).isZero();
        return Json.parse(result.out()).path("run_id").asText();
    }

    /** {@return the pairs of {@link #scenarios} failing (a) and all passing (b), each case {@code samples} times} */
    private static List<PairedComparison.Pair> deltas(int samples) {
        boolean[] passesInA = {true, true, false, false, true, false};
        var pairs = new ArrayList<PairedComparison.Pair>();
        for (boolean passed : passesInA) {
            for (int sample = 0; sample < samples; sample++) {
                pairs.add(new PairedComparison.Pair(passed ? 1 : 0, 1, passed, true));
            }
        }
        return pairs;
    }

    @Test
    void a_run_with_a_reducer_counts_each_case_once_and_keeps_each_cases_spread_of_samples() throws Exception {
        var cli = new CliRunner(home);
        Path out = home.resolve("reduced");
        var result = cli.run(
                "run",
                scenarios("six.jsonl", false).toString(),
                "--model",
                "mock",
                "--samples",
                "3",
                "--reducer",
                "pass_hat_k",
                "--out",
                out.toString(),
                "-q");
        assertThat(result.code()).as(result.err()).isZero();
        assertThat(result.out()).contains("95% intervals, samples reduced by pass_hat_k (k = 3):");
        JsonNode report = Json.MAPPER.readTree(out.resolve("report.json").toFile());
        assertThat(report.at("/intervals/reducer").asText()).isEqualTo("pass_hat_k");
        assertThat(report.at("/intervals/dimensions/logic/n").asInt()).isEqualTo(6);
        assertThat(report.at("/dimension_stats/logic/n").asInt()).isEqualTo(18);
        assertThat(report.at("/case_samples/c0/samples").asInt()).isEqualTo(3);
        assertThat(cli.run("run", "x.jsonl", "--model", "mock", "--reducer", "median")
                        .code())
                .isEqualTo(ExitCodes.USAGE);
    }
}
