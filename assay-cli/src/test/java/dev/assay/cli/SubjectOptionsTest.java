package dev.assay.cli;

import static dev.assay.testing.ScriptedOpenAiServer.calls;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static dev.assay.testing.ScriptedSseAgent.event;
import static dev.assay.testing.ScriptedSseAgent.events;
import static dev.assay.testing.ScriptedSseAgent.writeFile;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.testing.ScriptedAnthropicServer;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.ScriptedOpenAiServer.Call;
import dev.assay.testing.ScriptedSseAgent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code assay run --agent}, {@code --model anthropic:}, {@code --replay} and {@code runs export}. */
class SubjectOptionsTest {
    @TempDir
    Path home;

    private Path suite;

    @BeforeEach
    void writeSuite() throws Exception {
        suite = home.resolve("suite.jsonl");
        Files.writeString(suite, """
                {"id": "capital", "dimension": "common", "prompt": "Capital of France?", "checker": "contains", "expected": "Paris"}
                {"id": "colour", "dimension": "common", "prompt": "Colour of the sky?", "checker": "exact", "expected": "blue"}
                {"id": "write", "dimension": "complex", "prompt": "Write the report", "checker": "file_contains", "expected": {"path": "out/report.txt", "contains": "revenue"}}
                """);
    }

    private static JsonNode report(Path out) throws Exception {
        return Json.MAPPER.readTree(out.resolve("report.json").toFile());
    }

    private static Map<String, String> statuses(JsonNode report) {
        var statuses = new LinkedHashMap<String, String>();
        report.path("items")
                .forEach(item -> statuses.put(
                        item.path("case_id").asText(), item.path("status").asText()));
        return statuses;
    }

    @Test
    void an_agent_service_is_evaluated_through_its_event_stream_and_shared_workspace() throws Exception {
        var replies = Map.of(
                "Capital", events(event("final", "{\"answer\": \"Paris\"}")),
                "Colour", events(event("final", "{\"answer\": \"red\"}")),
                "report",
                        events(
                                event("tool_call", "{\"tool\": \"写入文件\", \"args\": {\"path\": \"out/report.txt\"}}"),
                                writeFile("out/report.txt", "revenue up"),
                                event("final", "{\"answer\": \"done\"}")));
        try (var agent = ScriptedSseAgent.start(ScriptedSseAgent.byPrompt(replies, events()))) {
            Path out = home.resolve("out");
            Path shared = home.resolve("shared");
            var result = new CliRunner(home)
                    .withEnv("AGENT_KEY", "k-123")
                    .run(
                            "run",
                            suite.toString(),
                            "--agent",
                            agent.url(),
                            "--agent-model",
                            "qwen",
                            "--agent-auth-env",
                            "AGENT_KEY",
                            "--agent-workspace",
                            shared.toString(),
                            "--agent-config",
                            "{\"max_rounds\": 3}",
                            "--keep-workspaces",
                            "--out",
                            out.toString(),
                            "--quiet");

            assertThat(result.code()).as(result.err()).isEqualTo(0);
            JsonNode report = report(out);
            assertThat(statuses(report))
                    .containsExactly(
                            Map.entry("capital", "passed"),
                            Map.entry("colour", "failed"),
                            Map.entry("write", "passed"));
            assertThat(report.path("model_name").asText()).startsWith("sse_agent:");
            assertThat(report.at("/config/target/auth_env").asText()).isEqualTo("AGENT_KEY");
            assertThat(Json.write(report)).doesNotContain("k-123");
            JsonNode body = agent.requests().get(0).body();
            assertThat(body.path("model_name").asText()).isEqualTo("qwen");
            assertThat(body.at("/config_overrides/max_rounds").asInt()).isEqualTo(3);
            assertThat(body.path("workspace").asText())
                    .startsWith(shared.toAbsolutePath().toString());
        }
    }

    @Test
    void event_names_and_paths_are_configurable_from_the_command_line() throws Exception {
        try (var agent = ScriptedSseAgent.start(body -> events(event("done", "{\"result\": {\"text\": \"Paris\"}}")))) {
            Path out = home.resolve("out");
            var result = new CliRunner(home)
                    .run(
                            "run",
                            suite.toString(),
                            "--ids",
                            "capital",
                            "--agent",
                            agent.url(),
                            "--agent-event",
                            "final=done",
                            "--agent-path",
                            "final.answer=/result/text",
                            "--agent-body",
                            "{\"q\": \"{{prompt}}\"}",
                            "--out",
                            out.toString(),
                            "--quiet");

            assertThat(result.code()).as(result.err()).isEqualTo(0);
            assertThat(statuses(report(out))).containsEntry("capital", "passed");
            assertThat(agent.requests().get(0).body()).isEqualTo(Json.parse("{\"q\": \"Capital of France?\"}"));
        }
    }

