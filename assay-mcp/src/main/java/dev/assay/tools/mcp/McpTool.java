package dev.assay.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.tools.Tool;
import dev.assay.tools.ToolResult;
import dev.assay.tools.Workspace;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/** One tool of a connected MCP server, offered as {@code server@tool}. Thread-safe (the SDK client is). */
final class McpTool implements Tool {
    /** What the model sees of a tool result, as for the built-in tools: long outputs are cut. */
    static final int MAX_OUTPUT_CHARS = 64 * 1024;

    private final String server;
    private final McpSchema.Tool tool;
    private final McpSyncClient client;
    private final JsonNode parameters;
    private final Unanswered unanswered;

    /**
     * Whether a server left a call unanswered: once one of its calls ran out of time, its other tools fail at once for
     * the rest of the run instead of each waiting out the time limit. A server that stops reading (an answer over the
     * transport's size limit kills the SDK's reader) or whose process exits is noticed only so. Shared by a server's
     * tools; thread-safe.
     */
    static final class Unanswered {
        private final AtomicReference<Problem> first = new AtomicReference<>();

        Problem problem() {
            return first.get();
        }

        void set(Problem problem) {
            first.compareAndSet(null, problem);
        }
    }

    McpTool(String server, McpSchema.Tool tool, McpSyncClient client, Unanswered unanswered) {
        this.server = server;
        this.tool = tool;
        this.client = client;
        this.unanswered = unanswered;
        this.parameters = parameters(tool);
    }

    /** {@return the tool's argument schema}: MCP requires an object schema; one that sends none still gets one */
    static JsonNode parameters(McpSchema.Tool tool) {
        JsonNode schema = tool.inputSchema() == null ? null : Json.tree(tool.inputSchema());
        return schema != null && schema.isObject() ? schema : Json.object().put("type", "object");
    }

    /** {@return the tool's description, else its title, else empty} */
    static String description(McpSchema.Tool tool) {
        String text = tool.description() != null ? tool.description() : tool.title();
        return text == null ? "" : text;
    }

    @Override
    public String name() {
        return server + "@" + tool.name();
    }

    @Override
    public String description() {
        return description(tool);
    }

    @Override
    public JsonNode parameters() {
        return parameters;
    }

    /** MCP servers live outside the case's workspace; the workspace is not theirs to use. */
    @Override
    public ToolResult call(JsonNode arguments, Workspace workspace) {
        Map<String, Object> args = arguments(arguments);
        Problem unansweredBefore = unanswered.problem();
        if (unansweredBefore != null) {
            return ToolResult.failed(unansweredBefore);
        }
        McpSchema.CallToolResult result;
        try {
            result = client.callTool(McpSchema.CallToolRequest.builder(tool.name())
                    .arguments(args)
                    .build());
        } catch (RuntimeException e) {
            if (timedOut(e)) {
                unanswered.set(Problem.of(
                                "mcp.server_unanswering",
                                "the MCP server " + server + " left " + name() + " unanswered; its tools are not called"
                                        + " again in this run")
                        .withDetail("server", server));
                return ToolResult.failed(Problem.of(
                                "mcp.call_failed",
                                name() + " was not answered in time; the server's tools are not called again in this"
                                        + " run")
                        .withDetail("server", server));
            }
            return ToolResult.failed(Problem.of("mcp.call_failed", name() + " could not be called: " + message(e))
                    .withDetail("server", server));
        }
        String text = text(result);
        if (Boolean.TRUE.equals(result.isError())) {
            return ToolResult.failed(Problem.of("mcp.tool_error", text.isEmpty() ? name() + " reported an error" : text)
                    .withDetail("server", server));
        }
        return ToolResult.ok(text);
    }

    /** {@return a call's arguments as the SDK takes them: the object's fields, none for anything else} */
    static Map<String, Object> arguments(JsonNode arguments) {
        return arguments == null || !arguments.isObject()
                ? Map.of()
                : Json.MAPPER.convertValue(
                        arguments,
                        Json.MAPPER.getTypeFactory().constructMapType(Map.class, String.class, Object.class));
    }

    /** Text parts are joined; other parts are named so the model knows something was there. */
    static String text(McpSchema.CallToolResult result) {
        var out = new StringBuilder();
        if (result.content() != null) {
            for (McpSchema.Content content : result.content()) {
                if (!out.isEmpty()) {
                    out.append('\n');
                }
                if (content instanceof McpSchema.TextContent textContent) {
                    out.append(textContent.text());
                } else {
                    out.append('[').append(content.type()).append(" content]");
                }
            }
        }
        if (out.isEmpty() && result.structuredContent() != null) {
            out.append(Json.write(result.structuredContent()));
        }
        return out.length() <= MAX_OUTPUT_CHARS
                ? out.toString()
                : out.substring(0, MAX_OUTPUT_CHARS) + "\n[output cut at " + MAX_OUTPUT_CHARS + " characters]";
    }

    private static boolean timedOut(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof java.util.concurrent.TimeoutException) {
                return true;
            }
        }
        return false;
    }

    static String message(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = root.getMessage();
        return root.getClass().getSimpleName() + (text == null ? "" : ": " + text);
    }
}
