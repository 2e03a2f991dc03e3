package dev.assay.tools.mcp;

import static dev.assay.testing.ScriptedOpenAiServer.calls;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.cases.Suite;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.RetryPolicy;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.model.openai.OpenAiSettings;
import dev.assay.report.RunReport;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.run.Engine;
import dev.assay.run.EvalSpec;
import dev.assay.run.RunListener;
import dev.assay.run.RunPlan;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.AgentSubject;
import dev.assay.subject.ToolMode;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.ScriptedOpenAiServer.Call;
import dev.assay.testing.ScriptedOpenAiServer.Reply;
import dev.assay.testing.TestSpecs;
import dev.assay.tools.McpServerConfig;
import dev.assay.tools.McpServerState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An MCP server over stdio (a child JVM) used by Assay's agent loop in a real engine run. */
class McpAgentRunTest {
    @TempDir
    Path temp;

    @Test
    void model_calls_a_stdio_mcp_tool_and_a_case_needing_a_missing_server_is_skipped_with_the_reason()
            throws Exception {
        List<String> command = TestMcpServer.stdioCommand();
        var servers = List.<McpServerConfig>of(
                new McpServerConfig.Stdio("calc", command.getFirst(), command.subList(1, command.size()), List.of()),
                new McpServerConfig.Stdio("search", "/nonexistent/search-mcp", List.of(), List.of()));
        try (var model = ScriptedOpenAiServer.start(ScriptedOpenAiServer.byPrompt(
                        Map.of(
                                "Echo",
                                List.<Reply>of(calls(Call.of("calc@echo", "{\"text\": \"ping\"}")), text("ping"))),
                        request -> text("unscripted")));
                var toolset = McpToolset.connect(servers, Duration.ofSeconds(30), name -> null);
                Store store = Stores.open("jdbc:sqlite:" + temp.resolve("assay.db"))) {
            var chat = new OpenAiChatModel(
                    new OpenAiSettings(
                            "scripted", model.baseUrl(), "", false, Duration.ofSeconds(10), RetryPolicy.none()),
                    line -> {});
            var subject =
                    new AgentSubject(chat, toolset.tools(), new AgentSettings(ToolMode.NATIVE, 4, 0.0, null, null), 2);
            var suite = new Suite(
                    "mcp",
                    "v1",
                    List.of(
                            Case.of(
                                    "echo",
                                    "tool",
                                    "Echo ping",
                                    Check.of(
                                            "tool_args",
                                            Json.parse("{\"tool\": \"calc@echo\", \"args\": {\"text\": \"ping\"}}"))),
                            Case.of(
                                    "search",
                                    "tool",
                                    "Search the web",
                                    Check.of("tool_called", Json.parse("\"search@query\"")))),
                    Map.of(),
                    List.of());
            var config = TestSpecs.withToolSnapshot(TestSpecs.config(temp.resolve("work")), "mcp", toolset.snapshot());
            Run run = new Engine(store)
                    .run(new RunPlan(suite, subject, config, CheckerRegistry.builtins()), RunListener.NONE);

            Map<String, Item> items = new java.util.HashMap<>();
            RunReport.load(store, run.runId()).items().forEach(item -> items.put(item.caseId(), item));
            assertThat(items.get("echo").status()).isEqualTo(ItemStatus.PASSED);
            assertThat(items.get("echo").toolCalls())
                    .singleElement()
                    .satisfies(call -> assertThat(call.ok()).isTrue());
            Item skipped = items.get("search");
            assertThat(skipped.status()).isEqualTo(ItemStatus.SKIPPED);
            assertThat(McpServerState.skipReasons(EvalSpec.of(run).observed().mcpServers(), List.of("search@query")))
                    .hasEntrySatisfying(
                            "search@query",
                            reason ->
                                    assertThat(reason).contains("'search' is unavailable", "/nonexistent/search-mcp"));
            assertThat(run.toolSnapshot()).containsExactly("calc@add", "calc@broken", "calc@echo", "calc@env");
        }
    }
}
