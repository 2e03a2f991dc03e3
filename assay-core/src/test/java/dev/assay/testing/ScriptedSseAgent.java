package dev.assay.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.assay.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An agent service on loopback that speaks the reference server's {@code POST /wunder} protocol: real HTTP, a
 * {@code text/event-stream} answer with {@code event:} and {@code id:} lines and {@code {"session_id", "timestamp",
 * "data": {...}}} payloads (some spread over several {@code data:} lines), keep-alive comments, writes into the
 * workspace the request names, injected HTTP failures and pauses. A {@link Script} decides each answer from the request
 * body; requests (body and headers) are recorded.
 */
public final class ScriptedSseAgent implements AutoCloseable {

    /** Decides the answer to one request body. */
    @FunctionalInterface
    public interface Script {
        Reply reply(JsonNode body);
    }

    /** One answer. */
    public sealed interface Reply {
        /** A 200 event stream made of these steps. */
        record Events(List<Step> steps) implements Reply {}

        /** An HTTP error before any stream, with optional headers. */
        record Failure(int status, Map<String, String> headers) implements Reply {}
    }

    /** One thing the stream does. */
    public sealed interface Step {
        /** Sends an event; {@code multiline} spreads the data JSON over several {@code data:} lines. */
        record Event(String name, JsonNode payload, boolean multiline) implements Step {}

        /** Sends raw text as it is (for malformed streams and foreign formats). */
        record Raw(String text) implements Step {}

        /** Waits before the next step. */
        record Pause(long millis) implements Step {}

        /** Writes a file under the directory the request body names in {@code workspace}. */
        record WriteFile(String relative, String content) implements Step {}
    }

    /** A wunder-style event whose payload is {@code payloadJson}. */
    public static Step event(String name, String payloadJson) {
        return new Step.Event(name, Json.parse(payloadJson), false);
    }

    public static Step multilineEvent(String name, String payloadJson) {
        return new Step.Event(name, Json.parse(payloadJson), true);
    }

    public static Step pause(long millis) {
        return new Step.Pause(millis);
    }

    public static Step writeFile(String relative, String content) {
        return new Step.WriteFile(relative, content);
    }

    public static Reply events(Step... steps) {
        return new Reply.Events(List.of(steps));
    }

    public static Reply failure(int status) {
        return new Reply.Failure(status, Map.of());
    }

    /** A recorded request. */
    public record Request(JsonNode body, Map<String, List<String>> headers) {
        public String header(String name) {
            return headers.entrySet().stream()
                    .filter(entry -> entry.getKey().equalsIgnoreCase(name))
                    .map(entry -> entry.getValue().get(0))
                    .findFirst()
                    .orElse(null);
        }
    }

    private final HttpServer server;
    private final Script script;
    private final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
    private final ConcurrentLinkedQueue<Reply> injected = new ConcurrentLinkedQueue<>();
    private final AtomicInteger abandoned = new AtomicInteger();

    private ScriptedSseAgent(Script script) throws IOException {
        this.script = script;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/wunder", this::handle);
        server.createContext("/tools", exchange -> {
            try (exchange) {
                send(
                        exchange,
                        200,
                        "application/json",
                        "{\"tools\": [{\"name\": \"读取文件\"}, {\"name\": \"write_file\"}, {\"name\": \"docs@search\"}]}");
            }
        });
        server.start();
    }

    public static ScriptedSseAgent start(Script script) {
        try {
            return new ScriptedSseAgent(script);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A script choosing by a fragment of the prompt ({@code question}); unmatched prompts get {@code otherwise}. */
    public static Script byPrompt(Map<String, Reply> replies, Reply otherwise) {
        return body -> replies.entrySet().stream()
                .filter(entry -> body.path("question").asText().contains(entry.getKey()))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElse(otherwise);
    }

    /** {@return the agent endpoint, {@code http://127.0.0.1:PORT/wunder}} */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/wunder";
    }

    /** {@return the tool-discovery endpoint; it lists 读取文件, write_file and docs@search} */
    public String toolsUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/tools";
    }

    /** The next requests get these replies first, in order, whatever the script says. */
    public void inject(Reply... replies) {
        injected.addAll(List.of(replies));
    }

    public List<Request> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    /** {@return how many streams the client closed before the script ended} */
    public int abandonedStreams() {
        return abandoned.get();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonNode body = Json.MAPPER.readTree(exchange.getRequestBody());
            requests.add(new Request(body, Map.copyOf(exchange.getRequestHeaders())));
            Reply reply = injected.poll();
            if (reply == null) {
                reply = script.reply(body);
            }
            switch (reply) {
                case Reply.Failure failure -> {
                    failure.headers()
                            .forEach((name, value) ->
                                    exchange.getResponseHeaders().add(name, value));
                    send(
                            exchange,
                            failure.status(),
                            "application/json",
                            "{\"error\": {\"code\": \"SCRIPTED\", \"message\": \"scripted failure\"}}");
                }
                case Reply.Events stream -> stream(exchange, body, stream.steps());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void stream(HttpExchange exchange, JsonNode body, List<Step> steps)
            throws IOException, InterruptedException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        int id = 0;
        try {
            write(out, ": connected\n\n");
            for (Step step : steps) {
                switch (step) {
                    case Step.Pause pause -> {
                        // Keep-alive comments while pausing show whether the client is still there.
                        long until = System.currentTimeMillis() + pause.millis();
                        while (System.currentTimeMillis() < until) {
                            Thread.sleep(Math.min(50, Math.max(1, until - System.currentTimeMillis())));
                            write(out, ": ping\n\n");
                        }
                    }
                    case Step.Raw raw -> write(out, raw.text());
                    case Step.WriteFile file -> {
                        // A request without a workspace (the service keeps its own) gets nothing written: resolving
                        // against the working directory would litter the module's sources.
                        String workspace = body.path("workspace").asText("");
                        if (!workspace.isEmpty()) {
                            Path path = Path.of(workspace).resolve(file.relative());
                            Files.createDirectories(path.getParent());
                            Files.writeString(path, file.content());
                        }
                    }
                    case Step.Event event -> {
                        ObjectNode data = Json.object();
                        data.put("session_id", body.path("session_id").asText());
                        data.put("timestamp", Instant.now().toString());
                        data.set("data", event.payload());
                        String json = event.multiline()
                                ? Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(data)
                                : Json.write(data);
                        var text = new StringBuilder("event: ")
                                .append(event.name())
                                .append('\n')
                                .append("id: ")
                                .append(++id)
                                .append('\n');
                        json.lines()
                                .forEach(line ->
                                        text.append("data: ").append(line).append('\n'));
                        write(out, text.append('\n').toString());
                    }
                }
            }
        } catch (IOException clientLeft) {
            abandoned.incrementAndGet();
        }
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }
}
