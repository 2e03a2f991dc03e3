package dev.assay.report;

import static dev.assay.testing.ScriptedOpenAiServer.calls;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.cases.Suite;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.RetryPolicy;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.model.openai.OpenAiSettings;
import dev.assay.result.Counts;
import dev.assay.result.Run;
import dev.assay.run.Engine;
import dev.assay.run.RunListener;
import dev.assay.run.RunPlan;
import dev.assay.sandbox.UnsandboxedSandbox;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.AgentSubject;
import dev.assay.subject.ToolMode;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.ScriptedOpenAiServer.Call;
import dev.assay.testing.ScriptedOpenAiServer.Reply;
import dev.assay.testing.TestSpecs;
import dev.assay.tools.BuiltinTools;
import dev.assay.tools.McpServerConfig;
import dev.assay.tools.Tool;
import dev.assay.tools.mcp.McpToolset;
import dev.assay.tools.mcp.TestMcpServer;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Coverage of a run whose answer is known: the real engine, the agent loop over a scripted OpenAI-compatible server,
 * the 8 built-in tools plus the 4 tools of a real MCP server over streamable HTTP, and a second MCP server that is
 * down. Five cases: an MCP call that passes, a case needing the down server (skipped), a built-in write that passes, a
 * built-in read that fails, and a logic case without tools.
 */
class CoverageTest {
    private static TestMcpServer.Http mcp;
    private static ScriptedOpenAiServer model;
    private static Store store;
    private static RunReport report;

    @TempDir
    static Path temp;

