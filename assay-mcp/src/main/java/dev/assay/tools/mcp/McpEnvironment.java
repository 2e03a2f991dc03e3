package dev.assay.tools.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.SandboxLimits;
import dev.assay.sandbox.SandboxProcess;
import dev.assay.sandbox.SandboxRequest;
import dev.assay.tools.Tool;
import dev.assay.tools.ToolResult;
import dev.assay.tools.Workspace;
import dev.assay.tools.environment.Environment;
import dev.assay.tools.environment.EnvironmentSpec;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * One environment: a stdio MCP server started in a sandbox for one trial, connected with the MCP Java SDK over
 * {@link ProcessTransport}. Every request waits for its answer, the end of the process or the time limit, whichever
 * comes first, so a server that dies or answers garbage is known at once and one that hangs at the time limit.
 * Thread-safe.
 */
final class McpEnvironment implements Environment {
    /**
     * Runs the command in the case file's directory (shown read-only inside bubblewrap at the same path), after the
     * sandbox has made its scratch directory the working one.
     */
    private static final String IN_DIRECTORY = "cd \"$1\" && shift && exec \"$@\"";

    private final SandboxProcess process;
    private final ProcessTransport transport;
    private final McpSyncClient client;
    private final Path scratch;
    private final Duration timeout;
    private final String stateUri;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Map<String, Tool> tools = Map.of();

    private McpEnvironment(
            SandboxProcess process,
            ProcessTransport transport,
            McpSyncClient client,
            Path scratch,
            Duration timeout,
            String stateUri) {
        this.process = process;
        this.transport = transport;
        this.client = client;
        this.scratch = scratch;
        this.timeout = timeout;
        this.stateUri = stateUri;
    }

    /** Starts the server, initialises it and lists its tools, within {@code timeout}. */
    static McpEnvironment start(EnvironmentSpec spec, Sandbox sandbox, Duration timeout) throws InterruptedException {
        Path scratch;
        try {
            scratch = Files.createTempDirectory("assay-environment-");
        } catch (IOException e) {
            throw new AssayException(
                    Problem.of("environment.start_failed", "cannot make the environment's scratch directory: " + e), e);
        }
        var command = new ArrayList<>(
                List.of("/bin/sh", "-c", IN_DIRECTORY, "sh", spec.directory().toString()));
        command.addAll(spec.command());
        // The wall-clock limit is a backstop: the trial closes its environment as soon as it ends.
        var limits =
                SandboxLimits.defaults().withWallTime(timeout.multipliedBy(2).plusSeconds(30));
        SandboxProcess process;
        try {
            process = sandbox.start(
                    new SandboxRequest(command, scratch, Map.of(), "", limits, List.of(spec.directory())));
        } catch (AssayException e) {
            delete(scratch);
            throw new AssayException(
                    Problem.of(
                                    "environment.start_failed",
                                    "the environment could not be started: "
                                            + e.problem().message())
                            .withDetail("command", spec.command()),
                    e);
        }
        var transport = new ProcessTransport(process, McpToolset.MAPPER);
        McpSyncClient client = McpClient.sync(transport)
                .clientInfo(McpToolset.CLIENT)
                // Longer than this class's own limit, which is the one that applies.
                .requestTimeout(timeout.plusSeconds(5))
                .initializationTimeout(timeout.plusSeconds(5))
                .build();
        var environment = new McpEnvironment(process, transport, client, scratch, timeout, spec.state());
        try {
            environment.ask("initialisation", client::initialize, "environment.start_failed");
            var listed = new LinkedHashMap<String, Tool>();
            String cursor = null;
            do {
                String page = cursor;
                McpSchema.ListToolsResult result =
                        environment.ask("tools/list", () -> client.listTools(page), "environment.start_failed");
                result.tools().forEach(tool -> listed.putIfAbsent(tool.name(), environment.new EnvironmentTool(tool)));
                cursor = result.nextCursor();
            } while (cursor != null && !cursor.isEmpty());
            environment.tools = listed;
            return environment;
        } catch (InterruptedException | RuntimeException e) {
            environment.close();
            if (e instanceof AssayException assay && assay.problem().type().equals("environment.died")) {
                // Gone before it was ready: it did not start, whatever the reason its stderr gives.
                throw new AssayException(
                        new Problem(
                                "environment.start_failed",
                                assay.problem().message(),
                                assay.problem().details()),
                        e);
            }
            throw e;
        }
    }

    @Override
    public List<Tool> tools() {
        return List.copyOf(tools.values());
    }

