package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.testing.ScriptedOpenAiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code assay run}'s cost: {@code --dry-run} and {@code --max-cost} with {@code --resume}, against a scripted model
 * whose answers use 10 prompt tokens (4 cached) and 5 completion tokens, priced by {@code assay.yaml} so that an answer
 * costs 0.018 USD.
 */
class CostCommandTest {
    @TempDir
    Path home;

    private Path suite() throws Exception {
        Path suite = home.resolve("suite.jsonl");
        Files.writeString(suite, """
                {"id": "a", "dimension": "logic", "prompt": "Say done, please.", "checker": "contains", "expected": "done"}
                {"id": "b", "dimension": "logic", "prompt": "Say done, please.", "checker": "contains", "expected": "done"}
                {"id": "c", "dimension": "tool", "prompt": "Say done, please.", "checker": "contains", "expected": "done"}
                """);
        return suite;
    }

    private Path config(ScriptedOpenAiServer server) throws Exception {
        return Files.writeString(home.resolve("assay.yaml"), """
                prices:
                  scripted: {input: 1000, cached_input: 500, output: 2000}
                targets:
                  local: {model: openai:scripted, base_url: %s, api_key_env: LOCAL_KEY}
                """.formatted(server.baseUrl()));
    }

    @Test
    void a_dry_run_calls_nothing_and_then_reads_what_past_runs_of_the_suite_cost() throws Exception {
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(ScriptedOpenAiServer.text("done")))) {
            Path config = config(server);
            var runner = new CliRunner(home);

            var first = runner.run(
                    "run",
                    suite().toString(),
                    "--config",
                    config.toString(),
                    "--target",
                    "local",
                    "--dry-run",
                    "--format",
                    "json");

            assertThat(first.code()).as(first.err()).isZero();
            assertThat(server.requests()).isEmpty();
            JsonNode fromPrompts = Json.parse(first.out());
            assertThat(fromPrompts.path("items").asInt()).isEqualTo(3);
            assertThat(fromPrompts.path("past_runs").asInt()).isZero();
            // 17 characters a prompt: 5 tokens each; 500 output tokens an item assumed.
            assertThat(fromPrompts.at("/by_role/0/input_tokens").asLong()).isEqualTo(15);
            assertThat(fromPrompts.at("/by_role/0/output_tokens").asLong()).isEqualTo(1500);

            assertThat(runner.run("run", suite().toString(), "--config", config.toString(), "--target", "local", "-q")
                            .code())
                    .isZero();
            int paid = server.requests().size();
            var second = runner.run(
                    "run",
                    suite().toString(),
                    "--config",
                    config.toString(),
                    "--target",
                    "local",
                    "--dry-run",
                    "--format",
                    "json");

            assertThat(server.requests()).hasSize(paid);
            JsonNode fromHistory = Json.parse(second.out());
            assertThat(fromHistory.path("past_runs").asInt()).isEqualTo(1);
            assertThat(fromHistory.path("estimated_cost_usd").asDouble()).isCloseTo(3 * 0.018, within(1e-12));
        }
    }

    @Test
    void answers_from_the_response_cache_cost_nothing_and_count_against_no_budget() throws Exception {
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(ScriptedOpenAiServer.text("done")))) {
            Path config = config(server);
            var runner = new CliRunner(home);
            String[] cached = {
                "run",
                suite().toString(),
                "--config",
                config.toString(),
                "--target",
                "local",
                "--cache",
                "--format",
                "json",
                "-q"
            };

            var paid = runner.run(cached);
            assertThat(paid.code()).as(paid.err()).isZero();
            assertThat(Json.parse(paid.out()).path("cost_usd").asDouble()).isCloseTo(3 * 0.018, within(1e-12));
            assertThat(server.requests()).hasSize(3);

            // Limits the calls sent would exceed at once: the cached answers spend nothing of them.
            var limited = java.util.stream.Stream.concat(
                            java.util.Arrays.stream(cached),
                            java.util.stream.Stream.of("--max-cost", "0.001", "--run-max-tokens", "1", "-c", "1"))
                    .toArray(String[]::new);
            var replayed = runner.run(limited);

            assertThat(replayed.code()).as(replayed.err()).isZero();
            assertThat(server.requests()).hasSize(3);
            JsonNode summary = Json.parse(replayed.out());
            assertThat(summary.path("status").asText()).isEqualTo("finished");
            assertThat(summary.at("/counts/passed").asInt()).isEqualTo(3);
            assertThat(summary.path("cost_usd").asDouble()).isZero();
            assertThat(summary.at("/cost/input_tokens").asLong()).isZero();
            assertThat(summary.at("/cost/by_role").isEmpty()).isTrue();
            assertThat(summary.at("/cost/from_response_cache/input_tokens").asLong())
                    .isEqualTo(30);
            assertThat(summary.at("/cost/from_response_cache/output_tokens").asLong())
                    .isEqualTo(15);
        }
    }

    @Test
    void max_cost_ends_the_run_interrupted_with_exit_3_and_resume_with_a_higher_limit_finishes_it() throws Exception {
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(ScriptedOpenAiServer.text("done")))) {
            Path config = config(server);
            var runner = new CliRunner(home);

            var stopped = runner.run(
                    "run",
                    suite().toString(),
                    "--config",
                    config.toString(),
                    "--target",
                    "local",
                    "-c",
                    "1",
                    "--max-cost",
                    "0.02",
                    "--format",
                    "json",
                    "-q");

            assertThat(stopped.code()).as(stopped.err()).isEqualTo(ExitCodes.CANNOT_RUN);
            JsonNode summary = Json.parse(stopped.out());
            assertThat(summary.path("status").asText()).isEqualTo("interrupted");
            assertThat(summary.at("/error/type").asText()).isEqualTo("run.budget_exhausted");
            assertThat(summary.path("cost_usd").asDouble()).isCloseTo(2 * 0.018, within(1e-12));
            assertThat(server.requests()).hasSize(2);

            var resumed = runner.run(
                    "run",
                    "--resume",
                    summary.path("run_id").asText(),
                    "--config",
                    config.toString(),
                    "--max-cost",
                    "1",
                    "--format",
                    "json",
                    "-q");

            assertThat(resumed.code()).as(resumed.err()).isZero();
            assertThat(Json.parse(resumed.out()).path("cost_usd").asDouble()).isCloseTo(3 * 0.018, within(1e-12));
            assertThat(server.requests()).hasSize(3);
        }
    }
}
