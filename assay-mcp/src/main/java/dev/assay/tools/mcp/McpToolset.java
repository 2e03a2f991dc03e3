package dev.assay.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.EndpointUrl;
import dev.assay.Json;
import dev.assay.tools.McpServerConfig;
import dev.assay.tools.McpServerState;
import dev.assay.tools.Tool;
import dev.assay.tools.Toolbox;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The MCP servers of one run, connected: their tools as {@code server@tool}, the servers that could not be reached with
 * the reason, and a snapshot for the run's record. Connecting never fails as a whole: a server that is down, whose
 * command is missing, whose environment variable is unset or that does not answer in time is listed in
 * {@link #unavailable()}, and the cases that need its tools are skipped by the engine's prerequisite check.
 * Thread-safe; close it when the run ends (it stops stdio server processes).
 */
public final class McpToolset implements Toolbox {
    /** MCP's wire format is camelCase: Assay's snake_case {@code Json.MAPPER} would garble it. */
    static final McpJsonMapper MAPPER = new JacksonMcpJsonMapper(new com.fasterxml.jackson.databind.ObjectMapper());
    // The SDK deprecates its short constructors for the one with icons and a website, which a client needs none of.
    @SuppressWarnings("deprecation")
    static final McpSchema.Implementation CLIENT = new McpSchema.Implementation("assay", "Assay", "0.1");

    private final List<McpServerConfig> configs;
    private final Map<String, Connected> connected;
    private final Map<String, String> unavailable;

    private record Connected(McpSyncClient client, List<McpTool> tools) {}

    private McpToolset(
            List<McpServerConfig> configs, Map<String, Connected> connected, Map<String, String> unavailable) {
        this.configs = configs;
        this.connected = connected;
        this.unavailable = unavailable;
    }

    /**
     * Connects to every server at once, each within {@code timeout} (start-up, initialisation and tool listing).
     *
     * @param servers the configured servers; names must be unique
     * @param timeout the limit for connecting to one server, and for each later tool call
     * @param env reads environment variables named in the configuration (the edge passes its environment)
     * @throws IllegalArgumentException when two servers share a name
     */
    public static McpToolset connect(List<McpServerConfig> servers, Duration timeout, Function<String, String> env)
            throws InterruptedException {
        var names = new java.util.HashSet<String>();
        for (McpServerConfig server : servers) {
            if (!names.add(server.name())) {
                throw new IllegalArgumentException("two MCP servers are named '" + server.name() + "'");
            }
        }
        var connected = new LinkedHashMap<String, Connected>();
        var unavailable = new TreeMap<String, String>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            var attempts = new LinkedHashMap<McpServerConfig, Future<Connected>>();
            servers.forEach(server -> attempts.put(server, threads.submit(() -> open(server, timeout, env))));
            for (var attempt : attempts.entrySet()) {
                String name = attempt.getKey().name();
                try {
                    // The SDK's own timeouts cover each request; this one also bounds a process that never starts.
                    connected.put(name, attempt.getValue().get(timeout.toMillis() + 2000, TimeUnit.MILLISECONDS));
                } catch (TimeoutException e) {
                    attempt.getValue().cancel(true);
                    unavailable.put(name, "no answer within " + timeout.toSeconds() + " s");
                } catch (ExecutionException e) {
                    unavailable.put(name, McpTool.message(e.getCause()));
                } catch (InterruptedException e) {
                    attempts.values().forEach(future -> future.cancel(true));
                    connected.values().forEach(server -> server.client().close());
                    throw e;
                }
            }
        }
        return new McpToolset(List.copyOf(servers), connected, unavailable);
    }

    private static Connected open(McpServerConfig server, Duration timeout, Function<String, String> env) {
        McpClientTransport transport = switch (server) {
            case McpServerConfig.Stdio stdio -> stdio(stdio, env);
            case McpServerConfig.Http http -> http(http, timeout, env);
        };
        McpSyncClient client = McpClient.sync(transport)
                .clientInfo(CLIENT)
                .requestTimeout(timeout)
                .initializationTimeout(timeout)
                .build();
        try {
            client.initialize();
            var tools = new ArrayList<McpTool>();
            var unanswered = new McpTool.Unanswered();
            String cursor = null;
            do {
                McpSchema.ListToolsResult page = client.listTools(cursor);
                page.tools().forEach(tool -> tools.add(new McpTool(server.name(), tool, client, unanswered)));
                cursor = page.nextCursor();
            } while (cursor != null && !cursor.isEmpty());
            return new Connected(client, List.copyOf(tools));
        } catch (RuntimeException e) {
            client.close();
            if (transport instanceof IsolatedStdioTransport stdio
                    && !stdio.lastErrors().isEmpty()) {
                throw new IllegalStateException(McpTool.message(e) + "; stderr: " + stdio.lastErrors(), e);
            }
            throw e;
        }
    }

    private static McpClientTransport stdio(McpServerConfig.Stdio server, Function<String, String> env) {
        // The SDK only logs a process that fails to start and lets initialisation run into its timeout.
        if (!executable(server.command(), env.apply("PATH"))) {
            throw new IllegalStateException("command not found: " + server.command());
        }
        var parameters = ServerParameters.builder(server.command()).args(server.args());
        for (String name : server.env()) {
            parameters.addEnvVar(name, required(env, name));
        }
        var transport = new IsolatedStdioTransport(parameters.build());
        transport.setStdErrorHandler(transport::remember);
        return transport;
    }

    private static McpClientTransport http(
            McpServerConfig.Http server, Duration timeout, Function<String, String> env) {
        URI uri = URI.create(server.url());
        String base = uri.getScheme() + "://" + uri.getRawAuthority();
        String endpoint = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        var headers = new LinkedHashMap<String, String>();
        server.headers().forEach((header, variable) -> headers.put(header, required(env, variable)));
        return HttpClientStreamableHttpTransport.builder(base)
                .endpoint(endpoint)
                .jsonMapper(MAPPER)
                .connectTimeout(timeout)
                .addHttpRequestCustomizer((request, method, target, body, context) -> headers.forEach(request::header))
                .build();
    }

    private static boolean executable(String command, String path) {
        if (command.contains(java.io.File.separator)) {
            return java.nio.file.Files.isExecutable(java.nio.file.Path.of(command));
        }
        if (path == null) {
            return false;
        }
        for (String directory : path.split(java.io.File.pathSeparator)) {
            if (!directory.isEmpty() && java.nio.file.Files.isExecutable(java.nio.file.Path.of(directory, command))) {
                return true;
            }
        }
        return false;
    }

    private static String required(Function<String, String> env, String variable) {
        String value = env.apply(variable);
        if (value == null || value.isEmpty()) {
            throw new IllegalStateException("environment variable " + variable + " is not set");
        }
        return value;
    }

    /** {@return every tool of every connected server, named {@code server@tool}, in configuration order} */
    @Override
    public List<Tool> tools() {
        var tools = new ArrayList<Tool>();
        connected.values().forEach(server -> tools.addAll(server.tools()));
        return List.copyOf(tools);
    }

    /** {@return server name to why it could not be used, sorted by name; empty when all connected} */
    public Map<String, String> unavailable() {
        return java.util.Collections.unmodifiableMap(unavailable);
    }

    /**
     * {@return the servers for the run's configuration snapshot}: {@code {"servers": [{name, transport, status, tools |
     * reason, command/args/env or url/headers}]}} with environment variables and headers named, never their values, and
     * URLs without user information or query
     */
    @Override
    public JsonNode snapshot() {
        ObjectNode root = Json.object();
        ArrayNode list = root.putArray("servers");
        for (McpServerConfig config : configs) {
            ObjectNode server = list.addObject();
            server.put("name", config.name());
            switch (config) {
                case McpServerConfig.Stdio stdio -> {
                    server.put("transport", "stdio");
                    server.put("command", stdio.command());
                    server.set("args", Json.tree(stdio.args()));
                    server.set("env", Json.tree(stdio.env()));
                }
                case McpServerConfig.Http http -> {
                    server.put("transport", "http");
                    server.put("url", EndpointUrl.redacted(http.url()));
                    server.set("headers", Json.tree(new TreeMap<>(http.headers())));
                }
            }
            McpServerState state = state(config.name());
            server.set("status", Json.tree(state.status()));
            if (state.status() == McpServerState.Status.AVAILABLE) {
                server.set("tools", Json.tree(state.tools()));
            } else {
                server.put("reason", state.reason());
            }
        }
        return root;
    }

    /** {@return what connecting found of server {@code name}} */
    private McpServerState state(String name) {
        Connected ok = connected.get(name);
        return ok != null
                ? new McpServerState(
                        name,
                        McpServerState.Status.AVAILABLE,
                        null,
                        ok.tools().stream().map(McpTool::name).toList())
                : new McpServerState(name, McpServerState.Status.UNAVAILABLE, unavailable.get(name), List.of());
    }

    @Override
    public void close() {
        connected.values().forEach(server -> {
            try {
                server.client().close();
            } catch (RuntimeException ignored) {
                // A server that fails to shut down cleanly changes no result; its process ends with ours.
            }
        });
    }

    /**
     * The SDK's stdio transport, but the child process starts with an empty environment plus the SDK's basic variables
     * (PATH, HOME...) and the ones the configuration names: Assay's own API keys must not leak into third-party
     * servers.
     */
    private static final class IsolatedStdioTransport extends StdioClientTransport {
        private final Deque<String> lastErrors = new ArrayDeque<>();

        IsolatedStdioTransport(ServerParameters parameters) {
            super(parameters, MAPPER);
        }

        @Override
        protected ProcessBuilder getProcessBuilder() {
            var builder = new ProcessBuilder();
            builder.environment().clear();
            return builder;
        }

        synchronized void remember(String line) {
            if (lastErrors.size() == 5) {
                lastErrors.removeFirst();
            }
            lastErrors.addLast(line);
        }

        synchronized String lastErrors() {
            return String.join(" | ", lastErrors);
        }
    }
}
