package dev.assay.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.assay.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * An OpenAI-compatible Chat Completions server on loopback for tests: real HTTP, streaming (SSE) and non-streaming,
 * tool calls, and injected failures (HTTP 429 with Retry-After, 500, slow answers that time out, malformed JSON,
 * streams cut short or never finished). What it answers comes from a {@link Script}; every request body and
 * {@code Authorization} header is recorded.
 */
public final class ScriptedOpenAiServer implements AutoCloseable {

    /** Decides the reply to one request. */
    @FunctionalInterface
    public interface Script {
        Reply reply(ChatRequest request);
    }

    /**
     * One request as the script sees it.
     *
     * @param body the JSON body
     * @param firstUserText the first user message (the case prompt)
     * @param assistantTurns how many assistant messages the conversation already holds (0 on the first call)
     * @param lastMessage the last message of the conversation
     */
    public record ChatRequest(JsonNode body, String firstUserText, int assistantTurns, JsonNode lastMessage) {
        public boolean streaming() {
            return body.path("stream").asBoolean(false);
        }

        public boolean offersTools() {
            return body.path("tools").isArray() && !body.path("tools").isEmpty();
        }
    }

    /** A scripted answer. */
    public sealed interface Reply {
        /** A normal answer: text and native tool calls (name, arguments JSON object). */
        record Answer(String text, List<Call> toolCalls) implements Reply {}

        /** An HTTP error with a JSON error body and optional headers. */
        record Failure(int status, Map<String, String> headers) implements Reply {}

        /** An HTTP error whose JSON error body has this message. */
        record Saying(int status, String message) implements Reply {}

        /** An HTTP error whose message quotes the request's key header, as some servers' do. */
        record QuotingFailure(int status) implements Reply {}

        /** A 200 answer whose body is not valid JSON. */
        record Malformed() implements Reply {}

        /** Waits, then answers as {@code then}. */
        record Delayed(long millis, Reply then) implements Reply {}

        /** A stream that sends part of {@code answer}'s text, then closes the connection without finishing. */
        record Truncated(Answer answer) implements Reply {}

        /** An answer that never finishes: a delta (streaming) or a byte of whitespace every {@code millis}. */
        record Endless(long millis) implements Reply {}
    }

    /** A native tool call in an {@link Reply.Answer}. */
    public record Call(String name, JsonNode arguments) {
        public static Call of(String name, String argumentsJson) {
            return new Call(name, Json.parse(argumentsJson));
        }
    }

    public static Reply text(String text) {
        return new Reply.Answer(text, List.of());
    }

    public static Reply calls(Call... calls) {
        return new Reply.Answer("", List.of(calls));
    }

    public static Reply failure(int status) {
        return new Reply.Failure(status, Map.of());
    }

    private final HttpServer server;
    private final Script script;
    private final List<JsonNode> requests = Collections.synchronizedList(new ArrayList<>());
    private final List<String> authorizations = Collections.synchronizedList(new ArrayList<>());
    private final ConcurrentLinkedQueue<Reply> injected = new ConcurrentLinkedQueue<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();

    private ScriptedOpenAiServer(Script script) throws IOException {
        this.script = script;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/v1/chat/completions", this::handle);
        server.start();
    }

