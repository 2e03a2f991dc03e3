package dev.assay.target.sse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.cases.Case;
import dev.assay.target.RetryLoop;
import dev.assay.target.Session;
import dev.assay.target.Target;
import dev.assay.tools.ToolNames;
import dev.assay.transcript.Transcript;
import dev.assay.transcript.TranscriptEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * An agent service that runs its own loop (the reference server's {@code POST /wunder}, or any service with a
 * similar event stream): one POST per case, whose server-sent events become the transcript through an
 * {@link EventMapping}. Connection errors, 429 and 5xx before the stream starts are retried; the stream is read
 * until the {@code final} or {@code error} event, the case deadline, or cancellation (an interrupt), which closes
 * it. Thread-safe: every case gets its own HTTP client, so cancelling one stream aborts nothing else.
 */
public final class SseAgentTarget implements Target {
    private final SseAgentSettings settings;
    private final String credential;
    private final Set<String> toolNames;

    private SseAgentTarget(SseAgentSettings settings, String credential, Set<String> toolNames) {
        this.settings = settings;
        this.credential = credential;
        this.toolNames = toolNames;
    }

    /**
     * Reads the credential and, when a discovery URL is configured, the service's tool list.
     *
     * @param env reads environment variables (the edge passes its environment); used for the credential only
     * @throws AssayException {@code target.missing_api_key} when the credential's variable is unset,
     *                        {@code target.discovery_failed} when the tool list cannot be read
     */
    public static SseAgentTarget open(SseAgentSettings settings, Function<String, String> env)
            throws InterruptedException {
        String credential = null;
        if (settings.authEnv() != null) {
            credential = env.apply(settings.authEnv());
            if (credential == null || credential.isBlank()) {
                throw new AssayException(Problem.of("target.missing_api_key",
                        "set the agent's credential in $" + settings.authEnv()).withDetail("field", "auth_env"));
            }
        }
        var target = new SseAgentTarget(settings, credential, Set.of());
        List<String> names = !settings.tools().isEmpty() ? settings.tools()
                : settings.toolsUrl() != null ? target.discoverTools()
                // The reference agent offers its built-in tools when the request names none.
                : ToolNames.BUILTIN;
        var canonical = new LinkedHashSet<String>();
        names.forEach(name -> canonical.add(ToolNames.canonical(name)));
        return new SseAgentTarget(settings, credential, Set.copyOf(canonical));
    }

    @Override
    public String name() {
        return "sse_agent:" + settings.url();
    }

    @Override
    public Set<String> toolNames() {
        return toolNames;
    }

    @Override
    public int maxConcurrency() {
        return settings.maxConcurrency();
    }

    @Override
    public JsonNode describe() {
        ObjectNode node = Json.object();
        node.put("type", "sse_agent");
        node.setAll((ObjectNode) settings.describe());
        node.set("resolved_tools", Json.tree(toolNames.stream().sorted().toList()));
        return node;
    }

