package dev.assay.model.openai;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Deadlines;
import dev.assay.EndpointUrl;
import dev.assay.IdentityMemo;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.model.ChatMessage;
import dev.assay.model.ChatModel;
import dev.assay.model.ModelRequest;
import dev.assay.model.ModelResponse;
import dev.assay.model.RetryLoop;
import dev.assay.model.ToolCallRequest;
import dev.assay.tools.ToolSpec;
import dev.assay.transcript.Usage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A model behind an OpenAI-compatible Chat Completions API (OpenAI, vLLM, Ollama, DeepSeek, Qwen...), spoken directly
 * over the JDK's {@link HttpClient} with Jackson. The official SDK was measured first: building its typed request and
 * reading its typed response took more CPU than the rest of a case together (bench/README.md, "The OpenAI path"), while
 * the wire format is small and stable. Assay retries with its {@link dev.assay.model.RetryPolicy}, so attempts and
 * waits are bounded, configurable and reported. Thread-safe.
 */
public final class OpenAiChatModel implements ChatModel {
    private static final String USER_AGENT = "assay";

    private final HttpClient client;
    // The same tools go with every request of a run, as one list: their JSON is written once.
    // Kept with its UTF-8 bytes (SerializedString), which every request body copies rather than encodes again.
    private final IdentityMemo<List<ToolSpec>, SerializedString> toolDefinitions =
            new IdentityMemo<>(tools -> new SerializedString(definitions(tools)));
    private final URI completions;
    private final String model;
    private final String authorization;
    private final String endpoint;
    private final boolean stream;
    private final Duration requestTimeout;
    private final RetryLoop retry;

    /**
     * @param settings how to reach the API; the key is used for requests only, never stored or logged
     * @param log receives one line per retry ("retrying after 429, attempt 2/4, waiting 1.0 s")
     */
    public OpenAiChatModel(OpenAiSettings settings, Consumer<String> log) {
        String base = settings.baseUrl().endsWith("/")
                ? settings.baseUrl().substring(0, settings.baseUrl().length() - 1)
                : settings.baseUrl();
        this.completions = URI.create(base + "/chat/completions");
        // HTTP/1.1 with a connection per call in flight, kept alive: the JDK's HTTP/2 puts every call to a host on one
        // connection and fails the calls past the server's stream limit (often 100), where runs go up to 256 at once;
        // and on plain HTTP asking for HTTP/2 sends an h2c upgrade that some local servers mishandle.
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(shorter(Duration.ofSeconds(30), settings.requestTimeout()))
                .followRedirects(HttpClient.Redirect.NEVER)
                // The client's dependent tasks (reading a body into an Answer, completing the caller's future) run
                // where they are triggered, mostly on its selector thread: none of them blocks, and handing each to the
                // default pool's platform threads cost two context switches per call, a fifth of a run's CPU at 0 ms
                // latency (bench/README.md, "The OpenAI path").
                .executor(Runnable::run)
                .build();
        this.model = settings.model();
        this.authorization = settings.apiKey().isEmpty() ? null : "Bearer " + headerSafe(settings.apiKey());
        this.endpoint = EndpointUrl.redacted(settings.baseUrl());
        this.stream = settings.stream();
        this.requestTimeout = settings.requestTimeout();
        this.retry = new RetryLoop(settings.retry(), log, EndpointUrl.hostAndPort(settings.baseUrl()));
    }

    @Override
    public void close() {
        // Idle connections and the client's selector thread would otherwise linger after each run.
        client.shutdownNow();
    }

    @Override
    public String endpoint() {
        return endpoint;
    }

    @Override
    public String name() {
        return "openai:" + model;
    }

    @Override
    public ModelResponse complete(ModelRequest request) throws InterruptedException {
        byte[] body = body(request);
        return retry.call(request.timeout(), remaining -> send(body, remaining), OpenAiChatModel::classify);
    }

    private ModelResponse send(byte[] body, Duration remaining) throws InterruptedException {
        Duration timeout = remaining == null ? requestTimeout : shorter(remaining, requestTimeout);
        if (timeout.toMillis() < 1) {
            throw new CallFailure(timedOut());
        }
        var builder = HttpRequest.newBuilder(completions)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", stream ? "text/event-stream" : "application/json")
                .header("User-Agent", USER_AGENT)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (authorization != null) {
            builder.header("Authorization", authorization);
        }
        StreamedAnswer events = stream ? new StreamedAnswer() : null;
        CompletableFuture<HttpResponse<Answer>> exchange =
                client.sendAsync(builder.build(), info -> answer(info, events));
        try {
            // The client's own timeout ends when the headers arrive; this one covers the whole body too.
            return Deadlines.await(exchange, timeout).body().response();
        } catch (InterruptedException e) {
            exchange.cancel(true);
            throw e;
        } catch (TimeoutException e) {
            throw new CallFailure(timedOut());
        } catch (ExecutionException e) {
            throw failureOf(e.getCause(), events);
        }
    }

