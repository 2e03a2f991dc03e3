package dev.assay.model.openai;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.EndpointUrl;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.internal.Deadlines;
import dev.assay.internal.IdentityMemo;
import dev.assay.model.ChatMessage;
import dev.assay.model.ChatModel;
import dev.assay.model.ModelRequest;
import dev.assay.model.ModelResponse;
import dev.assay.model.RetryLoop;
import dev.assay.model.ToolCallRequest;
import dev.assay.model.openai.internal.StreamedAnswer;
import dev.assay.tools.ToolSpec;
import dev.assay.transcript.Usage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.MalformedURLException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Consumer;

/**
 * A model behind an OpenAI-compatible Chat Completions API (OpenAI, vLLM, Ollama, DeepSeek, Qwen...), spoken directly
 * over the JDK's {@link HttpURLConnection} with Jackson. The official SDK was measured first: building its typed
 * request and reading its typed response took more CPU than the rest of a case together (bench/README.md, "The OpenAI
 * path"), while the wire format is small and stable. Assay retries with its {@link dev.assay.model.RetryPolicy}, so
 * attempts and waits are bounded, configurable and reported. Thread-safe.
 */
public final class OpenAiChatModel implements ChatModel {
    private static final String USER_AGENT = "assay";

    static {
        // Both are read once per process, at the first call; a value the user set stays. Connections kept alive between
        // calls: with the JDK's default of 5 a run at concurrency 64 would open a new connection for most calls. And a
        // POST never sent again behind Assay's back: by default the JDK resends one whose connection broke before the
        // answer's status line, so a server that crashed mid-answer got each attempt twice, billed and uncounted.
        setUnlessSet("http.maxConnections", "1024");
        setUnlessSet("sun.net.http.retryPost", "false");
    }

    private static void setUnlessSet(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);

