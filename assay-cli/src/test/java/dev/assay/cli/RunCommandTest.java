package dev.assay.cli;

import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.testing.ScriptedOpenAiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunCommandTest {
    private static final Path EXAMPLES = Path.of("..", "examples", "capability");

    @TempDir
    Path home;

    @Test
    void the_example_suite_runs_offline_against_mock_and_writes_reports() throws Exception {
        Path out = home.resolve("out");
        var result = new CliRunner(home)
                .run("run", EXAMPLES.toString(), "--model", "mock", "--out", out.toString(), "--quiet");
        assertThat(result.code()).as(result.err()).isEqualTo(0);
        assertThat(result.out()).contains("TOTAL", "tool", "logic", "common", "complex");
        JsonNode report = Json.MAPPER.readTree(out.resolve("report.json").toFile());
        assertThat(report.path("status").asText()).isEqualTo("finished");
        assertThat(report.path("counts").path("total").asInt()).isGreaterThanOrEqualTo(60);
        assertThat(report.path("items").size())
                .isEqualTo(report.path("counts").path("total").asInt());
        JsonNode item = report.path("items").get(0);
        for (String field : new String[] {
            "case_id",
            "dimension",
            "status",
            "score",
            "max_score",
            "weight",
            "final_answer",
            "tool_calls",
            "checker_detail",
            "error"
        }) {
            assertThat(item.has(field)).as(field).isTrue();
        }
        assertThat(item.path("final_answer").asText()).isEqualTo("mock response");
        JsonNode logic = report.path("dimension_stats").path("logic");
        assertThat(logic.path("n").asInt()).isGreaterThan(1);
        assertThat(logic.path("low").asDouble())
                .isLessThanOrEqualTo(logic.path("high").asDouble());
        assertThat(out.resolve("report.md")).exists();
        assertThat(out.resolve("junit.xml")).exists();
        assertThat(out.resolve("report.html")).exists();
        assertThat(Files.exists(home.resolve("assay.db"))).isTrue();
    }

    /** docs/checkers.md, difference S1/S2: the reference's weights, and its total over every dimension. */
    @Test
    void the_reference_scoring_preset_gives_the_reference_total_and_is_recorded_in_the_report() throws Exception {
        Path suite = Files.writeString(home.resolve("suite.jsonl"), """
                {"id": "said", "dimension": "common", "prompt": "Say it.", "checker": "exact", "expected": "mock response"}
                {"id": "other", "dimension": "logic", "prompt": "Say x.", "checker": "exact", "expected": "x"}
                """);
        Path own = home.resolve("own");
        Path reference = home.resolve("reference");
        var cli = new CliRunner(home);

        assertThat(cli.run("run", suite.toString(), "--model", "mock", "--out", own.toString(), "-q")
                        .code())
                .isZero();
        var result = cli.run(
                "run",
                suite.toString(),
                "--model",
                "mock",
                "--scoring",
                "reference",
                "--out",
                reference.toString(),
                "-q");

        assertThat(result.code()).as(result.err()).isZero();
        JsonNode report = Json.MAPPER.readTree(reference.resolve("report.json").toFile());
        assertThat(report.path("total_score").asDouble()).isCloseTo(0.15, within(1e-9));
        assertThat(report.at("/config/scoring").asText()).isEqualTo("reference");
        assertThat(Files.readString(reference.resolve("report.md"))).contains("reference");
        JsonNode ownReport = Json.MAPPER.readTree(own.resolve("report.json").toFile());
        assertThat(ownReport.path("total_score").asDouble()).isCloseTo(20.0 / 45, within(1e-9));
        assertThat(ownReport.at("/config/scoring").asText()).isEqualTo("assay");
        assertThat(cli.run("run", suite.toString(), "--model", "mock", "--scoring", "wunder", "-q")
                        .err())
                .contains("config.invalid_scoring");
    }

    /** docs/checkers.md, difference C9: the English article is read as an answer only under the reference's reading. */
    @Test
    void the_article_a_is_no_answer_unless_the_run_scores_as_the_reference() throws Exception {
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("This is a mock answer.")))) {
            Path suite = Files.writeString(home.resolve("suite.jsonl"), """
                    {"id": "pick", "dimension": "logic", "prompt": "A) 1 B) 2", "checker": "choice", "expected": "A"}
                    """);
            var cli = new CliRunner(home).withEnv("SCRIPTED_KEY", "sk-test");
            JsonNode own = null;
            JsonNode reference = null;
            for (String scoring : new String[] {"assay", "reference"}) {
                var result = cli.run(
                        "run",
                        suite.toString(),
                        "--model",
                        "openai:scripted",
                        "--base-url",
                        server.baseUrl(),
                        "--api-key-env",
                        "SCRIPTED_KEY",
                        "--scoring",
                        scoring,
                        "--out",
                        home.resolve(scoring).toString(),
                        "-q");
                assertThat(result.err()).doesNotContain("Exception");
                JsonNode item = Json.MAPPER
                        .readTree(home.resolve(scoring).resolve("report.json").toFile())
                        .path("items")
                        .get(0);
                if (scoring.equals("assay")) {
                    own = item;
                } else {
                    reference = item;
                }
            }
            assertThat(own.path("status").asText()).isEqualTo("failed");
            assertThat(own.at("/checker_detail/checks/0/error_type").asText()).isEqualTo("choice.no_answer");
            assertThat(reference.path("status").asText()).isEqualTo("passed");
            assertThat(reference.at("/checker_detail/checks/0/detail/rule").asText())
                    .isEqualTo("short_line");
        }
    }

    @Test
    void an_out_path_that_cannot_be_a_directory_is_refused_before_the_run_starts() throws Exception {
        Path out = Files.writeString(home.resolve("a-file"), "");

        var cli = new CliRunner(home);
        var result = cli.run("run", EXAMPLES.toString(), "--model", "mock", "--out", out.toString(), "--quiet");
        var below = cli.run(
                "run",
                EXAMPLES.toString(),
                "--model",
                "mock",
                "--out",
                out.resolve("reports").toString(),
                "--quiet");

        assertThat(result.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err().strip())
                .startsWith("error: --out " + out)
                .contains("a file of that name exists")
                .doesNotContain("\tat ");
        assertThat(below.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(below.err()).contains("--out").doesNotContain("\tat ");
        assertThat(Json.parse(cli.run("runs", "list", "--format", "json").out())
                        .path("total")
                        .asInt())
                .isZero();
    }

    @Test
    void an_openai_compatible_server_is_evaluated_and_the_threshold_decides_the_exit_code() throws Exception {
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("Paris")))) {
            Path suite = home.resolve("suite.jsonl");
            Files.writeString(suite, """
                    {"id": "capital", "dimension": "common", "prompt": "Capital of France?", "checker": "contains", "expected": "Paris"}
                    {"id": "colour", "dimension": "common", "prompt": "Colour of the sky?", "checker": "exact", "expected": "blue"}
                    """);
            var cli = new CliRunner(home).withEnv("SCRIPTED_KEY", "sk-test-secret");
            var met = cli.run(
                    "run",
                    suite.toString(),
                    "--model",
                    "openai:scripted",
                    "--base-url",
                    server.baseUrl(),
                    "--api-key-env",
                    "SCRIPTED_KEY",
                    "--threshold",
                    "0.5",
                    "--format",
                    "json",
                    "--quiet");
            assertThat(met.code()).as(met.err()).isEqualTo(0);
            JsonNode summary = Json.parse(met.out());
            assertThat(summary.path("total_score").asDouble()).isEqualTo(0.5);
            assertThat(summary.path("counts").path("passed").asInt()).isEqualTo(1);

            var missed = cli.run(
                    "run",
                    suite.toString(),
                    "--model",
                    "openai:scripted",
                    "--base-url",
                    server.baseUrl(),
                    "--api-key-env",
                    "SCRIPTED_KEY",
                    "--threshold",
                    "0.9",
                    "--quiet");
            assertThat(missed.code()).isEqualTo(1);
            assertThat(missed.err()).contains("threshold missed");

            var shown = cli.run("runs", "show", summary.path("run_id").asText(), "--format", "json");
            assertThat(shown.out())
                    .contains("\"api_key_env\" : \"SCRIPTED_KEY\"")
                    .doesNotContain("sk-test-secret");
        }
    }

    @Test
    void an_invalid_suite_is_refused_with_file_line_and_field() throws Exception {
        Path suite = home.resolve("bad.jsonl");
        Files.writeString(suite, """
                {"id": "ok", "dimension": "logic", "prompt": "2+2?", "checker": "exact", "expected": "4"}
                {"id": "bad", "dimension": "logic", "prompt": "x", "checker": "regex", "expected": "(unclosed"}
                """);
        var refused = new CliRunner(home).run("run", suite.toString(), "--model", "mock");
        assertThat(refused.code()).isEqualTo(2);
        assertThat(refused.err()).contains("bad.jsonl:2").contains("check.invalid_expected");
        // Each problem once, on a line of its own, and a last line that sums them up.
        assertThat(refused.err().lines().filter(line -> line.contains("bad.jsonl:2")))
                .singleElement()
                .asString()
                .startsWith("error: ");
        assertThat(refused.err()).doesNotContain("problems=");

        var skipped = new CliRunner(home).run("run", suite.toString(), "--model", "mock", "--skip-invalid", "-q");
        assertThat(skipped.code()).isEqualTo(0);
        assertThat(skipped.err()).contains("warning:");
    }

    @Test
    void the_public_openai_api_without_a_key_cannot_run() throws Exception {
        var result = new CliRunner(home)
                .run(
                        "run",
                        EXAMPLES.toString(),
                        "--model",
                        "openai:gpt-4o-mini",
                        "--api-key-env",
                        "ASSAY_TEST_UNSET_KEY",
                        "--limit",
                        "1");
        assertThat(result.code()).isEqualTo(3);
        assertThat(result.err()).contains("target.missing_api_key").contains("ASSAY_TEST_UNSET_KEY");
    }

    @Test
    void an_unknown_model_kind_is_a_usage_error_naming_the_known_ones() {
        var result = new CliRunner(home).run("run", EXAMPLES.toString(), "--model", "nonsense:x");
        assertThat(result.code()).isEqualTo(2);
        assertThat(result.err()).contains("plugin.unknown").contains("openai");
    }

    @Test
    void a_tool_named_that_is_not_there_is_a_usage_error_naming_the_tools() {
        var result = new CliRunner(home)
                .run("run", EXAMPLES.toString(), "--model", "mock", "--tools", "read_file,raed_file", "--limit", "1");

        assertThat(result.code()).as(result.err()).isEqualTo(2);
        assertThat(result.err())
                .contains("config.unknown_tool")
                .contains("raed_file")
                .contains("read_file, ")
                .doesNotContain("\tat ");
    }

    @Test
    void a_selection_that_matches_nothing_says_what_the_suite_holds() {
        var result = new CliRunner(home).run("run", EXAMPLES.toString(), "--model", "mock", "--dimensions", "nosuch");

        assertThat(result.code()).as(result.err()).isEqualTo(2);
        assertThat(result.err())
                .contains("suite.empty_selection")
                .contains("dimensions common, complex, logic, tool")
                .contains("languages en-US, zh-CN");
    }

    @Test
    void selection_options_limit_the_cases() throws Exception {
        var result = new CliRunner(home)
                .run(
                        "run",
                        EXAMPLES.toString(),
                        "--model",
                        "mock",
                        "--dimensions",
                        "logic",
                        "--language",
                        "en-US",
                        "--limit",
                        "3",
                        "--seed",
                        "7",
                        "--format",
                        "json",
                        "-q");
        assertThat(result.code()).as(result.err()).isEqualTo(0);
        JsonNode summary = Json.parse(result.out());
        assertThat(summary.path("counts").path("total").asInt()).isEqualTo(3);
        assertThat(summary.path("dimension_scores").fieldNames()).toIterable().containsExactly("logic");
    }

    @Test
    void samples_draw_several_answers_per_case_and_report_pass_at_k() throws Exception {
        var result = new CliRunner(home)
                .run(
                        "run",
                        EXAMPLES.toString(),
                        "--model",
                        "mock",
                        "--ids",
                        "logic_sequence_en",
                        "--samples",
                        "2",
                        "--format",
                        "json",
                        "-q");
        assertThat(result.code()).as(result.err()).isEqualTo(0);
        JsonNode summary = Json.parse(result.out());
        assertThat(summary.path("counts").path("total").asInt()).isEqualTo(2);
        assertThat(summary.path("pass_at_k").path("1").asDouble()).isEqualTo(0.0);
        assertThat(summary.path("pass_at_k").path("2").asDouble()).isEqualTo(0.0);
    }
}
