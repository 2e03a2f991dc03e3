package dev.assay.tools.mcp;

import dev.assay.sandbox.SandboxProcess;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * MCP's stdio transport over a process that a {@link dev.assay.sandbox.Sandbox} started: one JSON-RPC message per line
 * on the process's standard input and output. The SDK's own stdio transport starts its process itself, which would
 * leave the sandbox out. {@link #ended()} completes, with the reason, when the process closes its output or writes a
 * line that is not a JSON-RPC message, so that a caller waiting for an answer learns at once that none will come.
 * Thread-safe.
 */
final class ProcessTransport implements McpClientTransport {
    private final SandboxProcess process;
    private final McpJsonMapper mapper;
    private final CompletableFuture<Ended> ended = new CompletableFuture<>();

    /**
     * Why no answer will come.
     *
     * @param type {@code environment.died} (the output closed) or {@code environment.bad_response} (a garbled line)
     * @param message for people
     */
    record Ended(String type, String message) {}

    ProcessTransport(SandboxProcess process, McpJsonMapper mapper) {
        this.process = process;
        this.mapper = mapper;
    }

    /** {@return completed when the server can answer no more, with the reason} */
    CompletableFuture<Ended> ended() {
        return ended;
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return Mono.fromRunnable(
                () -> Thread.ofVirtual().name("assay-environment-reader").start(() -> read(handler)));
    }

    private void read(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        try (var lines = new BufferedReader(new InputStreamReader(process.stdout(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                McpSchema.JSONRPCMessage message;
                try {
                    message = McpSchema.deserializeJsonRpcMessage(mapper, line);
                } catch (IOException | RuntimeException e) {
                    String shown = line.length() > 200 ? line.substring(0, 200) + "..." : line;
                    ended.complete(new Ended(
                            "environment.bad_response",
                            "the environment wrote a line that is not a JSON-RPC message: " + shown));
                    return;
                }
                handler.apply(Mono.just(message)).subscribe();
            }
        } catch (IOException e) {
            // The stream broke: the process is gone, as at the end of its output.
        }
        ended.complete(new Ended("environment.died", "the environment's process ended"));
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        return Mono.fromCallable(() -> {
            byte[] line = (mapper.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8);
            OutputStream stdin = process.stdin();
            synchronized (this) {
                stdin.write(line);
                stdin.flush();
            }
            return null;
        });
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(process::close);
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return mapper.convertValue(data, typeRef);
    }
}
