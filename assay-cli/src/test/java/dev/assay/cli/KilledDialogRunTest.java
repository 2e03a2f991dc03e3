package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.store.Stores;
import dev.assay.testing.ScriptedOpenAiServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of {@code assay dialog run} in the middle of a dialog: {@code assay run --resume} continues the run
 * from its stored description, keeping the dialog that ended, replaying the answered turn of the interrupted dialog
 * from the run's stored answers, and ends with the metrics an uninterrupted run computes over the same data.
 */
class KilledDialogRunTest {
    /** Four turns: {@code quick}, {@code two} (its second turn is slow while the test holds it) and {@code last}. */
    private static final int TURNS = 4;

    @TempDir
    Path home;

    @Test
    void a_killed_dialog_run_is_resumed_with_each_dialog_stored_once_and_the_metrics_of_a_whole_run() throws Exception {
        Path dataset = Files.writeString(
                home.resolve("dialogs.jsonl"),
                String.join(
                                "\n",
                                dialog("quick", "quick 问"),
                                dialog("two", "two 问一", "two slow 问二"),
                                dialog("last", "last 问"))
                        + "\n");
        var slow = new AtomicBoolean(true);
        try (var model = ScriptedOpenAiServer.start(request -> {
            String asked =
                    ScriptedOpenAiServer.contentText(request.lastMessage().path("content"));
            return asked.contains("slow") && slow.get()
                    ? new ScriptedOpenAiServer.Reply.Delayed(30_000, ScriptedOpenAiServer.text("late"))
                    : ScriptedOpenAiServer.text("建议分散投资，注意波动风险");
        })) {
            Process process = QuickThenSlowRun.cli(home, dialogRun(dataset, model, "killed"));
            try (var reader =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    if (line.startsWith("dialog 1 quick")) {
                        break;
                    }
                }
            }
            Instant deadline = Instant.now().plusSeconds(20);
            while (model.requests().size() < 3 && Instant.now().isBefore(deadline)) {
                Thread.sleep(20);
            }
            assertThat(model.requests()).as("the slow turn is in flight").hasSize(3);
            process.destroyForcibly(); // SIGKILL: no shutdown hook, no last write
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            slow.set(false);
            Thread.sleep(1_500);
            var cli = new CliRunner(home).withEnv("ASSAY_RUN_SILENCE_S", "1");

            var resumed = cli.run("run", "--resume", "killed");

            assertThat(resumed.code()).as(resumed.err()).isZero();
            assertThat(model.requests())
                    .as("only the turn in flight at the kill is asked twice")
                    .hasSizeLessThanOrEqualTo(TURNS + 1);
            int before = model.requests().size();
            var whole = cli.run(dialogRun(dataset, model, "whole"));
            assertThat(whole.code()).as(whole.err()).isZero();
            assertThat(model.requests().size() - before).isEqualTo(TURNS);

            try (var store = Stores.open(Stores.defaultUrl(home))) {
                Run killed = store.findRun("killed").orElseThrow();
                Run uninterrupted = store.findRun("whole").orElseThrow();
                assertThat(killed.status().wireName()).isEqualTo("finished");
                List<Item> items = store.listItems("killed", 0, 100);
                assertThat(items).extracting(Item::caseId).containsExactly("quick", "two", "last");
                assertThat(items).extracting(item -> item.status().wireName()).containsOnly("passed");
                assertThat(killed.dimensionScores()).isEqualTo(uninterrupted.dimensionScores());
                assertThat(killed.config().at("/metrics_summary/metrics"))
                        .isEqualTo(uninterrupted.config().at("/metrics_summary/metrics"));
                assertThat(killed.config().path("resumed_dialogs").asInt()).isEqualTo(1);
            }
            Path runs = home.resolve("runs");
            assertThat(Files.readString(runs.resolve("killed/turn_eval.jsonl")))
                    .isEqualTo(Files.readString(runs.resolve("whole/turn_eval.jsonl"))
                            .replace("\"whole\"", "\"killed\""));
            JsonNode summary = Json.parse(Files.readString(runs.resolve("killed/metrics_summary.json")));
            JsonNode wholeSummary = Json.parse(Files.readString(runs.resolve("whole/metrics_summary.json")));
            assertThat(summary.path("metrics")).isEqualTo(wholeSummary.path("metrics"));
        }
    }

    /** {@return the arguments of {@code assay dialog run} replaying the dataset against the scripted model} */
    private String[] dialogRun(Path dataset, ScriptedOpenAiServer model, String runId) {
        return new String[] {
            "dialog",
            "run",
            dataset.toString(),
            "--model",
            "openai:scripted",
            "--base-url",
            model.baseUrl(),
            "--api-key-env",
            "NONE",
            "--run-id",
            runId,
            "--out",
            home.resolve("runs").toString()
        };
    }

    /** {@return a dataset line: a dialog with one assistant turn per user text, each asking for a risk disclosure} */
    private static String dialog(String id, String... userTexts) {
        ObjectNode dialog = Json.object().put("dialog_id", id).put("scenario_type", "投资教育");
        dialog.putObject("profile_gt").put("risk_level_gt", "稳健");
        ArrayNode turns = dialog.putArray("turns");
        for (String text : userTexts) {
            turns.addObject().put("role", "user").put("text", text).putNull("turn_tags");
            ObjectNode assistant = turns.addObject().put("role", "assistant").put("text", "参考回答");
            assistant
                    .putObject("turn_tags")
                    .putArray("risk_disclosure_required_gt")
                    .add("波动风险");
        }
        dialog.putObject("blueprint");
        return dialog.toString();
    }
}
