package dev.assay.tools.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.tools.McpServerConfig;
import dev.assay.tools.McpServerState;
import dev.assay.tools.Tool;
import dev.assay.tools.ToolResult;
import dev.assay.tools.Workspace;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MCP servers built with the SDK's server side, over stdio (a child JVM) and streamable HTTP (Jetty). */
class McpToolsetTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** An environment without variables. */
    private static String noEnv(String name) {
        return null;
    }

    private static TestMcpServer.Http http;

    @TempDir
    Path temp;

    @BeforeAll
    static void startHttp() throws Exception {
        http = TestMcpServer.startHttp();
    }

    @AfterAll
    static void stopHttp() throws Exception {
        http.close();
    }

    private static McpServerConfig.Stdio stdio(String name, List<String> env) {
        List<String> command = TestMcpServer.stdioCommand();
        return new McpServerConfig.Stdio(name, command.getFirst(), command.subList(1, command.size()), env);
    }

    private static Tool tool(McpToolset toolset, String name) {
        return toolset.tools().stream()
                .filter(tool -> tool.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private ToolResult call(McpToolset toolset, String name, String arguments) throws InterruptedException {
        return tool(toolset, name).call(Json.parse(arguments), new Workspace(temp));
    }

    @Test
    void stdio_server_tools_are_offered_as_server_at_tool_with_their_input_schema() throws Exception {
        try (var toolset = McpToolset.connect(List.of(stdio("calc", List.of())), TIMEOUT, McpToolsetTest::noEnv)) {
            assertThat(toolset.unavailable()).isEmpty();
            assertThat(toolset.tools())
                    .extracting(Tool::name)
                    .containsExactly("calc@add", "calc@echo", "calc@broken", "calc@env");
            JsonNode schema = tool(toolset, "calc@add").parameters();
            assertThat(schema.path("type").asText()).isEqualTo("object");
            assertThat(schema.path("required")).extracting(JsonNode::asText).containsExactly("a", "b");
        }
    }

    @Test
    void stdio_tool_call_returns_the_text_content() throws Exception {
        try (var toolset = McpToolset.connect(List.of(stdio("calc", List.of())), TIMEOUT, McpToolsetTest::noEnv)) {
            ToolResult result = call(toolset, "calc@add", "{\"a\": 2, \"b\": 40}");
            assertThat(result.ok()).isTrue();
            assertThat(result.output()).isEqualTo("42");
        }
    }

    @Test
    void a_server_that_leaves_a_call_unanswered_is_not_called_again() throws Exception {
        List<String> command = new java.util.ArrayList<>(TestMcpServer.stdioCommand());
        command.add(TestMcpServer.SLOW);
        var slowServer =
                new McpServerConfig.Stdio("calc", command.getFirst(), command.subList(1, command.size()), List.of());
        try (var toolset = McpToolset.connect(List.of(slowServer), Duration.ofSeconds(5), McpToolsetTest::noEnv)) {
            ToolResult slow = call(toolset, "calc@sleep", "{\"ms\": 8000}");
            ToolResult after = call(toolset, "calc@echo", "{\"text\": \"hi\"}");

            assertThat(slow.ok()).isFalse();
            assertThat(slow.error().type()).isEqualTo("mcp.call_failed");
            assertThat(slow.error().message()).contains("not answered in time").doesNotContain("Mono");
            assertThat(after.ok()).isFalse();
            assertThat(after.error().type()).isEqualTo("mcp.server_unanswering");
            assertThat(after.error().message()).contains("calc@sleep");
        }
    }

    @Test
    void stdio_server_sees_the_named_variables_and_not_the_rest_of_the_environment() throws Exception {
        var defaults = Set.of("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER");
        String unnamed = System.getenv().keySet().stream()
                .filter(name -> !defaults.contains(name))
                .filter(name -> !System.getenv(name).isEmpty())
                .findFirst()
                .orElse(null);
        Assumptions.assumeTrue(unnamed != null, "the test JVM has no environment variable to leave out");
        Function<String, String> env = Map.of("CALC_TOKEN", "t-123")::get;
        try (var toolset = McpToolset.connect(List.of(stdio("calc", List.of("CALC_TOKEN"))), TIMEOUT, env)) {
            assertThat(call(toolset, "calc@env", "{\"name\": \"CALC_TOKEN\"}").output())
                    .isEqualTo("t-123");
            assertThat(call(toolset, "calc@env", "{\"name\": \"" + unnamed + "\"}")
                            .output())
                    .isEqualTo("<unset>");
        }
    }

    @Test
    void http_tool_call_returns_the_text_content() throws Exception {
        try (var toolset = McpToolset.connect(
                List.of(new McpServerConfig.Http("web", http.url(), Map.of())), TIMEOUT, McpToolsetTest::noEnv)) {
            assertThat(toolset.tools()).extracting(Tool::name).contains("web@echo");
            ToolResult result = call(toolset, "web@echo", "{\"text\": \"hello\"}");
            assertThat(result.ok()).isTrue();
            assertThat(result.output()).isEqualTo("hello");
        }
    }

    @Test
    void is_error_result_becomes_a_failed_tool_result() throws Exception {
        try (var toolset = McpToolset.connect(
                List.of(new McpServerConfig.Http("web", http.url(), Map.of())), TIMEOUT, McpToolsetTest::noEnv)) {
            ToolResult result = call(toolset, "web@broken", "{}");
            assertThat(result.ok()).isFalse();
            assertThat(result.error().type()).isEqualTo("mcp.tool_error");
            assertThat(result.error().message()).isEqualTo("the backend is down");
        }
    }

    @Test
    void call_with_arguments_the_server_rejects_is_a_failed_result_not_an_exception() throws Exception {
        try (var toolset = McpToolset.connect(
                List.of(new McpServerConfig.Http("web", http.url(), Map.of())), TIMEOUT, McpToolsetTest::noEnv)) {
            ToolResult result = call(toolset, "web@add", "{\"a\": \"two\"}");
            assertThat(result.ok()).isFalse();
        }
    }

    @Test
    void missing_command_makes_only_that_server_unavailable() throws Exception {
        var missing = new McpServerConfig.Stdio("ghost", "/nonexistent/mcp-server", List.of(), List.of());
        var web = new McpServerConfig.Http("web", http.url(), Map.of());
        try (var toolset = McpToolset.connect(List.of(missing, web), TIMEOUT, McpToolsetTest::noEnv)) {
            assertThat(toolset.unavailable()).containsOnlyKeys("ghost");
            assertThat(toolset.unavailable().get("ghost")).contains("/nonexistent/mcp-server");
            assertThat(toolset.tools()).extracting(Tool::name).allMatch(name -> name.startsWith("web@"));
        }
    }

    @Test
    void server_that_refuses_connections_is_unavailable() throws Exception {
        int port;
        try (var socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        var down = new McpServerConfig.Http("down", "http://127.0.0.1:" + port + "/mcp", Map.of());
        try (var toolset = McpToolset.connect(List.of(down), Duration.ofSeconds(5), McpToolsetTest::noEnv)) {
            assertThat(toolset.unavailable()).containsOnlyKeys("down");
            assertThat(toolset.tools()).isEmpty();
        }
    }

    @Test
    void unset_header_variable_makes_the_server_unavailable_naming_the_variable() throws Exception {
        var web = new McpServerConfig.Http("web", http.url(), Map.of("Authorization", "WEB_MCP_AUTH"));
        try (var toolset = McpToolset.connect(List.of(web), TIMEOUT, McpToolsetTest::noEnv)) {
            assertThat(toolset.unavailable().get("web")).contains("WEB_MCP_AUTH");
        }
    }

    @Test
    void snapshot_names_servers_tools_and_variables_but_holds_no_values() throws Exception {
        var web = new McpServerConfig.Http("web", http.url() + "?token=s3cret", Map.of("X-Key", "WEB_KEY"));
        var missing = new McpServerConfig.Stdio("ghost", "/nonexistent/mcp-server", List.of(), List.of());
        try (var toolset = McpToolset.connect(List.of(web, missing), TIMEOUT, Map.of("WEB_KEY", "k-999")::get)) {
            JsonNode snapshot = toolset.snapshot();
            JsonNode first = snapshot.path("servers").get(0);
            assertThat(first.path("status").asText()).isEqualTo("available");
            assertThat(first.path("tools")).extracting(JsonNode::asText).contains("web@add", "web@echo");
            assertThat(first.path("headers").path("X-Key").asText()).isEqualTo("WEB_KEY");
            assertThat(snapshot.path("servers").get(1).path("status").asText()).isEqualTo("unavailable");
            // Read back typed, as the engine and the reports read it.
            List<McpServerState> states = McpServerState.of(snapshot);
            assertThat(states)
                    .extracting(McpServerState::name, McpServerState::status)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple("web", McpServerState.Status.AVAILABLE),
                            org.assertj.core.groups.Tuple.tuple(missing.name(), McpServerState.Status.UNAVAILABLE));
            assertThat(states.get(0).tools()).contains("web@add", "web@echo");
            assertThat(states.get(1).reason()).isEqualTo(toolset.unavailable().get(missing.name()));
            assertThat(snapshot.toString()).doesNotContain("k-999").doesNotContain("s3cret");
        }
    }

    @Test
    void skip_reasons_explain_each_missing_mcp_tool() {
        JsonNode snapshot = Json.parse("""
                {"servers": [
                  {"name": "up", "status": "available", "tools": ["up@a"]},
                  {"name": "down", "status": "unavailable", "reason": "Connection refused"}]}""");
        Map<String, String> reasons = McpServerState.skipReasons(
                McpServerState.of(snapshot), List.of("down@lookup", "up@b", "nowhere@x", "read_file"));
        assertThat(reasons).containsOnlyKeys("down@lookup", "up@b", "nowhere@x");
        assertThat(reasons.get("down@lookup")).contains("unavailable").contains("Connection refused");
        assertThat(reasons.get("up@b")).contains("does not offer");
        assertThat(reasons.get("nowhere@x")).contains("not configured");
    }
}