    @Override
    public Transcript run(Case evalCase, Session session) throws InterruptedException {
        HttpRequest.Builder request = authorized(HttpRequest.newBuilder(settings.url()))
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body(evalCase, session))));
        HttpClient http = HttpClient.newBuilder().connectTimeout(settings.connectTimeout()).build();
        try {
            HttpResponse<Stream<String>> response;
            try {
                response = new RetryLoop(settings.retry(), session.log()).call(session.remaining(),
                        remaining -> open(http, request, remaining), SseAgentTarget::classify);
            } catch (AssayException e) {
                session.transcript().add(new TranscriptEvent.TargetError(Instant.now(), e.problem()));
                return session.transcript().build();
            }
            read(response.body(), evalCase, session);
            return session.transcript().build();
        } finally {
            // Aborts a stream still open after a timeout or cancellation; close() would wait for it instead.
            http.shutdownNow();
        }
    }

    private JsonNode body(Case evalCase, Session session) {
        Map<String, JsonNode> values = new LinkedHashMap<>();
        values.put("prompt", TextNode.valueOf(evalCase.prompt()));
        values.put("session_id", TextNode.valueOf(session.sessionId()));
        // The reference server refuses a blank user id.
        values.put("user_id", TextNode.valueOf(session.userId().isEmpty() ? "assay" : session.userId()));
        values.put("run_id", TextNode.valueOf(session.runId()));
        values.put("case_id", TextNode.valueOf(evalCase.id()));
        values.put("model", TextNode.valueOf(settings.model()));
        values.put("language", TextNode.valueOf(evalCase.language().isEmpty() ? settings.language()
                : evalCase.language()));
        values.put("tool_names", Json.tree(settings.tools()));
        values.put("config_overrides", settings.configOverrides());
        values.put("workspace", TextNode.valueOf(settings.sharedWorkspace()
                ? session.workspace().root().toAbsolutePath().toString() : ""));
        return RequestBody.fill(settings.body(), values);
    }

    private HttpRequest.Builder authorized(HttpRequest.Builder builder) {
        if (credential == null) {
            return builder;
        }
        boolean bearer = settings.authHeader().equalsIgnoreCase("Authorization") && !credential.contains(" ");
        return builder.header(settings.authHeader(), bearer ? "Bearer " + credential : credential);
    }

    private HttpResponse<Stream<String>> open(HttpClient http, HttpRequest.Builder request, Duration remaining)
            throws InterruptedException {
        Duration limit = remaining.compareTo(settings.connectTimeout()) < 0 ? remaining : settings.connectTimeout();
        HttpResponse<Stream<String>> response;
        try {
            response = http.send(request.copy().timeout(limit.isZero() ? Duration.ofMillis(1) : limit).build(),
                    HttpResponse.BodyHandlers.ofLines());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (response.statusCode() / 100 == 2) {
            return response;
        }
        String body;
        try (Stream<String> lines = response.body()) {
            body = String.join("\n", lines.limit(20).toList());
        }
        throw new StatusException(response.statusCode(), body,
                RetryLoop.parseRetryAfter(response.headers().firstValue("retry-after").orElse(null)));
    }

    /** Reads on a thread of its own so that the deadline and an interrupt can stop a stream that has gone quiet. */
    private void read(Stream<String> lines, Case evalCase, Session session) throws InterruptedException {
        var collector = new EventCollector(settings.events(), session.transcript(), session.workspace());
        try (ExecutorService reader = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<?> reading = reader.submit(() -> {
                try (lines) {
                    var parser = new SseParser();
                    Iterator<String> iterator = lines.iterator();
                    while (iterator.hasNext()) {
                        var event = parser.accept(iterator.next());
                        if (event.isPresent() && collector.accept(event.get())) {
                            return;
                        }
                    }
                    parser.finish().ifPresent(collector::accept);
                    collector.finish();
                }
            });
            try {
                reading.get(session.remaining().toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                reading.cancel(true);
                collector.finish();
                session.transcript().add(new TranscriptEvent.TargetError(Instant.now(), Problem.of("target.timeout",
                        "the agent's stream did not end before the case deadline").withDetail("case_id",
                        evalCase.id())));
            } catch (InterruptedException e) {
                reading.cancel(true);
                throw e;
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (!(cause instanceof UncheckedIOException)) {
                    throw new AssayException(Problem.of("target.internal_error",
                            "reading the agent's stream failed: " + cause), cause);
                }
                collector.finish();
                session.transcript().add(new TranscriptEvent.TargetError(Instant.now(), Problem.of(
                        "target.connection", "the agent's stream broke off: " + RetryLoop.brief(
                                String.valueOf(cause.getCause().getMessage())))));
            }
        }
    }

    private List<String> discoverTools() throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(settings.connectTimeout()).build();
        try {
            HttpRequest request = authorized(HttpRequest.newBuilder(settings.toolsUrl()))
                    .header("Accept", "application/json").timeout(settings.connectTimeout()).GET().build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw discoveryFailed("HTTP " + response.statusCode());
            }
            JsonNode json = Json.MAPPER.readTree(response.body());
            JsonNode list = json.isArray() ? json : json.has("tools") ? json.get("tools") : json.path("tool_names");
            if (!list.isArray()) {
                throw discoveryFailed("expected a JSON array of tool names");
            }
            var names = new ArrayList<String>();
            list.forEach(entry -> names.add(entry.isTextual() ? entry.asText() : entry.path("name").asText()));
            names.removeIf(String::isBlank);
            return names;
        } catch (IOException e) {
            throw discoveryFailed(e.toString());
        } finally {
            http.shutdownNow();
        }
    }

    private AssayException discoveryFailed(String why) {
        return new AssayException(Problem.of("target.discovery_failed",
                "could not read the agent's tool list from " + settings.toolsUrl() + ": " + why)
                .withDetail("field", "tools_url"));
    }

    /** A non-2xx answer before the stream started. */
    private static final class StatusException extends RuntimeException {
        final int status;
        final Duration retryAfter;

        StatusException(int status, String body, Duration retryAfter) {
            super(body, null, false, false);
            this.status = status;
            this.retryAfter = retryAfter;
        }
    }

    private static RetryLoop.Failure classify(RuntimeException e) {
        if (e instanceof StatusException status) {
            return RetryLoop.httpFailure(status.status, status.getMessage(), status.retryAfter);
        }
        if (e instanceof UncheckedIOException io) {
            boolean timeout = io.getCause() instanceof HttpTimeoutException;
            return new RetryLoop.Failure(Problem.of(timeout ? "target.timeout" : "target.connection",
                    "the agent could not be reached: " + RetryLoop.brief(String.valueOf(io.getCause()))), true, null);
        }
        return null;
    }
}