    // The same tools go with every request of a run, as one list: their JSON is written once.
    // Kept with its UTF-8 bytes (SerializedString), which every request body copies rather than encodes again.
    private final IdentityMemo<List<ToolSpec>, SerializedString> toolDefinitions =
            new IdentityMemo<>(tools -> new SerializedString(definitions(tools)));
    private final URL completions;
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
        this.completions = httpUrl(base + "/chat/completions");
        this.model = settings.model();
        this.authorization = settings.apiKey().isEmpty() ? null : "Bearer " + headerSafe(settings.apiKey());
        this.endpoint = EndpointUrl.redacted(settings.baseUrl());
        this.stream = settings.stream();
        this.requestTimeout = settings.requestTimeout();
        this.retry = new RetryLoop(settings.retry(), log, EndpointUrl.hostAndPort(settings.baseUrl()));
    }

    @Override
    public void close() {
        // The JDK keeps idle connections for a few seconds and closes them itself.
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
        if (Thread.currentThread().isVirtual()) {
            return exchange(body, timeout);
        }
        // An interrupt ends a blocked socket read only on a virtual thread: the deadline needs one.
        var call = new FutureTask<>(() -> exchange(body, timeout));
        Thread.ofVirtual().name("assay-openai-call").start(call);
        try {
            return call.get();
        } catch (InterruptedException e) {
            call.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw new IllegalStateException("the OpenAI-compatible call failed unexpectedly", e.getCause());
        }
    }

    /**
     * One request and its answer on this virtual thread, over HTTP/1.1 on a connection the JDK keeps alive for the next
     * call (a connection per call in flight: HTTP/2 would put every call to a host on one connection, and fail those
     * past the server's stream limit). Blocking I/O on the caller's own thread: the JDK's asynchronous client handed
     * each call to its selector thread and back, 1.1 s more CPU in a run of 5 000 calls (bench/README.md, "The OpenAI
     * path").
     */
    private ModelResponse exchange(byte[] body, Duration timeout) throws InterruptedException {
        StreamedAnswer events = stream ? new StreamedAnswer() : null;
        // The deadline bounds the whole exchange, a slow answer's body included (not a slow DNS lookup, which an
        // interrupt does not end). The reads have no timeout of their own: each timed read would schedule a wake-up
        // with the virtual threads' timer, as timed waits do (Deadlines).
        Deadlines.Deadline deadline = Deadlines.interruptAfter(timeout);
        try (deadline) {
            HttpURLConnection connection = connection(timeout);
            try (OutputStream out = connection.getOutputStream()) {
                out.write(body);
            }
            return answer(connection, events);
        } catch (IOException e) {
            if (deadline.expired() || e instanceof SocketTimeoutException) {
                throw new CallFailure(timedOut());
            }
            if (Thread.interrupted()) {
                throw new InterruptedException("the call to " + endpoint + " was interrupted");
            }
            // Events already read, or a body begun, then a broken connection: the answer was cut mid-way.
            boolean cut = e instanceof BodyCut || (events != null && events.started());
            throw new CallFailure(cut ? RetryLoop.truncated() : RetryLoop.unreachable(e));
        }
    }

    /**
     * {@return the URL, or null when it is not an HTTP or HTTPS URL: its calls fail as they did with the JDK's client}
     */
    private static URL httpUrl(String url) {
        try {
            URI uri = URI.create(url);
            return "http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme())
                    ? uri.toURL()
                    : null;
        } catch (MalformedURLException | IllegalArgumentException e) {
            return null;
        }
    }

    private HttpURLConnection connection(Duration timeout) throws IOException {
        if (completions == null) {
            throw new IllegalArgumentException("unsupported URI: " + endpoint + " is not an HTTP or HTTPS URL");
        }
        // Through the proxy the default ProxySelector names (the http(s).proxyHost properties), as with the JDK's
        // client.
        var connection = (HttpURLConnection) completions.openConnection();
        connection.setRequestMethod("POST");
        connection.setDoOutput(true);
        connection.setUseCaches(false);
        connection.setInstanceFollowRedirects(false);
        connection.setConnectTimeout(millis(shorter(CONNECT_TIMEOUT, timeout)));
        // Not in streaming mode: the body is sent whole from a buffer, as the JDK does by default. In streaming mode it
        // answers a 401 or a 407 with an HttpRetryException and drops the body, which holds the server's reason.
        connection.setRequestProperty("Content-Type", "application/json");
        connection.setRequestProperty("Accept", stream ? "text/event-stream" : "application/json");
        connection.setRequestProperty("User-Agent", USER_AGENT);
        if (authorization != null) {
            connection.setRequestProperty("Authorization", authorization);
        }
        return connection;
    }

    private static int millis(Duration timeout) {
        return Math.clamp(timeout.toMillis(), 1, Integer.MAX_VALUE);
    }

    private static RetryLoop.Failure timedOut() {
        return new RetryLoop.Failure(Problem.of("target.timeout", "no answer in time"), true, null);
    }

    /**
     * {@return the answer read from the response: its JSON, or its stream's events folded into one}
     *
     * @throws CallFailure for an error status (with the server's message) or an answer that cannot be read
     */
    private static ModelResponse answer(HttpURLConnection connection, StreamedAnswer events) throws IOException {
        int status = connection.getResponseCode();
        if (status == -1) {
            // Not an HTTP server, or not one any more: a broken connection, as the JDK's client reported it.
            throw new IOException("the answer has no HTTP status line");
        }
        if (status < 200 || status >= 300) {
            Duration retryAfter = RetryLoop.parseRetryAfter(connection.getHeaderField("retry-after"));
            // Read whole and closed, a redirect's too, so that the connection serves the next call.
            InputStream error = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            String text;
            try (error) {
                text = error == null ? "" : new String(error.readAllBytes(), StandardCharsets.UTF_8);
            }
            throw new CallFailure(RetryLoop.httpFailure(status, errorMessage(text), retryAfter));
        }
        try (InputStream in = connection.getInputStream()) {
            if (events == null) {
                byte[] whole;
                try {
                    whole = in.readAllBytes();
                } catch (IOException e) {
                    throw new BodyCut(e);
                }
                return single(whole);
            }
            var lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                events.line(line);
            }
            events.end();
            return events.answer();
        }
    }

    /** A body whose status said success and whose connection broke before its end (its length, its last chunk). */
    private static final class BodyCut extends IOException {
        private static final long serialVersionUID = 1L;

        BodyCut(IOException cause) {
            super(cause.getMessage(), cause);
        }
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
    public static String unreadable(IOException e) {
        return e instanceof JsonProcessingException json ? json.getOriginalMessage() : String.valueOf(e.getMessage());
    }

    private static String textOf(JsonNode node) {
        return node.isTextual() ? node.textValue() : "";
    }

    public static Usage usage(JsonNode usage) {
        if (!usage.isObject()) {
            return Usage.NONE;
        }
        return new Usage(
                usage.path("prompt_tokens").asLong(0),
                usage.path("completion_tokens").asLong(0),
                usage.path("prompt_tokens_details").path("cached_tokens").asLong(0));
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
    public static JsonNode parseArguments(String arguments) {
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
    public static final class CallFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient RetryLoop.Failure failure;

        public CallFailure(RetryLoop.Failure failure) {
            super(failure.problem().message(), null, false, false);
            this.failure = failure;
        }
    }
}
