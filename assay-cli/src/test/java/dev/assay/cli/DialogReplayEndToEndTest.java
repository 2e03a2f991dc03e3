package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code assay dialog run} end to end: the reference dialogs replayed against an OpenAI-compatible server. */
class DialogReplayEndToEndTest {
    @TempDir
    Path home;

    @Test
    void memfin_dialogs_replay_turn_by_turn_against_an_openai_compatible_server() throws Exception {
        Path dataset = SharedData.require("memfin/datasets/MemFinConv.jsonl");
        try (var server = ScriptedOpenAiServer.start(
                request -> ScriptedOpenAiServer.text("回复" + request.assistantTurns() + "：投资有风险，建议根据您的风险承受能力配置。"))) {
            var result = new CliRunner(home)
                    .run(
                            "dialog",
                            "run",
                            dataset.toString(),
                            "--model",
                            "openai:scripted",
                            "--base-url",
                            server.baseUrl(),
                            "--api-key-env",
                            "NO_KEY_NEEDED",
                            "--run-id",
                            "e2e",
                            "--out",
                            home.resolve("runs").toString(),
                            "--workers-dialog",
                            "2");
            assertThat(result.code()).as(result.err()).isZero();

            Path runDir = home.resolve("runs/e2e");
            List<String> traces = Files.readAllLines(runDir.resolve("dialog_trace.jsonl"));
            assertThat(traces).hasSize(2);
            JsonNode first = Json.parse(traces.get(0));
            JsonNode turns = first.path("turns");
            assertThat(turns.size()).isPositive();
            // Each turn's context holds the previous turns: the conversation is the model's memory.
            JsonNode second = turns.get(1);
            assertThat(second.path("pred_assistant_text").asText()).startsWith("回复1");
            assertThat(second.at("/recall/short_term_context").asText()).contains("回复0");
            // Each request carried the whole conversation so far.
            int maxMessages = server.requests().stream()
                    .mapToInt(body -> body.path("messages").size())
                    .max()
                    .orElseThrow();
            assertThat(maxMessages).isGreaterThan(3);

            JsonNode summary = Json.parse(Files.readString(runDir.resolve("metrics_summary.json")));
            assertThat(summary.toString()).contains("risk");
            assertThat(Files.readAllLines(runDir.resolve("turn_eval.jsonl"))).isNotEmpty();
            assertThat(new CliRunner(home).run("runs", "list").out())
                    .contains("e2e")
                    .contains("dialog");
        }
    }
}