    @Test
    void an_anthropic_model_is_evaluated_with_the_key_from_its_default_variable() throws Exception {
        try (var server = ScriptedAnthropicServer.start(request -> request.firstUserText()
                        .contains("report")
                ? request.assistantTurns() == 0
                        ? calls(Call.of("write_file", "{\"path\": \"out/report.txt\", \"content\": \"revenue up\"}"))
                        : text("written")
                : text("Paris"))) {
            Path out = home.resolve("out");
            var result = new CliRunner(home)
                    .withEnv("ANTHROPIC_API_KEY", "sk-ant-test")
                    .run(
                            "run",
                            suite.toString(),
                            "--model",
                            "anthropic:claude-test",
                            "--base-url",
                            server.baseUrl(),
                            "--out",
                            out.toString(),
                            "--quiet");

            assertThat(result.code()).as(result.err()).isEqualTo(0);
            JsonNode report = report(out);
            assertThat(statuses(report))
                    .containsExactly(
                            Map.entry("capital", "passed"),
                            Map.entry("colour", "failed"),
                            Map.entry("write", "passed"));
            assertThat(report.at("/config/model/api_key_env").asText()).isEqualTo("ANTHROPIC_API_KEY");
        }
    }

    @Test
    void the_public_anthropic_api_without_a_key_cannot_run() {
        var result = new CliRunner(home)
                .run(
                        "run",
                        suite.toString(),
                        "--model",
                        "anthropic:claude-test",
                        "--api-key-env",
                        "ASSAY_TEST_UNSET_KEY");

        assertThat(result.code()).isEqualTo(3);
        assertThat(result.err()).contains("target.missing_api_key");
    }

    @Test
    void an_exported_run_replays_to_the_same_verdicts_and_missing_cases_are_skipped() throws Exception {
        var script = new LinkedHashMap<String, List<ScriptedOpenAiServer.Reply>>();
        script.put("Capital", List.of(text("Paris")));
        script.put("Colour", List.of(text("red")));
        script.put(
                "report",
                List.of(
                        calls(Call.of(
                                "write_file", "{\"path\": \"out/report.txt\", \"content\": " + "\"revenue up\"}")),
                        text("done")));
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.byPrompt(script, request -> text("?")))) {
            var cli = new CliRunner(home).withEnv("SCRIPTED_KEY", "x");
            Path live = home.resolve("live");
            var run = cli.run(
                    "run",
                    suite.toString(),
                    "--model",
                    "openai:scripted",
                    "--base-url",
                    server.baseUrl(),
                    "--api-key-env",
                    "SCRIPTED_KEY",
                    "--keep-workspaces",
                    "--out",
                    live.toString(),
                    "--format",
                    "json",
                    "--quiet");
            assertThat(run.code()).as(run.err()).isEqualTo(0);
            String runId = Json.parse(run.out()).path("run_id").asText();
            Path recording = home.resolve("recording.jsonl");

            var export = cli.run("runs", "export", runId, "--transcripts", recording.toString());
            assertThat(export.code()).as(export.err()).isEqualTo(0);
            Path replayed = home.resolve("replayed");
            var replay = cli.run(
                    "run", suite.toString(), "--replay", recording.toString(), "--out", replayed.toString(), "--quiet");

            assertThat(replay.code()).as(replay.err()).isEqualTo(0);
            assertThat(statuses(report(replayed))).isEqualTo(statuses(report(live)));
            assertThat(server.requests()).hasSize(4);

            Files.writeString(
                    recording,
                    Files.readAllLines(recording).stream()
                            .filter(line -> !line.contains("\"colour\""))
                            .reduce("", (a, b) -> a + b + "\n"));
            Path partial = home.resolve("partial");
            cli.run("run", suite.toString(), "--replay", recording.toString(), "--out", partial.toString(), "-q");
            JsonNode colour = report(partial).path("items").get(1);
            assertThat(colour.path("status").asText()).isEqualTo("skipped");
            assertThat(colour.at("/error/type").asText()).isEqualTo("replay.missing_case");
        }
    }

    @Test
    void naming_no_subject_or_two_subjects_is_a_usage_error() {
        assertThat(new CliRunner(home).run("run", suite.toString()).code()).isEqualTo(2);
        assertThat(new CliRunner(home)
                        .run("run", suite.toString(), "--model", "mock", "--replay", "x.jsonl")
                        .code())
                .isEqualTo(2);
    }
}
