package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run continued after its suite file changed would judge its kept items by the old cases and the rest by the new
 * ones: {@code --resume} and {@code --retry-errors} refuse it ({@code run.suite_changed}, a usage error) unless asked
 * to run the cases the run was started with ({@code --stored-cases}).
 */
class ChangedSuiteResumeTest {
    @TempDir
    Path home;

    @Test
    void a_run_whose_suite_file_changed_is_refused_and_continues_with_its_stored_cases_when_asked() throws Exception {
        var broken = new AtomicBoolean(true);
        try (var server = FlakyRun.model(broken::get)) {
            Path suite = Files.writeString(home.resolve("suite.jsonl"), """
                    {"id": "steady", "dimension": "common", "prompt": "steady", "checker": "contains", "expected": "ok"}
                    {"id": "flaky", "dimension": "common", "prompt": "flaky", "checker": "contains", "expected": "ok"}
                    {"id": "gone", "dimension": "common", "prompt": "gone", "checker": "contains", "expected": "ok"}
                    """);
            var cli = new CliRunner(home).withEnv("NONE", "");
            String runId = FlakyRun.run(cli, suite, server);
            broken.set(false);
            Files.writeString(suite, """
                    {"id": "steady", "dimension": "common", "prompt": "steady", "checker": "contains", "expected": "ok"}
                    {"id": "flaky", "dimension": "common", "prompt": "flaky", "checker": "contains", "expected": "nope"}
                    {"id": "fresh", "dimension": "common", "prompt": "fresh", "checker": "contains", "expected": "ok"}
                    """);
            int requestsBefore = server.requests().size();

            var resumed = cli.run("run", "--resume", runId, "--format", "json", "-q");
            var retried = cli.run("run", "--retry-errors", runId, "--format", "json", "-q");

            assertThat(resumed.code()).as(resumed.err()).isEqualTo(ExitCodes.USAGE);
            assertThat(resumed.err()).contains("run.suite_changed", "flaky", "fresh", "gone");
            assertThat(retried.code()).as(retried.err()).isEqualTo(ExitCodes.USAGE);
            assertThat(retried.err()).contains("run.suite_changed");
            assertThat(server.requests().size()).isEqualTo(requestsBefore);

            var stored = cli.run("run", "--retry-errors", runId, "--stored-cases", "--format", "json", "-q");

            assertThat(stored.code()).as(stored.err()).isZero();
            JsonNode summary = Json.parse(stored.out());
            assertThat(summary.at("/counts/total").asInt()).isEqualTo(3);
            assertThat(summary.at("/counts/passed").asInt())
                    .as("flaky judged by the expected value it was started with")
                    .isEqualTo(3);
            assertThat(server.requests().size() - requestsBefore).isEqualTo(1);
        }
    }

    @Test
    void a_run_whose_dataset_file_changed_is_refused_naming_the_changed_rows() throws Exception {
        var broken = new AtomicBoolean(true);
        try (var server = FlakyRun.model(broken::get)) {
            Path data = Files.writeString(home.resolve("data.csv"), """
                    id,question,answer
                    steady,steady,ok
                    flaky,flaky,ok
                    gone,gone,ok
                    """);
            var cli = new CliRunner(home).withEnv("NONE", "");
            var first = cli.run(
                    "run",
                    data.toString(),
                    "--id-field",
                    "id",
                    "--input-field",
                    "question",
                    "--target-field",
                    "answer",
                    "--checker",
                    "contains",
                    "--model",
                    "openai:scripted",
                    "--base-url",
                    server.baseUrl(),
                    "--api-key-env",
                    "NONE",
                    "--retries",
                    "0",
                    "--format",
                    "json",
                    "-q");
            assertThat(Json.parse(first.out()).at("/counts/error").asInt())
                    .as(first.out() + first.err())
                    .isEqualTo(1);
            String runId = Json.parse(first.out()).path("run_id").asText();
            broken.set(false);
            Files.writeString(data, """
                    id,question,answer
                    steady,steady,ok
                    flaky,flaky,nope
                    fresh,fresh,ok
                    """);
            int requestsBefore = server.requests().size();

            var resumed = cli.run("run", "--resume", runId, "--format", "json", "-q");

            assertThat(resumed.code()).as(resumed.err()).isEqualTo(ExitCodes.USAGE);
            assertThat(resumed.err()).contains("run.suite_changed", "flaky", "fresh", "gone");
            assertThat(resumed.err()).doesNotContain("steady");
            assertThat(server.requests().size()).isEqualTo(requestsBefore);
        }
    }

    @Test
    void stored_cases_without_a_run_to_continue_is_a_usage_error() {
        var given = new CliRunner(home).run("run", "suite.jsonl", "--model", "mock", "--stored-cases");

        assertThat(given.code()).isEqualTo(ExitCodes.USAGE);
    }
}
