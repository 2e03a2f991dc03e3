package dev.assay.subject.sse.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.EndpointUrl;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.subject.Session;
import dev.assay.subject.Subject;
import dev.assay.subject.SubjectInput;
import dev.assay.subject.sse.EventMapping;
import dev.assay.subject.sse.SseAgentSettings;
import dev.assay.tools.ToolNames;
import dev.assay.transcript.Transcript;
import dev.assay.transcript.TranscriptEvent;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * An agent service that runs its own loop (the reference server's {@code POST /wunder}, or any service with a similar
 * event stream): one POST per case, whose server-sent events become the transcript through an {@link EventMapping},
 * through an {@link SseAgentClient} bounded by the case deadline: retries before the stream starts, and the stream read
 * until the {@code final} or {@code error} event, the deadline, or cancellation (an interrupt), which closes it.
 * Thread-safe.
 */
public final class SseAgentSubject implements Subject {
    private final SseAgentClient client;
    private final Set<String> toolNames;

    private SseAgentSubject(SseAgentClient client, Set<String> toolNames) {
        this.client = client;
        this.toolNames = toolNames;
    }

    /**
     * Reads the credential and, when a discovery URL is configured, the service's tool list.
     *
     * @param env reads environment variables (the edge passes its environment); used for the credential only
     * @throws AssayException {@code target.missing_api_key} when the credential's variable is unset,
     *     {@code target.discovery_failed} when the tool list cannot be read
     */
    public static SseAgentSubject open(SseAgentSettings settings, Function<String, String> env)
            throws InterruptedException {
        var client = SseAgentClient.open(settings, env);
        List<String> names = !settings.tools().isEmpty()
                ? settings.tools()
                : settings.toolsUrl() != null
                        ? discoverTools(client)
                        // The reference agent offers its built-in tools when the request names none.
                        : ToolNames.BUILTIN;
        var canonical = new LinkedHashSet<String>();
        names.forEach(name -> canonical.add(ToolNames.canonical(name)));
        return new SseAgentSubject(client, Set.copyOf(canonical));
    }

    @Override
    public String name() {
        return "sse_agent:" + EndpointUrl.redacted(client.settings().url().toString());
    }

    @Override
    public Set<String> toolNames() {
        return toolNames;
    }

    @Override
    public int maxConcurrency() {
        return client.settings().maxConcurrency();
    }

    @Override
    public JsonNode describe() {
        ObjectNode node = Json.object();
        node.put("type", "sse_agent");
        node.setAll((ObjectNode) client.settings().describe());
        node.set("resolved_tools", Json.tree(toolNames.stream().sorted().toList()));
        return node;
    }

    /**
     * Sends the case, or replays the events of the same call kept in the run's answers ({@link Session#responses()}):
     * the events of a call that ended without an error are kept, under a key of the URL, the body without what names
     * the run, and the case and sample. Files the agent wrote into a shared workspace are not kept.
     */
    @Override
    public Transcript run(SubjectInput input, Session session) throws InterruptedException {
        SseAgentSettings settings = client.settings();
        var call = new RequestBody.Call(
                input.prompt(),
                session.sessionId(),
                session.userId(),
                session.runId(),
                input.caseId(),
                input.language(),
                settings.sharedWorkspace()
                        ? session.workspace().root().toAbsolutePath().toString()
                        : "");
        String key = client.answerKey(call, input.caseId());
        Optional<JsonNode> kept = session.responses().find(key);
        if (kept.isPresent()) {
            Transcript.fromJson(kept.get()).events().stream()
                    .map(SseAgentSubject::replayed)
                    .forEach(session.transcript()::add);
            return session.transcript().build();
        }
        client.exchange(
                RequestBody.of(settings, call),
                session.remaining(),
                session.transcript(),
                session.workspace(),
                session.log(),
                (name, payload) -> {});
        Transcript transcript = session.transcript().build();
        if (transcript.error().isEmpty()) {
            session.responses().keep(key, transcript.toJson());
        }
        return transcript;
    }

    /** {@return a kept transcript's event as replayed}: its model turns were paid for when it was kept, not now */
    private static TranscriptEvent replayed(TranscriptEvent event) {
        return event instanceof TranscriptEvent.ModelTurn turn
                ? new TranscriptEvent.ModelTurn(
                        turn.at(), turn.text(), turn.reasoning(), turn.usage().servedFromCache())
                : event;
    }

    private static List<String> discoverTools(SseAgentClient client) throws InterruptedException {
        SseAgentSettings settings = client.settings();
        HttpClient http = HttpClient.newBuilder()
                .connectTimeout(settings.connectTimeout())
                .build();
        try {
            HttpRequest request = client.authorized(HttpRequest.newBuilder(settings.toolsUrl()))
                    .header("Accept", "application/json")
                    .timeout(settings.connectTimeout())
                    .GET()
                    .build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw discoveryFailed(settings, "HTTP " + response.statusCode());
            }
            JsonNode json = Json.MAPPER.readTree(response.body());
            JsonNode list = json.isArray() ? json : json.has("tools") ? json.get("tools") : json.path("tool_names");
            if (!list.isArray()) {
                throw discoveryFailed(settings, "expected a JSON array of tool names");
            }
            var names = new ArrayList<String>();
            list.forEach(entry -> names.add(
                    entry.isTextual() ? entry.asText() : entry.path("name").asText()));
            names.removeIf(String::isBlank);
            return names;
        } catch (IOException e) {
            throw discoveryFailed(settings, e.toString());
        } finally {
            http.shutdownNow();
        }
    }

    private static AssayException discoveryFailed(SseAgentSettings settings, String why) {
        return new AssayException(Problem.of(
                        "target.discovery_failed",
                        "could not read the agent's tool list from " + settings.toolsUrl() + ": " + why)
                .withDetail("field", "tools_url"));
    }
}
