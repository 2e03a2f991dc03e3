package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.testing.ScriptedOpenAiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several models in one run ({@code --model A --model B}, {@code defaults.models}) and a head-to-head run that stops
 * when decided ({@code --versus B --stop-when-decided}), against scripted endpoints that answer "done" (which passes)
 * or "nope" (which fails).
 */
class SeveralModelsTest {
    @TempDir
    Path home;

    private Path suite(int cases) throws Exception {
        var lines = new StringBuilder();
        for (int i = 1; i <= cases; i++) {
            lines.append("{\"id\": \"c%d\", \"dimension\": \"%s\", \"prompt\": \"Say done, please.\", \"checker\": "
                            .formatted(i, i % 3 == 0 ? "tool" : "logic"))
                    .append("\"contains\", \"expected\": \"done\"}\n");
        }
        return Files.writeString(home.resolve("suite.jsonl"), lines.toString());
    }

    /** Answers "done" to the model named {@code good}, "nope" to any other. */
    private static ScriptedOpenAiServer.Script goodAndBad() {
        return request ->
                ScriptedOpenAiServer.text(request.body().path("model").asText().equals("good") ? "done" : "nope");
    }

    private CliRunner runner() {
        return new CliRunner(home).withEnv("LOCAL_KEY", "secret");
    }

    @Test
    void each_case_runs_against_each_model_and_the_summary_and_reports_show_a_matrix() throws Exception {
        try (var server = ScriptedOpenAiServer.start(goodAndBad())) {
            Path out = home.resolve("out");
            var result = runner().run(
                            "run",
                            suite(3).toString(),
                            "--model",
                            "openai:good",
                            "--model",
                            "openai:bad",
                            "--base-url",
                            server.baseUrl(),
                            "--api-key-env",
                            "LOCAL_KEY",
                            "--format",
                            "json",
                            "-o",
                            out.toString(),
                            "-q");

            assertThat(result.code()).as(result.err()).isZero();
            assertThat(server.requests()).hasSize(6);
            JsonNode summary = Json.parse(result.out());
            assertThat(summary.at("/counts/total").asInt()).isEqualTo(6);
            assertThat(summary.at("/matrix/dimensions").toString()).isEqualTo("[\"logic\",\"tool\"]");
            assertThat(summary.at("/matrix/models/0/label").asText()).isEqualTo("openai:good");
            assertThat(summary.at("/matrix/models/0/total_score").asDouble()).isEqualTo(1.0);
            assertThat(summary.at("/matrix/models/0/dimension_scores/tool").asDouble())
                    .isEqualTo(1.0);
            assertThat(summary.at("/matrix/models/1/label").asText()).isEqualTo("openai:bad");
            assertThat(summary.at("/matrix/models/1/total_score").asDouble()).isEqualTo(0.0);
            assertThat(summary.at("/dimension_scores/[openai:good] logic").asDouble())
                    .isEqualTo(1.0);

            JsonNode report = Json.parse(Files.readString(out.resolve("report.json")));
            assertThat(report.path("matrix")).isEqualTo(summary.path("matrix"));
            assertThat(report.at("/config/models/1/model").asText()).isEqualTo("openai:bad");
            assertThat(report.path("items").findValuesAsText("case_id"))
                    .contains("c1@openai:good", "c1@openai:bad", "c3@openai:bad");
            assertThat(Files.readString(out.resolve("report.md")))
                    .contains("| Model | Overall | logic | tool |", "| openai:bad | **0.0%** | 0.0% | 0.0% |");
            assertThat(Files.readString(out.resolve("report.html")))
                    .contains("<th>Model</th><th>Overall</th><th>logic</th><th>tool</th>");

            var table = runner().run(
                            "run",
                            suite(3).toString(),
                            "--model",
                            "openai:good",
                            "--model",
                            "openai:bad",
                            "--base-url",
                            server.baseUrl(),
                            "--api-key-env",
                            "LOCAL_KEY",
                            "-q");
            assertThat(table.out()).containsPattern("openai:good +100\\.0% +100\\.0% +100\\.0%");
        }
    }