    private static RuntimeException failureOf(Throwable cause, StreamedAnswer events) {
        if (cause instanceof HttpTimeoutException) {
            return new CallFailure(timedOut());
        }
        if (cause instanceof IOException) {
            // Events already read, then a broken connection: the answer was cut mid-way.
            return new CallFailure(
                    events != null && events.started() ? RetryLoop.truncated() : RetryLoop.unreachable(cause));
        }
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        return new IllegalStateException("the OpenAI-compatible call failed unexpectedly", cause);
    }

    private static RetryLoop.Failure timedOut() {
        return new RetryLoop.Failure(Problem.of("target.timeout", "no answer in time"), true, null);
    }

    /** Reads a response as it arrives: an error's text, an answer's JSON, or a stream's events folded into one. */
    private static HttpResponse.BodySubscriber<Answer> answer(HttpResponse.ResponseInfo info, StreamedAnswer events) {
        int status = info.statusCode();
        if (status < 200 || status >= 300) {
            Duration retryAfter = RetryLoop.parseRetryAfter(
                    info.headers().firstValue("retry-after").orElse(null));
            return HttpResponse.BodySubscribers.mapping(
                    HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8), text -> () -> {
                        throw new CallFailure(RetryLoop.httpFailure(status, errorMessage(text), retryAfter));
                    });
        }
        if (events != null) {
            return HttpResponse.BodySubscribers.fromLineSubscriber(
                    events, StreamedAnswer::answer, StandardCharsets.UTF_8, null);
        }
        return HttpResponse.BodySubscribers.mapping(
                HttpResponse.BodySubscribers.ofByteArray(), bytes -> () -> single(bytes));
    }

    /** A response body once read: the answer, or the failure it holds. */
    @FunctionalInterface
    interface Answer {
        ModelResponse response();
    }

    private static ModelResponse single(byte[] body) {
        JsonNode completion;
        try {
            completion = Json.MAPPER.readTree(body);
        } catch (IOException e) {
            throw new CallFailure(RetryLoop.malformed(unreadable(e)));
        }
        if (completion == null || !completion.isObject()) {
            throw new CallFailure(RetryLoop.malformed("the body is not a JSON object"));
        }
        JsonNode choices = completion.path("choices");
        if (!choices.isArray() || choices.isEmpty()) {
            throw new AssayException(Problem.of("target.malformed_response", "the response has no choices"));
        }
        JsonNode choice = choices.get(0);
        JsonNode message = choice.path("message");
        var calls = new ArrayList<ToolCallRequest>();
        for (JsonNode call : message.path("tool_calls")) {
            JsonNode function = call.path("function");
            if (function.isObject()) {
                calls.add(new ToolCallRequest(
                        call.path("id").asText(""),
                        function.path("name").asText(""),
                        parseArguments(textOf(function.path("arguments")))));
            }
        }
        return new ModelResponse(
                textOf(message.path("content")),
                textOf(message.path("reasoning_content")),
                calls,
                usage(completion.path("usage")),
                textOf(choice.path("finish_reason")));
    }

    /** {@return why JSON could not be read, without the parser's quote of the input} */
    static String unreadable(IOException e) {
        return e instanceof JsonProcessingException json ? json.getOriginalMessage() : String.valueOf(e.getMessage());
    }

    private static String textOf(JsonNode node) {
        return node.isTextual() ? node.textValue() : "";
    }

    static Usage usage(JsonNode usage) {
        if (!usage.isObject()) {
            return Usage.NONE;
        }
        return new Usage(
                usage.path("prompt_tokens").asLong(0),
                usage.path("completion_tokens").asLong(0));
    }

    /** The message an error body carries ({@code {"error": {"message": ...}}}), else the body itself. */
    private static String errorMessage(String body) {
        try {
            JsonNode error = Json.MAPPER.readTree(body).path("error");
            if (error.path("message").isTextual()) {
                return error.path("message").textValue();
            }
        } catch (IOException | RuntimeException notJson) {
            // Proxies answer errors in HTML or plain text: the text itself is the message.
        }
        return body;
    }

    // OpenAI marks `seed` deprecated, but compatible servers (vLLM, Ollama) honour it and users ask for it.
    private byte[] body(ModelRequest request) {
        var bytes = new ByteArrayBuilder(1024);
        try (JsonGenerator json = Json.MAPPER.getFactory().createGenerator(bytes)) {
            json.writeStartObject();
            json.writeStringField("model", model);
            json.writeArrayFieldStart("messages");
            for (ChatMessage message : request.messages()) {
                message(json, message);
            }
            json.writeEndArray();
            if (!request.tools().isEmpty()) {
                json.writeFieldName("tools");
                json.writeRawValue(toolDefinitions.get(request.tools()));
            }
            if (request.temperature() != null) {
                json.writeNumberField("temperature", request.temperature());
            }
            if (request.seed() != null) {
                json.writeNumberField("seed", request.seed());
            }
            if (request.maxTokens() != null) {
                json.writeNumberField("max_completion_tokens", request.maxTokens());
            }
            if (stream) {
                json.writeBooleanField("stream", true);
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory failed", e);
        }
        return bytes.toByteArray();
    }

    private static void message(JsonGenerator json, ChatMessage message) throws IOException {
        json.writeStartObject();
        json.writeStringField("role", message.role().wireName());
        switch (message.role()) {
            case SYSTEM, USER -> json.writeStringField("content", message.content());
            case TOOL -> {
                json.writeStringField("tool_call_id", message.toolCallId());
                json.writeStringField("content", message.content());
            }
            case ASSISTANT -> {
                if (!message.content().isEmpty() || message.toolCalls().isEmpty()) {
                    json.writeStringField("content", message.content());
                }
                if (!message.toolCalls().isEmpty()) {
                    json.writeArrayFieldStart("tool_calls");
                    for (ToolCallRequest call : message.toolCalls()) {
                        json.writeStartObject();
                        json.writeStringField("id", call.id());
                        json.writeStringField("type", "function");
                        json.writeObjectFieldStart("function");
                        json.writeStringField("name", call.name());
                        json.writeStringField("arguments", Json.write(call.arguments()));
                        json.writeEndObject();
                        json.writeEndObject();
                    }
                    json.writeEndArray();
                }
            }
        }
        json.writeEndObject();
    }

    private static String definitions(List<ToolSpec> tools) {
        var definitions = Json.MAPPER.createArrayNode();
        for (ToolSpec tool : tools) {
            definitions
                    .addObject()
                    .put("type", "function")
                    .putObject("function")
                    .put("name", tool.name())
                    .put("description", tool.description())
                    .set("parameters", tool.parameters());
        }
        return Json.write(definitions);
    }

    /** Models sometimes send arguments that are not a JSON object; they are kept, wrapped, for the checkers. */
    static JsonNode parseArguments(String arguments) {
        if (arguments == null || arguments.isBlank()) {
            return Json.object();
        }
        try {
            JsonNode node = Json.MAPPER.readTree(arguments);
            return node.isObject() ? node : Json.object().set("raw", node);
        } catch (Exception e) {
            return Json.object().put("raw", arguments);
        }
    }

    /**
     * {@return the key as it can go in a header: without the line break an environment file or a secret mount often
     * leaves at its end}
     *
     * @throws AssayException {@code config.invalid_api_key} for a key with other control or non-ASCII characters, which
     *     the HTTP client would refuse with a message quoting the key
     */
    static String headerSafe(String key) {
        String stripped = key.strip();
        for (int i = 0; i < stripped.length(); i++) {
            char c = stripped.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                throw new AssayException(Problem.of(
                                "config.invalid_api_key",
                                "the API key holds a character that cannot be sent in an HTTP header (position "
                                        + (i + 1) + " of " + stripped.length() + "); check the variable that holds it")
                        .withDetail("position", i + 1));
            }
        }
        return stripped;
    }

    private static Duration shorter(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static RetryLoop.Failure classify(RuntimeException e) {
        return e instanceof CallFailure failure ? failure.failure : null;
    }

    /** A try that failed on the remote side, with how to report it; no stack trace is filled in. */
    static final class CallFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient RetryLoop.Failure failure;

        CallFailure(RetryLoop.Failure failure) {
            super(failure.problem().message(), null, false, false);
            this.failure = failure;
        }
    }
}
