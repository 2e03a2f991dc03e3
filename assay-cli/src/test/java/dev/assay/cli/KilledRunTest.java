package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.store.Stores;
import dev.assay.testing.ScriptedOpenAiServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of a CLI run: the run it leaves "running" is recognised by its silence, shown as interrupted with
 * counts equal to its stored items, and can be deleted.
 */
class KilledRunTest {
    @TempDir
    Path home;

    @Test
    void a_killed_run_is_shown_interrupted_with_its_stored_items_and_can_be_deleted() throws Exception {
        try (var server =
                ScriptedOpenAiServer.start(request -> request.firstUserText().contains("quick")
                        ? ScriptedOpenAiServer.text("ok")
                        : new ScriptedOpenAiServer.Reply.Delayed(30_000, ScriptedOpenAiServer.text("late")))) {
            var lines = new StringBuilder("{\"id\": \"quick\", \"dimension\": \"common\", \"prompt\": \"quick\", "
                    + "\"checker\": \"contains\", \"expected\": \"ok\"}\n");
            for (int i = 0; i < 3; i++) {
                lines.append("{\"id\": \"slow")
                        .append(i)
                        .append("\", \"dimension\": \"common\", \"prompt\": \"slow ")
                        .append(i)
                        .append("\", \"checker\": \"contains\", \"expected\": \"ok\"}\n");
            }
            Path suite = Files.writeString(home.resolve("suite.jsonl"), lines);
            String java =
                    Path.of(System.getProperty("java.home"), "bin", "java").toString();
            var builder = new ProcessBuilder(
                    java,
                    "-cp",
                    System.getProperty("java.class.path"),
                    AssayCli.class.getName(),
                    "run",
                    suite.toString(),
                    "--model",
                    "openai:scripted",
                    "--base-url",
                    server.baseUrl(),
                    "--api-key-env",
                    "NONE",
                    "--concurrency",
                    "1",
                    "--verbose");
            builder.environment().put("ASSAY_HOME", home.toString());
            builder.redirectErrorStream(true);
            Process process = builder.start();
            try (var reader =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    if (line.startsWith("[1/4]")) {
                        process.destroyForcibly(); // SIGKILL: no shutdown hook, no last write
                        break;
                    }
                }
            }
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        var patient = new CliRunner(home);
        JsonNode stillRunning =
                Json.parse(patient.run("runs", "list", "--format", "json").out());
        assertThat(stillRunning.at("/runs/0/status").asText()).isEqualTo("running");
        String runId = stillRunning.at("/runs/0/run_id").asText();

        Thread.sleep(1_500);
        var quick = new CliRunner(home).withEnv("ASSAY_RUN_SILENCE_S", "1");
        JsonNode listed =
                Json.parse(quick.run("runs", "list", "--format", "json").out());

        JsonNode run = listed.at("/runs/0");
        assertThat(run.path("status").asText()).isEqualTo("interrupted");
        assertThat(run.path("error").path("type").asText()).isEqualTo("run.process_died");
        try (var store = Stores.open(Stores.defaultUrl(home))) {
            assertThat(store.countItems(runId)).isEqualTo(1);
        }
        assertThat(run.path("counts").path("passed").asInt()).isEqualTo(1);
        assertThat(run.path("counts").path("total").asInt()).isEqualTo(4);
        assertThat(quick.run("runs", "delete", runId).code()).isZero();
    }
}