    @Test
    void assay_yaml_names_several_models_each_at_its_own_target_endpoint() throws Exception {
        try (var good = ScriptedOpenAiServer.start(goodAndBad());
                var bad = ScriptedOpenAiServer.start(goodAndBad())) {
            Path config = Files.writeString(home.resolve("assay.yaml"), """
                    defaults:
                      models: [first, openai:bad]
                    targets:
                      first: {model: openai:good, base_url: %s, api_key_env: LOCAL_KEY}
                    """.formatted(good.baseUrl()));

            var result = runner().run(
                            "run",
                            suite(2).toString(),
                            "--config",
                            config.toString(),
                            "--base-url",
                            bad.baseUrl(),
                            "--api-key-env",
                            "LOCAL_KEY",
                            "--format",
                            "json",
                            "-q");

            assertThat(result.code()).as(result.err()).isZero();
            // The target's own endpoint wins over --base-url, which applies to the model that names none.
            assertThat(good.requests()).hasSize(2);
            assertThat(bad.requests()).hasSize(2);
            assertThat(Json.parse(result.out())
                            .at("/matrix/models/0/total_score")
                            .asDouble())
                    .isEqualTo(1.0);
        }
    }

    @Test
    void a_head_to_head_where_b_is_clearly_better_stops_early_with_b_the_winner() throws Exception {
        try (var server = ScriptedOpenAiServer.start(goodAndBad())) {
            var result = runner().run(
                            "run",
                            suite(40).toString(),
                            "--model",
                            "openai:bad",
                            "--versus",
                            "openai:good",
                            "--stop-when-decided",
                            "--base-url",
                            server.baseUrl(),
                            "--api-key-env",
                            "LOCAL_KEY",
                            "-c",
                            "1",
                            "--format",
                            "json",
                            "-q");

            assertThat(result.code()).as(result.err()).isZero();
            JsonNode summary = Json.parse(result.out());
            assertThat(summary.path("status").asText()).isEqualTo("finished");
            JsonNode outcome = summary.path("head_to_head");
            assertThat(outcome.path("verdict").asText()).isEqualTo("b_better");
            assertThat(outcome.path("stopped_early").asBoolean()).isTrue();
            int used = outcome.path("cases_used").asInt();
            assertThat(used).isBetween(1, 20);
            assertThat(outcome.path("decided_after_cases").asInt()).isEqualTo(used);
            assertThat(outcome.path("cases_planned").asInt()).isEqualTo(40);
            assertThat(outcome.path("cases_saved").asInt()).isEqualTo(40 - used);
            assertThat(outcome.path("reason").asText()).contains("openai:good (B) is better");
            assertThat(server.requests()).hasSize(2 * used);
        }
    }

    @Test
    void a_head_to_head_of_equal_endpoints_runs_every_case_and_stays_undecided() throws Exception {
        try (var first = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(ScriptedOpenAiServer.text("done")));
                var second =
                        ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(ScriptedOpenAiServer.text("done")))) {
            Path out = home.resolve("out");
            var result = runner().run(
                            "run",
                            suite(12).toString(),
                            "--model",
                            "openai:a",
                            "--versus",
                            "openai:b",
                            "--versus-base-url",
                            second.baseUrl(),
                            "--stop-when-decided",
                            "--base-url",
                            first.baseUrl(),
                            "--api-key-env",
                            "LOCAL_KEY",
                            "-o",
                            out.toString(),
                            "-q");

            assertThat(result.code()).as(result.err()).isZero();
            assertThat(first.requests()).hasSize(12);
            assertThat(second.requests()).hasSize(12);
            assertThat(result.out())
                    .contains("Head to head: the cases ran out before a decision", "12 of 12 cases used");
            JsonNode report = Json.parse(Files.readString(out.resolve("report.json")));
            assertThat(report.at("/head_to_head/verdict").asText()).isEqualTo("undecided");
            assertThat(report.at("/head_to_head/stopped_early").asBoolean()).isFalse();
            // The random order is kept with the run, so that a resumed run goes on in it.
            assertThat(report.at("/config/selection/seed").isIntegralNumber()).isTrue();
            assertThat(report.at("/config/stop_when_decided/alpha").asDouble()).isEqualTo(0.05);
        }
    }
}
