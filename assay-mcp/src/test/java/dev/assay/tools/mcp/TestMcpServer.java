package dev.assay.tools.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * A real MCP server built with the SDK's server side, for tests: over stdio ({@link #main}, launched as a child JVM
 * with the test class path) or over streamable HTTP on an embedded Jetty ({@link #startHttp}). Its tools: {@code add}
 * (a + b), {@code echo} (the text back), {@code broken} (always an {@code isError} result) and {@code env} (the value
 * of a named environment variable, or {@code <unset>}); started with {@value #SLOW}, also {@code sleep}.
 */
public final class TestMcpServer {
    private static final McpJsonMapper MAPPER = new JacksonMcpJsonMapper(new ObjectMapper());

    private TestMcpServer() {}

    static List<SyncToolSpecification> tools() {
        return List.of(
                tool("add", "Adds two numbers.", """
                        {"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},
                         "required":["a","b"]}""", args -> {
                    double sum = ((Number) args.get("a")).doubleValue() + ((Number) args.get("b")).doubleValue();
                    return text(sum == Math.rint(sum) ? Long.toString((long) sum) : Double.toString(sum), false);
                }),
                tool("echo", "Returns the text.", """
                        {"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}""", args -> text(String.valueOf(args.get("text")), false)),
                tool("broken", "Always fails.", """
                        {"type":"object","properties":{}}""", args -> text("the backend is down", true)),
                tool("env", "Returns an environment variable.", """
                        {"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}""", args -> {
                    String value = System.getenv(String.valueOf(args.get("name")));
                    return text(value == null ? "<unset>" : value, false);
                }));
    }

    /** {@code sleep}: answers after {@code ms} milliseconds; offered only when started with {@value #SLOW}. */
    static SyncToolSpecification sleep() {
        return tool("sleep", "Answers after the given milliseconds.", """
                        {"type":"object","properties":{"ms":{"type":"number"}},"required":["ms"]}""", args -> {
            try {
                Thread.sleep(((Number) args.get("ms")).longValue());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return text("awake", false);
        });
    }

    /** The argument that adds {@link #sleep} to the tools. */
    static final String SLOW = "--slow";

    private static SyncToolSpecification tool(
            String name,
            String description,
            String schema,
            java.util.function.Function<Map<String, Object>, McpSchema.CallToolResult> body) {
        var tool = McpSchema.Tool.builder(name, MAPPER, schema)
                .description(description)
                .build();
        return SyncToolSpecification.builder()
                .tool(tool)
                .callHandler((exchange, request) -> body.apply(request.arguments()))
                .build();
    }

    private static McpSchema.CallToolResult text(String text, boolean error) {
        return McpSchema.CallToolResult.builder()
                .addTextContent(text)
                .isError(error)
                .build();
    }

    private static McpSchema.ServerCapabilities capabilities() {
        return McpSchema.ServerCapabilities.builder().tools(true).build();
    }

    /** Serves over stdin/stdout until the client closes the pipe or ends the process. */
    public static void main(String[] args) throws InterruptedException {
        McpServer.sync(new StdioServerTransportProvider(MAPPER))
                .serverInfo("calc", "1.0")
                .capabilities(capabilities())
                .tools(
                        java.util.Arrays.asList(args).contains(SLOW)
                                ? java.util.stream.Stream.concat(tools().stream(), java.util.stream.Stream.of(sleep()))
                                        .toList()
                                : tools())
                .build();
        Thread.currentThread().join();
    }

    /** {@return the command line that starts {@link #main} in a child JVM with the test class path} */
    public static List<String> stdioCommand() {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        var command = new ArrayList<String>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xshare:auto");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-cp");
        command.add(classPath);
        command.add(TestMcpServer.class.getName());
        return command;
    }

    /** An MCP server over streamable HTTP on loopback, endpoint {@code /mcp}. */
    public static final class Http implements AutoCloseable {
        private final Server jetty;
        private final McpSyncServer mcp;

        private Http(Server jetty, McpSyncServer mcp) {
            this.jetty = jetty;
            this.mcp = mcp;
        }

        public String url() {
            return "http://127.0.0.1:" + ((ServerConnector) jetty.getConnectors()[0]).getLocalPort() + "/mcp";
        }

        @Override
        public void close() {
            mcp.close();
            try {
                jetty.stop();
            } catch (Exception e) {
                throw new IllegalStateException("the MCP test server's Jetty did not stop", e);
            }
        }
    }

    public static Http startHttp() throws Exception {
        var transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(MAPPER)
                .mcpEndpoint("/mcp")
                .build();
        McpSyncServer mcp = McpServer.sync(transport)
                .serverInfo("calc", "1.0")
                .capabilities(capabilities())
                .tools(tools())
                .build();
        var jetty = new Server();
        var connector = new ServerConnector(jetty);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        jetty.addConnector(connector);
        var context = new ServletContextHandler();
        context.setContextPath("/");
        var holder = new ServletHolder(transport);
        holder.setAsyncSupported(true);
        context.addServlet(holder, "/*");
        jetty.setHandler(context);
        jetty.start();
        return new Http(jetty, mcp);
    }
}