    @Override
    public ToolResult call(String name, JsonNode arguments) throws InterruptedException {
        if (!tools.containsKey(name)) {
            return ToolResult.failed(Problem.of(
                    "tool.unknown",
                    "the environment has no tool named '" + name + "'; it has " + String.join(", ", tools.keySet())));
        }
        McpSchema.CallToolResult result;
        try {
            result = ask(
                    "the call of " + name,
                    () -> client.callTool(McpSchema.CallToolRequest.builder(name)
                            .arguments(McpTool.arguments(arguments))
                            .build()),
                    "environment.call_failed");
        } catch (AssayException e) {
            return ToolResult.failed(e.problem());
        }
        String text = McpTool.text(result);
        if (Boolean.TRUE.equals(result.isError())) {
            return ToolResult.failed(Problem.of("mcp.tool_error", text.isEmpty() ? name + " reported an error" : text));
        }
        return ToolResult.ok(text);
    }

    @Override
    public JsonNode state() throws InterruptedException {
        McpSchema.ReadResourceResult result = ask(
                "resources/read of " + stateUri,
                () -> client.readResource(
                        McpSchema.ReadResourceRequest.builder(stateUri).build()),
                "environment.bad_state");
        String text = null;
        for (McpSchema.ResourceContents contents :
                result.contents() == null ? List.<McpSchema.ResourceContents>of() : result.contents()) {
            if (contents instanceof McpSchema.TextResourceContents textContents && textContents.text() != null) {
                text = textContents.text();
                break;
            }
        }
        if (text == null) {
            throw new AssayException(
                    Problem.of("environment.bad_state", "the state resource " + stateUri + " has no text contents")
                            .withDetail("state", stateUri));
        }
        try {
            return Json.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new AssayException(
                    Problem.of(
                                    "environment.bad_state",
                                    "the state resource " + stateUri + " is not JSON: " + e.getOriginalMessage())
                            .withDetail("state", stateUri),
                    e);
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        // Killed first: the SDK's close would otherwise wait on a server that may not answer.
        process.close();
        try {
            client.close();
        } catch (RuntimeException ignored) {
            // The process is gone; what the SDK says of that changes nothing.
        }
        delete(scratch);
    }

    /**
     * {@return the answer to {@code request}}, waited for until it comes, the server can answer no more, or the time
     * limit
     *
     * @param failedType the problem type when the server answers with an error
     */
    private <T> T ask(String what, Callable<T> request, String failedType) throws InterruptedException {
        CompletableFuture<T> answer = new CompletableFuture<>();
        Thread.ofVirtual().name("assay-environment-request").start(() -> {
            try {
                answer.complete(request.call());
            } catch (Exception | Error e) {
                answer.completeExceptionally(e);
            }
        });
        try {
            CompletableFuture.anyOf(answer, transport.ended()).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new AssayException(Problem.of(
                            "environment.timeout",
                            what + " got no answer from the environment within " + timeout.toSeconds() + " s")
                    .withDetail("timeout_s", timeout.toSeconds()));
        } catch (ExecutionException e) {
            // The answer failed; told apart below from a server that ended.
        }
        if (answer.isDone() && !answer.isCompletedExceptionally()) {
            return answer.join();
        }
        ProcessTransport.Ended ended = transport.ended().getNow(null);
        if (ended != null) {
            throw new AssayException(Problem.of(ended.type(), ended.message() + " before " + what + stderr())
                    .withDetail("exit_code", process.exitCode()));
        }
        Throwable cause;
        try {
            answer.join();
            throw new IllegalStateException("an answer that failed completed");
        } catch (CompletionException e) {
            cause = e.getCause() == null ? e : e.getCause();
        }
        throw new AssayException(Problem.of(failedType, what + " failed: " + McpTool.message(cause)), cause);
    }

    private String stderr() {
        String text = process.stderr().strip();
        if (text.isEmpty()) {
            return "";
        }
        return "; its stderr ends: " + (text.length() > 500 ? text.substring(text.length() - 500) : text);
    }

    private static void delete(Path directory) {
        try (Stream<Path> tree = Files.walk(directory)) {
            for (Path path : (Iterable<Path>) tree.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            // A scratch directory left in the host's temporary directory holds only what the server wrote there.
        }
    }

    /** One tool of the environment, offered under the server's own name for it. */
    private final class EnvironmentTool implements Tool {
        private final McpSchema.Tool tool;
        private final JsonNode parameters;

        EnvironmentTool(McpSchema.Tool tool) {
            this.tool = tool;
            this.parameters = McpTool.parameters(tool);
        }

        @Override
        public String name() {
            return tool.name();
        }

        @Override
        public String description() {
            return McpTool.description(tool);
        }

        @Override
        public JsonNode parameters() {
            return parameters;
        }

        /** The environment lives outside the case's workspace; the workspace is not its to use. */
        @Override
        public ToolResult call(JsonNode arguments, Workspace workspace) throws InterruptedException {
            return McpEnvironment.this.call(tool.name(), arguments);
        }
    }
}
