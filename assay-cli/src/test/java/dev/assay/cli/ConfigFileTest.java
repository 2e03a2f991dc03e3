package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.testing.ScriptedOpenAiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** assay.yaml's targets and defaults, and --tools, as `assay run` applies them. */
class ConfigFileTest {
    @TempDir
    Path home;

    private Path suite() throws Exception {
        Path suite = home.resolve("suite.jsonl");
        Files.writeString(suite, """
                {"id": "answer", "dimension": "common", "prompt": "Capital of France?", "checker": "contains", "expected": "Paris"}
                {"id": "write", "dimension": "complex", "prompt": "Write a.txt", "prerequisites": ["write_file"], "checker": "file_exists", "expected": "a.txt"}
                """);
        return suite;
    }

    @Test
    void a_configured_target_and_its_defaults_drive_the_run() throws Exception {
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(ScriptedOpenAiServer.text("Paris")))) {
            Path config = home.resolve("assay.yaml");
            Files.writeString(config, """
                    version: 1
                    defaults:
                      target: local
                      concurrency: 3
                      timeout_s: 45
                    targets:
                      local:
                        model: openai:scripted
                        base_url: %s
                        api_key_env: LOCAL_KEY
                        tool_mode: text
                        temperature: 0
                    """.formatted(server.baseUrl()));
            var result = new CliRunner(home)
                    .run("run", suite().toString(), "--config", config.toString(), "--format", "json", "-q");
            assertThat(result.code()).as(result.err()).isZero();
            String runId = Json.parse(result.out()).path("run_id").asText();
            JsonNode report = Json.parse(new CliRunner(home)
                    .run("runs", "show", runId, "--format", "json")
                    .out());
            assertThat(report.at("/config/model/model").asText()).isEqualTo("openai:scripted");
            assertThat(report.at("/config/model/api_key_env").asText()).isEqualTo("LOCAL_KEY");
            assertThat(report.at("/config/target/tool_mode").asText()).isEqualTo("text");
            assertThat(report.at("/config/concurrency").asInt()).isEqualTo(3);
            assertThat(report.at("/config/timeout_s").asDouble()).isEqualTo(45.0);
            assertThat(server.requests().get(0).path("temperature").asDouble()).isEqualTo(0.0);
        }
    }

    @Test
    void the_base_url_and_key_variable_flags_override_a_configured_targets_and_are_stored() throws Exception {
        try (var named = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(ScriptedOpenAiServer.text("Paris")));
                var configured =
                        ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(ScriptedOpenAiServer.text("Paris")))) {
            Path config = home.resolve("assay.yaml");
            Files.writeString(config, """
                    version: 1
                    targets:
                      openai:
                        model: openai:scripted
                        base_url: %s
                        api_key_env: CONFIGURED_KEY
                    """.formatted(configured.baseUrl()));
            var result = new CliRunner(home)
                    .withEnv("CONFIGURED_KEY", "sk-configured")
                    .withEnv("NAMED_KEY", "sk-named")
                    .run(
                            "run",
                            suite().toString(),
                            "--config",
                            config.toString(),
                            "--target",
                            "openai",
                            "--base-url",
                            named.baseUrl(),
                            "--api-key-env",
                            "NAMED_KEY",
                            "--format",
                            "json",
                            "-q");

            assertThat(result.code()).as(result.err()).isZero();
            assertThat(configured.requests()).isEmpty();
            assertThat(named.requests()).isNotEmpty();
            assertThat(named.authorizations()).allMatch(header -> header.equals("Bearer sk-named"));
            String runId = Json.parse(result.out()).path("run_id").asText();
            JsonNode report = Json.parse(new CliRunner(home)
                    .run("runs", "show", runId, "--format", "json")
                    .out());
            assertThat(report.at("/config/model/base_url").asText()).isEqualTo(named.baseUrl());
            assertThat(report.at("/config/model/api_key_env").asText()).isEqualTo("NAMED_KEY");
        }
    }

    @Test
    void a_key_variable_that_is_no_variable_name_is_refused_from_the_flags_and_the_file() throws Exception {
        var flag = new CliRunner(home)
                .run("run", suite().toString(), "--model", "openai:scripted", "--api-key-env", "A B");
        assertThat(flag.code()).isEqualTo(2);
        assertThat(flag.err()).contains("--api-key-env");

        Path config = home.resolve("assay.yaml");
        Files.writeString(config, """
                version: 1
                targets:
                  spaced:
                    model: openai:scripted
                    api_key_env: A B
                """);
        var file =
                new CliRunner(home).run("run", suite().toString(), "--config", config.toString(), "--target", "spaced");
        assertThat(file.code()).isEqualTo(2);
        assertThat(file.err()).contains("config.invalid").contains("api_key_env");
    }

    @Test
    void only_the_allowed_tools_are_offered_and_cases_needing_others_are_skipped() throws Exception {
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(ScriptedOpenAiServer.text("Paris")))) {
            var result = new CliRunner(home)
                    .run(
                            "run",
                            suite().toString(),
                            "--model",
                            "openai:scripted",
                            "--base-url",
                            server.baseUrl(),
                            "--api-key-env",
                            "NONE",
                            "--tools",
                            "read_file",
                            "--format",
                            "json",
                            "-q");
            assertThat(result.code()).as(result.err()).isZero();
            JsonNode summary = Json.parse(result.out());
            assertThat(summary.at("/counts/skipped").asInt()).isEqualTo(1);
            assertThat(summary.at("/counts/passed").asInt()).isEqualTo(1);
            var offered = server.requests().get(0).path("tools");
            assertThat(offered)
                    .extracting(tool -> tool.at("/function/name").asText())
                    .containsExactlyInAnyOrder("read_file", "final_answer");
        }
    }

    @Test
    void an_unknown_configured_target_is_a_usage_error() throws Exception {
        Path config = home.resolve("assay.yaml");
        Files.writeString(config, "version: 1\ntargets:\n  a:\n    model: mock\n");
        var result = new CliRunner(home).run("run", suite().toString(), "--config", config.toString(), "--target", "b");
        assertThat(result.code()).isEqualTo(2);
        assertThat(result.err()).contains("config.unknown_target");
    }

    @Test
    void a_configured_replay_target_re_scores_an_exported_run() throws Exception {
        Path suite = suite();
        String runId;
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(ScriptedOpenAiServer.text("Paris")))) {
            var live = new CliRunner(home)
                    .run(
                            "run",
                            suite.toString(),
                            "--model",
                            "openai:scripted",
                            "--base-url",
                            server.baseUrl(),
                            "--api-key-env",
                            "NONE",
                            "--format",
                            "json",
                            "-q");
            assertThat(live.code()).as(live.err()).isZero();
            runId = Json.parse(live.out()).path("run_id").asText();
        }
        Path recording = home.resolve("recordings/live.jsonl");
        Files.createDirectories(recording.getParent());
        var export = new CliRunner(home).run("runs", "export", runId, "--transcripts", recording.toString());
        assertThat(export.code()).as(export.err()).isZero();
        Path config = home.resolve("assay.yaml");
        Files.writeString(config, """
                version: 1
                targets:
                  recorded:
                    replay: recordings/live.jsonl
                """);
        var replayed = new CliRunner(home)
                .run(
                        "run",
                        suite.toString(),
                        "--config",
                        config.toString(),
                        "--target",
                        "recorded",
                        "--format",
                        "json",
                        "-q");
        assertThat(replayed.code()).as(replayed.err()).isZero();
        JsonNode summary = Json.parse(replayed.out());
        assertThat(summary.at("/counts/passed").asInt()).isEqualTo(1);
        assertThat(summary.at("/counts/total").asInt()).isEqualTo(2);
    }
}