    @BeforeAll
    static void runSuite() throws Exception {
        mcp = TestMcpServer.startHttp();
        model = ScriptedOpenAiServer.start(ScriptedOpenAiServer.byPrompt(
                Map.of(
                        "Add 2 and 40", List.<Reply>of(calls(Call.of("calc@add", "{\"a\": 2, \"b\": 40}")), text("42")),
                        "Look up", List.<Reply>of(text("no lookup")),
                        "Write hi",
                                List.<Reply>of(
                                        calls(Call.of("write_file", "{\"path\": \"a.txt\", \"content\": \"hi\"}")),
                                        text("done")),
                        "Read notes",
                                List.<Reply>of(
                                        calls(Call.of("read_file", "{\"path\": \"missing.txt\"}")),
                                        text("nothing there")),
                        "Which letter", List.<Reply>of(text("B"))),
                request -> text("unscripted")));
        int closedPort;
        try (var socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        store = Stores.open("jdbc:sqlite:" + temp.resolve("assay.db"));
        try (var toolset = McpToolset.connect(
                List.of(
                        new McpServerConfig.Http("calc", mcp.url(), Map.of()),
                        new McpServerConfig.Http("down", "http://127.0.0.1:" + closedPort + "/mcp", Map.of())),
                Duration.ofSeconds(20),
                name -> null)) {
            var tools = new ArrayList<Tool>(BuiltinTools.all(new UnsandboxedSandbox()));
            tools.addAll(toolset.tools());
            var chat = new OpenAiChatModel(
                    new OpenAiSettings(
                            "scripted",
                            model.baseUrl(),
                            "",
                            false,
                            Duration.ofSeconds(10),
                            new RetryPolicy(1, Duration.ofMillis(10), Duration.ofMillis(10), Duration.ofSeconds(1))),
                    line -> {});
            var subject = new AgentSubject(chat, tools, new AgentSettings(ToolMode.NATIVE, 4, 0.0, null, null), 4);
            var suite = new Suite(
                    "coverage",
                    "v1",
                    List.of(
                            evalCase(
                                    "mcp-add",
                                    "Add 2 and 40",
                                    List.of("mcp"),
                                    List.of(),
                                    check("tool_called", "\"calc@add\""),
                                    check("contains", "\"42\"")),
                            evalCase(
                                    "mcp-down",
                                    "Look up x",
                                    List.of("mcp"),
                                    List.of("down@lookup"),
                                    check("contains", "\"x\"")),
                            evalCase(
                                    "builtin-write",
                                    "Write hi",
                                    List.of("builtin"),
                                    List.of(),
                                    check("file_exists", "\"a.txt\"")),
                            evalCase(
                                    "builtin-read",
                                    "Read notes",
                                    List.of("builtin", "shared"),
                                    List.of(),
                                    check("contains", "\"remember\"")),
                            evalCase("logic", "Which letter", List.of(), List.of(), check("choice", "\"B\""))),
                    Map.of(),
                    List.of());
            var config = TestSpecs.withToolSnapshot(TestSpecs.config(temp.resolve("work")), "mcp", toolset.snapshot());
            Run run = new Engine(store)
                    .run(new RunPlan(suite, subject, config, CheckerRegistry.builtins()), RunListener.NONE);
            report = RunReport.load(store, run.runId());
        }
    }

    @AfterAll
    static void stop() throws Exception {
        store.close();
        model.close();
        mcp.close();
    }

    private static Check check(String checker, String expected) {
        return Check.of(checker, Json.parse(expected));
    }

    private static Case evalCase(
            String id, String prompt, List<String> tags, List<String> prerequisites, Check... checks) {
        return new Case(
                id, "tool", "en-US", prompt, 1.0, null, List.of(checks), prerequisites, tags, Map.of(), null, null);
    }

    @Test
    void every_offered_tool_is_available_builtin_and_mcp() {
        assertThat(report.coverage().available())
                .hasSize(12)
                .contains("calc@add", "calc@broken", "read_file", "final_answer")
                .noneMatch(tool -> tool.startsWith("down@"));
    }

    @Test
    void exercised_tools_are_those_called_at_least_once() {
        Coverage coverage = report.coverage();
        assertThat(coverage.exercised()).containsExactly("calc@add", "read_file", "write_file");
        assertThat(coverage.neverCalled()).hasSize(9).contains("calc@echo", "execute_command");
        assertThat(coverage.calls())
                .containsEntry("calc@add", 1)
                .containsEntry("read_file", 1)
                .containsEntry("calc@echo", 0);
        assertThat(coverage.exercisedShare()).isEqualTo(3.0 / 12);
    }

    @Test
    void counts_per_tag_follow_the_case_outcomes() {
        Map<String, Counts> byTag = report.coverage().byTag();
        assertThat(byTag.keySet()).containsExactly("builtin", "mcp", "skill", "knowledge", "user", "shared");
        assertThat(byTag.get("mcp")).isEqualTo(new Counts(2, 1, 0, 0, 1, 0, 0));
        assertThat(byTag.get("builtin")).isEqualTo(new Counts(2, 1, 1, 0, 0, 0, 0));
        assertThat(byTag.get("shared")).isEqualTo(new Counts(1, 0, 1, 0, 0, 0, 0));
        assertThat(byTag.get("skill")).isEqualTo(Counts.ZERO);
    }

    @Test
    void case_needing_a_down_server_is_skipped_with_the_server_reason() {
        List<Coverage.Skip> skipped = report.coverage().skipped();
        assertThat(skipped).extracting(Coverage.Skip::caseId).containsExactly("mcp-down");
        assertThat(skipped.getFirst().type()).isEqualTo("case.missing_tools");
        assertThat(skipped.getFirst().missingTools()).containsOnlyKeys("down@lookup");
        assertThat(skipped.getFirst().missingTools().get("down@lookup")).contains("'down' is unavailable");
    }

    @Test
    void mcp_tool_output_reaches_the_transcript() {
        var item = report.items().stream()
                .filter(i -> i.caseId().equals("mcp-add"))
                .findFirst()
                .orElseThrow();
        assertThat(item.status().wireName()).isEqualTo("passed");
        JsonNode output = null;
        for (JsonNode event : item.transcript()) {
            if (event.path("type").asText().equals("tool_output")) {
                output = event;
            }
        }
        assertThat(output).isNotNull();
        assertThat(output.path("tool").asText()).isEqualTo("calc@add");
        assertThat(output.path("output").asText()).isEqualTo("42");
    }

    @Test
    void report_json_carries_the_coverage_section() throws Exception {
        Path directory = temp.resolve("report");
        Reporters.builtins().writeAll(report, directory);
        JsonNode json = Json.parse(Files.readString(directory.resolve("report.json")));
        assertThat(json.path("coverage").path("exercised"))
                .extracting(JsonNode::asText)
                .containsExactly("calc@add", "read_file", "write_file");
        assertThat(json.path("coverage").path("never_called")).hasSize(9);
        assertThat(json.path("coverage")
                        .path("by_tag")
                        .path("mcp")
                        .path("skipped")
                        .asInt())
                .isEqualTo(1);
        assertThat(json.path("coverage").path("skipped").get(0).path("case_id").asText())
                .isEqualTo("mcp-down");
        assertThat(json.path("run_id").asText()).isEqualTo(report.run().runId());
    }

    @Test
    void markdown_and_html_reports_show_coverage_and_skip_reasons() throws Exception {
        Path directory = temp.resolve("report-text");
        Reporters.builtins().writeAll(report, directory);
        String markdown = Files.readString(directory.resolve("report.md"), StandardCharsets.UTF_8);
        String html = Files.readString(directory.resolve("report.html"), StandardCharsets.UTF_8);
        assertThat(markdown)
                .contains("## Tool coverage", "3 of 12 available tools exercised", "| mcp-down | case.missing\\_tools");
        assertThat(html).contains("<h2>Tool coverage</h2>", "<td>mcp-down</td>");
    }
}
