package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.store.Stores;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of a CLI run: the run it leaves "running" is recognised at once (its process was of this host and has
 * ended; another host's is recognised by its silence) and shown as interrupted with counts equal to its stored items;
 * {@code --resume} continues it from its stored description, asking the model only for the cases without an item; then
 * it can be deleted.
 */
class KilledRunTest {
    @TempDir
    Path home;

    @Test
    void a_killed_run_is_shown_interrupted_then_resumed_without_repeating_its_finished_cases() throws Exception {
        var slow = new AtomicBoolean(true);
        try (var server = QuickThenSlowRun.model(slow::get)) {
            killOnceTheFirstItemIsPrinted(QuickThenSlowRun.start(home, server));
            slow.set(false);

            // Its process was of this host and has ended: known dead at once, long before a minute of silence.
            var cli = new CliRunner(home);
            JsonNode run = Json.parse(
                            cli.run("runs", "list", "--format", "json").out())
                    .at("/runs/0");
            assertThat(run.path("status").asText()).isEqualTo("interrupted");
            assertThat(run.path("error").path("type").asText()).isEqualTo("run.process_died");
            assertThat(run.path("counts").path("passed").asInt()).isEqualTo(1);
            assertThat(run.path("counts").path("total").asInt()).isEqualTo(4);
            String runId = run.path("run_id").asText();
            try (var store = Stores.open(Stores.defaultUrl(home))) {
                assertThat(store.countItems(runId)).isEqualTo(1);
            }

            int requestsBefore = server.requests().size();
            var resumed = cli.run("run", "--resume", runId, "--format", "json", "-q");

            assertThat(resumed.code()).as(resumed.err()).isZero();
            assertThat(server.requests().size() - requestsBefore).isEqualTo(3);
            JsonNode summary = Json.parse(resumed.out());
            assertThat(summary.path("run_id").asText()).isEqualTo(runId);
            JsonNode ended = Json.parse(
                            cli.run("runs", "list", "--format", "json").out())
                    .at("/runs/0");
            assertThat(ended.path("status").asText()).isEqualTo("finished");
            assertThat(ended.path("counts").path("passed").asInt()).isEqualTo(4);
            try (var store = Stores.open(Stores.defaultUrl(home))) {
                assertThat(store.countItems(runId)).isEqualTo(4);
            }
            assertThat(cli.run("runs", "delete", runId).code()).isZero();
        }
    }

    @Test
    void a_killed_run_can_be_given_up_with_runs_cancel_keeping_its_finished_items() throws Exception {
        var slow = new AtomicBoolean(true);
        try (var server = QuickThenSlowRun.model(slow::get)) {
            killOnceTheFirstItemIsPrinted(QuickThenSlowRun.start(home, server));
            String runId = Json.parse(new CliRunner(home)
                            .run("runs", "list", "--format", "json")
                            .out())
                    .at("/runs/0/run_id")
                    .asText();
            var cli = new CliRunner(home);
            var cancelled = cli.run("runs", "cancel", runId);

            assertThat(cancelled.code()).as(cancelled.err()).isZero();
            JsonNode run = Json.parse(
                            cli.run("runs", "list", "--format", "json").out())
                    .at("/runs/0");
            assertThat(run.path("status").asText()).isEqualTo("cancelled");
            assertThat(run.path("counts").path("passed").asInt()).isEqualTo(1);
            assertThat(cli.run("runs", "cancel", runId).code()).isEqualTo(ExitCodes.USAGE);
            assertThat(cli.run("runs", "delete", runId).code()).isZero();
        }
    }

    @Test
    void retry_errors_runs_again_only_the_items_in_error() throws Exception {
        var broken = new AtomicBoolean(true);
        try (var server = FlakyRun.model(broken::get)) {
            Path suite = Files.writeString(home.resolve("suite.jsonl"), """
                    {"id": "steady", "dimension": "common", "prompt": "steady", "checker": "contains", "expected": "ok"}
                    {"id": "flaky", "dimension": "common", "prompt": "flaky", "checker": "contains", "expected": "ok"}
                    """);
            var cli = new CliRunner(home).withEnv("NONE", "");
            String runId = FlakyRun.run(cli, suite, server);
            broken.set(false);
            int requestsBefore = server.requests().size();

            var retried = cli.run("run", "--retry-errors", runId, "--format", "json", "-q");

            assertThat(retried.code()).as(retried.err()).isZero();
            assertThat(server.requests().size() - requestsBefore).isEqualTo(1);
            assertThat(Json.parse(retried.out()).at("/counts/passed").asInt()).isEqualTo(2);
            assertThat(cli.run("run", "--resume", "no-such-run").err()).contains("run.not_found");
        }
    }

    /** SIGKILL once the run printed its first item: no shutdown hook, no last write. */
    private static void killOnceTheFirstItemIsPrinted(Process process) throws Exception {
        try (var reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.startsWith("[1/4]")) {
                    process.destroyForcibly();
                    break;
                }
            }
        }
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
}
