package dev.assay.dialog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.EndpointUrl;
import dev.assay.Json;
import dev.assay.model.ResponseCache;
import dev.assay.run.FieldMapping;
import dev.assay.subject.sse.SseAgentSettings;
import dev.assay.subject.sse.internal.RequestBody;
import dev.assay.subject.sse.internal.SseAgentClient;
import dev.assay.transcript.Transcript;
import dev.assay.transcript.TranscriptBuilder;
import dev.assay.transcript.TranscriptEvent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * An agent service reached over server-sent events, with the capability target's protocol and settings
 * ({@link SseAgentSettings}: body template, authentication, event names and paths, retries). Each turn is one request
 * in the dialog's session; its events are merged into the reply's report, where a {@link FieldMapping} finds the trace
 * fields:
 *
 * <ul>
 *   <li>every event's payload is stored under the event's name as the service sends it; payloads of repeated events of
 *       one name are merged field by field (later fields win), other payloads replace earlier ones; tool calls, tool
 *       results and text deltas are not stored this way;
 *   <li>{@code tools} is the list of tool calls in the trace's shape, built from the tool-call and tool-result events,
 *       unless the service sent an event named {@code tools};
 *   <li>the answer is the {@code final} event's answer, else the last model text.
 * </ul>
 *
 * An {@code error} event, an HTTP failure after the retries, a broken or malformed stream make the call fail (the turn
 * becomes an error). Thread-safe: each call has its own connection.
 */
public final class SseAgentService implements AgentService {
    /** The reference traces cut tool results to this many characters. */
    static final int RESULT_EXCERPT_CHARS = 1000;
    /**
     * The replayer enforces a turn's limit and words its error as the reference does ({@code turn_timeout: ...}); the
     * stream's own limit is a backstop just after it.
     */
    private static final Duration STREAM_GRACE = Duration.ofSeconds(1);

    private final SseAgentClient client;
    private final String runId;
    private final Consumer<String> log;

    private SseAgentService(SseAgentClient client, String runId, Consumer<String> log) {
        this.client = client;
        this.runId = runId;
        this.log = log;
    }

    /**
     * Reads the credential the settings name.
     *
     * @param settings the service and its protocol
     * @param runId sent as {@code {{run_id}}}
     * @param env reads environment variables; used for the credential only
     * @param log receives one line per retried request
     * @throws AssayException {@code target.missing_api_key} when the credential's variable is unset
     */
    public static SseAgentService open(
            SseAgentSettings settings, String runId, Function<String, String> env, Consumer<String> log) {
        return new SseAgentService(
                SseAgentClient.open(settings, env),
                Objects.requireNonNullElse(runId, ""),
                Objects.requireNonNull(log, "log"));
    }

    /** {@return the service's URL without user information, query or fragment, where credentials may be} */
    @Override
    public String name() {
        // Recorded in the manifest and the stored run: as for the capability target, never a credential.
        return EndpointUrl.redacted(client.settings().url().toString());
    }

    /** @throws AssayException the problem the agent or the connection reported ({@code target.*}) */
    @Override
    public Reply send(String sessionId, String userId, String message, Duration timeout) throws InterruptedException {
        return send(sessionId, userId, message, timeout, ResponseCache.NONE, "");
    }

    /**
     * Keeps a reply under {@link SseAgentClient#answerKey}: the URL, the body without the run and the scope.
     *
     * @throws AssayException the problem the agent or the connection reported ({@code target.*})
     */
    @Override
    public Reply send(
            String sessionId, String userId, String message, Duration timeout, ResponseCache answers, String scope)
            throws InterruptedException {
        SseAgentSettings settings = client.settings();
        var call = new RequestBody.Call(message, sessionId, userId, runId, "", "", "");
        String key = client.answerKey(call, scope);
        Optional<JsonNode> kept = answers.find(key);
        if (kept.isPresent()) {
            return Json.MAPPER.convertValue(kept.get(), Reply.class);
        }
        var transcript = new TranscriptBuilder();
        ObjectNode report = JsonNodeFactory.instance.objectNode();
        Map<String, String> names = settings.events().events();
        // Set.copyOf: a service may use one event name for several kinds.
        Set<String> unstored =
                Set.copyOf(List.of(names.get("tool_call"), names.get("tool_result"), names.get("llm_output_delta")));
        client.exchange(
                RequestBody.of(settings, call), timeout.plus(STREAM_GRACE), transcript, null, log, (event, payload) -> {
                    if (!unstored.contains(event)) {
                        merge(report, event, payload);
                    }
                });
        Transcript events = transcript.build();
        if (events.error().isPresent()) {
            throw new AssayException(events.error().get().problem());
        }
        if (!report.has("tools")) {
            report.set("tools", tools(events));
        }
        var reply = new Reply(events.rawFinalText(), report);
        answers.keep(key, Json.tree(reply));
        return reply;
    }

    private static void merge(ObjectNode report, String event, JsonNode payload) {
        if (report.get(event) instanceof ObjectNode earlier && payload.isObject()) {
            earlier.setAll((ObjectNode) payload.deepCopy());
        } else {
            report.set(event, payload.deepCopy());
        }
    }

    /** The trace's tool list ({@code tool_name, args, result_excerpt, latency_ms, error}), calls in order. */
    private static ArrayNode tools(Transcript events) {
        ArrayNode tools = JsonNodeFactory.instance.arrayNode();
        for (TranscriptEvent.ToolCall call : events.toolCalls()) {
            TranscriptEvent.ToolOutput output = events.events().stream()
                    .filter(TranscriptEvent.ToolOutput.class::isInstance)
                    .map(TranscriptEvent.ToolOutput.class::cast)
                    .filter(candidate -> candidate.callId().equals(call.callId()))
                    .findFirst()
                    .orElse(null);
            ObjectNode tool = tools.addObject();
            // The agent's own tool name, as the reference traces record it.
            tool.put("tool_name", call.rawName());
            tool.set("args", call.arguments());
            if (output == null) {
                tool.put("result_excerpt", "");
                tool.putNull("latency_ms");
                tool.putNull("error");
                continue;
            }
            String result = output.output() == null ? "" : output.output();
            tool.put(
                    "result_excerpt",
                    result.length() > RESULT_EXCERPT_CHARS ? result.substring(0, RESULT_EXCERPT_CHARS) : result);
            tool.put("latency_ms", Duration.between(call.at(), output.at()).toNanos() / 1_000_000.0);
            tool.put("error", output.error() == null ? null : output.error().message());
        }
        return tools;
    }
}
