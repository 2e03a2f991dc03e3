package dev.assay.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.assay.Json;
import dev.assay.testing.ScriptedOpenAiServer.Call;
import dev.assay.testing.ScriptedOpenAiServer.Reply;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A server on loopback speaking Anthropic's Messages API ({@code POST /v1/messages}, non-streaming): text and
 * {@code tool_use} answers, and injected failures (429 with {@code Retry-After}, 5xx, 529, malformed JSON, delays). It
 * reuses {@link ScriptedOpenAiServer}'s {@link Reply} vocabulary; every request body is recorded.
 */
public final class ScriptedAnthropicServer implements AutoCloseable {

    /**
     * One request as the script sees it.
     *
     * @param body the JSON body
     * @param firstUserText the text of the first user message (the case prompt)
     * @param assistantTurns how many assistant messages the conversation already holds
     */
    public record MessagesRequest(JsonNode body, String firstUserText, int assistantTurns) {}

    private final HttpServer server;
    private final Function<MessagesRequest, Reply> script;
    private final List<JsonNode> requests = Collections.synchronizedList(new ArrayList<>());
    private final List<String> credentials = Collections.synchronizedList(new ArrayList<>());
    private final ConcurrentLinkedQueue<Reply> injected = new ConcurrentLinkedQueue<>();
    private final AtomicInteger ids = new AtomicInteger();

    private ScriptedAnthropicServer(Function<MessagesRequest, Reply> script) throws IOException {
        this.script = script;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/v1/messages", this::handle);
        server.start();
    }

    public static ScriptedAnthropicServer start(Function<MessagesRequest, Reply> script) {
        try {
            return new ScriptedAnthropicServer(script);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** {@return the API root to give the SDK (it appends {@code /v1/messages})} */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The next requests get these replies first, in order, whatever the script says. */
    public void inject(Reply... replies) {
        injected.addAll(List.of(replies));
    }

    public List<JsonNode> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    /**
     * {@return the credential header of each request so far, in order: {@code x-api-key}, else {@code Authorization}
     * (the SDK sends the key in one or the other depending on its version); "" where there was none}
     */
    public List<String> credentials() {
        synchronized (credentials) {
            return List.copyOf(credentials);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonNode body = Json.MAPPER.readTree(exchange.getRequestBody());
            requests.add(body);
            String apiKey = exchange.getRequestHeaders().getFirst("x-api-key");
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            credentials.add(apiKey != null ? apiKey : authorization != null ? authorization : "");
            Reply reply = injected.poll();
            if (reply == null) {
                reply = script.apply(toRequest(body));
            }
            respond(exchange, reply);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static MessagesRequest toRequest(JsonNode body) {
        String firstUser = null;
        int assistants = 0;
        for (JsonNode message : body.path("messages")) {
            if (message.path("role").asText().equals("assistant")) {
                assistants++;
            } else if (firstUser == null) {
                firstUser = ScriptedOpenAiServer.contentText(message.path("content"));
            }
        }
        return new MessagesRequest(body, firstUser == null ? "" : firstUser, assistants);
    }

    private void respond(HttpExchange exchange, Reply reply) throws IOException, InterruptedException {
        switch (reply) {
            case Reply.Delayed delayed -> {
                Thread.sleep(delayed.millis());
                respond(exchange, delayed.then());
            }
            case Reply.Failure failure -> {
                failure.headers()
                        .forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
                ObjectNode error = Json.object().put("type", "error");
                error.putObject("error")
                        .put("type", failure.status() == 429 ? "rate_limit_error" : "api_error")
                        .put("message", "scripted failure " + failure.status());
                send(exchange, failure.status(), Json.write(error));
            }
            case Reply.Saying saying -> {
                ObjectNode error = Json.object().put("type", "error");
                error.putObject("error").put("type", "api_error").put("message", saying.message());
                send(exchange, saying.status(), Json.write(error));
            }
            case Reply.QuotingFailure failure -> {
                String apiKey = exchange.getRequestHeaders().getFirst("x-api-key");
                ObjectNode error = Json.object().put("type", "error");
                error.putObject("error")
                        .put("type", "authentication_error")
                        .put(
                                "message",
                                "invalid credentials: "
                                        + (apiKey != null
                                                ? apiKey
                                                : exchange.getRequestHeaders().getFirst("Authorization")));
                send(exchange, failure.status(), Json.write(error));
            }
            case Reply.Malformed malformed -> send(exchange, 200, "{\"id\": \"msg_x\", \"content\": [");
            case Reply.Answer answer -> send(exchange, 200, Json.write(message(answer)));
            // Messages are not streamed here: a cut stream is a body that stops halfway, an endless one a body that
            // trickles whitespace and never completes.
            case Reply.Truncated truncated -> {
                String body = Json.write(message(truncated.answer()));
                send(exchange, 200, body.substring(0, body.length() / 2));
            }
            case Reply.Endless endless -> {
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, 0);
                while (true) {
                    exchange.getResponseBody().write(' ');
                    exchange.getResponseBody().flush();
                    Thread.sleep(endless.millis());
                }
            }
        }
    }

    private ObjectNode message(Reply.Answer answer) {
        ObjectNode root = Json.object();
        int id = ids.incrementAndGet();
        root.put("id", "msg_" + id)
                .put("type", "message")
                .put("role", "assistant")
                .put("model", "scripted");
        ArrayNode content = root.putArray("content");
        if (!answer.text().isEmpty()) {
            content.addObject().put("type", "text").put("text", answer.text());
        }
        int index = 0;
        for (Call call : answer.toolCalls()) {
            content.addObject()
                    .put("type", "tool_use")
                    .put("id", "toolu_" + id + "_" + index++)
                    .put("name", call.name())
                    .set("input", call.arguments());
        }
        root.put("stop_reason", answer.toolCalls().isEmpty() ? "end_turn" : "tool_use");
        root.putNull("stop_sequence");
        root.putObject("usage").put("input_tokens", 11).put("output_tokens", 7);
        return root;
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }
}