    public static ScriptedOpenAiServer start(Script script) {
        try {
            return new ScriptedOpenAiServer(script);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** {@return the base URL to give the client, ending in /v1} */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** The next requests get these replies first, in order, whatever the script says. */
    public void inject(Reply... replies) {
        injected.addAll(List.of(replies));
    }

    /** {@return the request bodies received so far} */
    public List<JsonNode> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    /** {@return the Authorization header of each request so far, in order; "" where there was none} */
    public List<String> authorizations() {
        synchronized (authorizations) {
            return List.copyOf(authorizations);
        }
    }

    /** {@return the most requests this server has been answering at once so far} */
    public int maxInFlight() {
        return maxInFlight.get();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        try (exchange) {
            JsonNode body = Json.MAPPER.readTree(exchange.getRequestBody());
            requests.add(body);
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            authorizations.add(authorization == null ? "" : authorization);
            Reply reply = injected.poll();
            if (reply == null) {
                reply = script.reply(toRequest(body));
            }
            respond(exchange, body.path("stream").asBoolean(false), reply);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            inFlight.decrementAndGet();
        }
    }

    private static ChatRequest toRequest(JsonNode body) {
        String firstUser = "";
        int assistants = 0;
        JsonNode last = Json.object();
        for (JsonNode message : body.path("messages")) {
            String role = message.path("role").asText();
            if (role.equals("user") && firstUser.isEmpty()) {
                firstUser = contentText(message.path("content"));
            }
            if (role.equals("assistant")) {
                assistants++;
            }
            last = message;
        }
        return new ChatRequest(body, firstUser, assistants, last);
    }

    /** Content may be a string or a list of parts, depending on how the client serialised it. */
    public static String contentText(JsonNode content) {
        if (content.isTextual()) {
            return content.asText();
        }
        var text = new StringBuilder();
        content.forEach(part -> text.append(part.path("text").asText()));
        return text.toString();
    }

    private void respond(HttpExchange exchange, boolean stream, Reply reply) throws IOException, InterruptedException {
        switch (reply) {
            case Reply.Delayed delayed -> {
                Thread.sleep(delayed.millis());
                respond(exchange, stream, delayed.then());
            }
            case Reply.Failure failure -> {
                failure.headers()
                        .forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
                ObjectNode error = Json.object();
                error.putObject("error")
                        .put("message", "scripted failure " + failure.status())
                        .put("type", "scripted")
                        .put("code", String.valueOf(failure.status()));
                send(exchange, failure.status(), "application/json", Json.write(error));
            }
            case Reply.Saying saying -> {
                ObjectNode error = Json.object();
                error.putObject("error").put("message", saying.message()).put("type", "scripted");
                send(exchange, saying.status(), "application/json", Json.write(error));
            }
            case Reply.QuotingFailure failure -> {
                ObjectNode error = Json.object();
                error.putObject("error")
                        .put(
                                "message",
                                "Incorrect API key provided: "
                                        + exchange.getRequestHeaders().getFirst("Authorization"))
                        .put("type", "invalid_request_error");
                send(exchange, failure.status(), "application/json", Json.write(error));
            }
            case Reply.Malformed malformed -> send(exchange, 200, "application/json", "{\"id\": \"x\", \"choices\": [");
            case Reply.Truncated truncated -> {
                String text = truncated.answer().text();
                streamStart(exchange);
                event(
                        exchange.getResponseBody(),
                        textDelta("chatcmpl-" + ids.incrementAndGet(), text.substring(0, text.length() / 2)));
                // Closing the exchange now ends the chunked body without the last chunk nor [DONE].
                exchange.getResponseBody().close();
            }
            case Reply.Endless endless -> {
                // Streaming: deltas forever. Otherwise: a JSON body that opens and then only trickles whitespace.
                exchange.getResponseHeaders().add("Content-Type", stream ? "text/event-stream" : "application/json");
                exchange.sendResponseHeaders(200, 0);
                OutputStream out = exchange.getResponseBody();
                String id = "chatcmpl-" + ids.incrementAndGet();
                if (!stream) {
                    out.write("{\"id\": \"".concat(id).concat("\", ").getBytes(StandardCharsets.UTF_8));
                }
                while (true) {
                    if (stream) {
                        event(out, textDelta(id, "."));
                    } else {
                        out.write(' ');
                        out.flush();
                    }
                    Thread.sleep(endless.millis());
                }
            }
            case Reply.Answer answer -> {
                if (stream) {
                    stream(exchange, answer);
                } else {
                    send(exchange, 200, "application/json", Json.write(completion(answer)));
                }
            }
        }
    }

    private ObjectNode completion(Reply.Answer answer) {
        ObjectNode root = Json.object();
        root.put("id", "chatcmpl-" + ids.incrementAndGet());
        root.put("object", "chat.completion");
        root.put("created", 1_700_000_000L);
        root.put("model", "scripted");
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        ObjectNode message = choice.putObject("message");
        message.put("role", "assistant");
        if (answer.toolCalls().isEmpty()) {
            message.put("content", answer.text());
        } else {
            message.put("content", answer.text().isEmpty() ? null : answer.text());
            ArrayNode calls = message.putArray("tool_calls");
            int index = 0;
            for (Call call : answer.toolCalls()) {
                ObjectNode node = calls.addObject();
                node.put("id", "call_" + ids.incrementAndGet() + "_" + index++);
                node.put("type", "function");
                node.putObject("function").put("name", call.name()).put("arguments", Json.write(call.arguments()));
            }
        }
        choice.put("finish_reason", answer.toolCalls().isEmpty() ? "stop" : "tool_calls");
        ObjectNode usage = root.putObject("usage")
                .put("prompt_tokens", 10)
                .put("completion_tokens", 5)
                .put("total_tokens", 15);
        // Four of the ten prompt tokens read from the provider's cache, as OpenAI reports it: costs read all three.
        usage.putObject("prompt_tokens_details").put("cached_tokens", 4);
        return root;
    }

    private void stream(HttpExchange exchange, Reply.Answer answer) throws IOException {
        streamStart(exchange);
        OutputStream out = exchange.getResponseBody();
        String id = "chatcmpl-" + ids.incrementAndGet();
        // The text arrives in small deltas, as real servers send it, so the client must assemble it.
        String text = answer.text();
        for (int start = 0; start < text.length(); start += 4) {
            event(out, textDelta(id, text.substring(start, Math.min(text.length(), start + 4))));
        }
        int index = 0;
        for (Call call : answer.toolCalls()) {
            ObjectNode delta = chunk(id);
            ObjectNode toolCall = delta.withArray("choices")
                    .addObject()
                    .put("index", 0)
                    .putObject("delta")
                    .putArray("tool_calls")
                    .addObject();
            toolCall.put("index", index).put("id", "call_" + id + "_" + index).put("type", "function");
            toolCall.putObject("function").put("name", call.name()).put("arguments", Json.write(call.arguments()));
            event(out, delta);
            index++;
        }
        ObjectNode last = chunk(id);
        last.withArray("choices")
                .addObject()
                .put("index", 0)
                .put("finish_reason", answer.toolCalls().isEmpty() ? "stop" : "tool_calls")
                .putObject("delta");
        event(out, last);
        out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void streamStart(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
    }

    private static ObjectNode textDelta(String id, String text) {
        ObjectNode delta = chunk(id);
        delta.withArray("choices")
                .addObject()
                .put("index", 0)
                .putObject("delta")
                .put("content", text);
        return delta;
    }

    private static ObjectNode chunk(String id) {
        ObjectNode chunk = Json.object();
        chunk.put("id", id)
                .put("object", "chat.completion.chunk")
                .put("created", 1_700_000_000L)
                .put("model", "scripted");
        chunk.putArray("choices");
        return chunk;
    }

    private static void event(OutputStream out, JsonNode data) throws IOException {
        out.write(("data: " + Json.write(data) + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    /** A script that answers every request with the same reply. */
    public static Script always(Reply reply) {
        return request -> reply;
    }

    /** A script keyed by a fragment of the case prompt; each entry lists the replies for successive turns. */
    public static Script byPrompt(
            Map<String, List<Reply>> turnsByPromptFragment, Function<ChatRequest, Reply> otherwise) {
        return request -> {
            for (var entry : turnsByPromptFragment.entrySet()) {
                if (request.firstUserText().contains(entry.getKey())) {
                    List<Reply> turns = entry.getValue();
                    return turns.get(Math.min(request.assistantTurns(), turns.size() - 1));
                }
            }
            return otherwise.apply(request);
        };
    }
}
