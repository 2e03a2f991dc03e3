package dev.assay.cli;

import static dev.assay.testing.ScriptedOpenAiServer.calls;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.ScriptedOpenAiServer.Call;
import dev.assay.testing.ScriptedOpenAiServer.Reply;
import dev.assay.tools.mcp.TestMcpServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MCP servers named on the command line, without a configuration file. */
class McpOptionsTest {
    @TempDir
    Path home;

    @Test
    void tools_of_mcp_servers_given_on_the_command_line_are_offered_and_a_down_server_skips_its_cases()
            throws Exception {
        Path suite = home.resolve("mcp.jsonl");
        Files.writeString(suite, """
                {"id": "echo", "dimension": "tool", "prompt": "Echo ping", "checker": "tool_args", "expected": {"tool": "calc@echo", "args": {"text": ["ping"]}}}
                {"id": "search", "dimension": "tool", "prompt": "Search the web", "checker": "tool_called", "expected": "down@query"}
                """);
        String command = String.join(" ", TestMcpServer.stdioCommand());
        try (var model = ScriptedOpenAiServer.start(ScriptedOpenAiServer.byPrompt(
                Map.of("Echo", List.<Reply>of(calls(Call.of("calc__echo", "{\"text\": \"ping\"}")), text("ping"))),
                request -> text("unscripted")))) {
            var result = new CliRunner(home)
                    .run(
                            "run",
                            suite.toString(),
                            "--model",
                            "openai:scripted",
                            "--base-url",
                            model.baseUrl(),
                            "--api-key-env",
                            "NONE",
                            "--mcp-stdio",
                            "calc=" + command,
                            "--mcp-url",
                            "down=http://127.0.0.1:1/mcp",
                            "--format",
                            "json",
                            "-q");
            assertThat(result.code()).as(result.err()).isZero();
            JsonNode summary = Json.parse(result.out());
            assertThat(summary.at("/counts/passed").asInt()).isEqualTo(1);
            assertThat(summary.at("/counts/skipped").asInt()).isEqualTo(1);
            assertThat(model.requests().get(0).toString()).contains("calc__echo");

            JsonNode report = Json.parse(new CliRunner(home)
                    .run("runs", "show", summary.path("run_id").asText(), "--format", "json")
                    .out());
            JsonNode skipped = report.at("/items/1/error");
            assertThat(skipped.path("type").asText()).isEqualTo("case.missing_tools");
            assertThat(skipped.path("details").path("mcp").toString()).contains("down");
            assertThat(report.at("/config/mcp").toString()).contains("calc");
        }
    }
}
