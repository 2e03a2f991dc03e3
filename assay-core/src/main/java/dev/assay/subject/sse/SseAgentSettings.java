package dev.assay.subject.sse;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.EndpointUrl;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.model.RetryPolicy;
import dev.assay.subject.sse.internal.RequestBody;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How to reach an agent service and read its stream. Holds the NAME of the environment variable with the credential,
 * never the credential.
 *
 * @param url the endpoint one POST per case goes to, e.g. {@code http://localhost:8000/wunder}
 * @param body the request body template (see {@link RequestBody}); null for the reference {@code /wunder} body, plus
 *     {@code "workspace": "{{workspace}}"} when the workspace is shared
 * @param model sent as {@code {{model}}} ({@code model_name} in the reference body); empty for the service's default
 * @param language sent as {@code {{language}}} when the case has no language; empty for none
 * @param tools the tool names sent as {@code {{tool_names}}} and offered for prerequisite checks; empty means "the
 *     service's defaults" (sent as an empty list; the built-in tools are assumed)
 * @param toolsUrl where to GET the tool list instead (a JSON array of names or of objects with {@code name}, or an
 *     object holding such an array under {@code tools}); null for none
 * @param configOverrides sent as {@code {{config_overrides}}}; empty object by default
 * @param authHeader the header the credential goes in (default {@code Authorization}, sent as {@code Bearer <value>};
 *     any other header gets the value as is, e.g. {@code X-API-Key})
 * @param authEnv the environment variable holding the credential; null or empty for no authentication
 * @param sharedWorkspace whether the service sees Assay's workspace directory (same machine or a shared mount): then
 *     the case workspace's absolute path is sent as {@code {{workspace}}}
 * @param events event names and field paths
 * @param connectTimeout the limit for getting the response headers of one attempt (default 30 s); the stream itself is
 *     bounded by the case deadline
 * @param retry retries of connection errors, 429 and 5xx before the stream starts
 * @param maxConcurrency cases sent at once at most, >= 1 (default: no limit beyond the run's)
 */
public record SseAgentSettings(
        URI url,
        JsonNode body,
        String model,
        String language,
        List<String> tools,
        URI toolsUrl,
        ObjectNode configOverrides,
        String authHeader,
        String authEnv,
        boolean sharedWorkspace,
        EventMapping events,
        Duration connectTimeout,
        RetryPolicy retry,
        int maxConcurrency) {
    public SseAgentSettings {
        Objects.requireNonNull(url, "url");
        if (url.getScheme() == null || !url.getScheme().matches("https?")) {
            throw new AssayException(
                    Problem.of("config.invalid_agent_url", "the agent URL must be http or https: " + url)
                            .withDetail("field", "agent"));
        }
        body = body != null
                ? body.deepCopy()
                : sharedWorkspace ? RequestBody.REFERENCE_WITH_WORKSPACE : RequestBody.REFERENCE;
        model = model == null ? "" : model;
        language = language == null ? "" : language;
        tools = tools == null ? List.of() : List.copyOf(tools);
        configOverrides = configOverrides == null ? Json.object() : configOverrides.deepCopy();
        authHeader = authHeader == null || authHeader.isBlank() ? "Authorization" : authHeader;
        authEnv = authEnv == null || authEnv.isBlank() ? null : authEnv;
        events = events == null ? EventMapping.defaults() : events;
        connectTimeout = connectTimeout == null ? Duration.ofSeconds(30) : connectTimeout;
        retry = retry == null ? RetryPolicy.defaults() : retry;
        if (maxConcurrency < 1) {
            throw new IllegalArgumentException("maxConcurrency must be >= 1");
        }
    }

    /** {@return settings for the reference protocol at {@code url}: no auth, default tools, default retries} */
    public static SseAgentSettings of(URI url) {
        return new SseAgentSettings(
                url, null, "", "", List.of(), null, null, null, null, false, null, null, null, Integer.MAX_VALUE);
    }

    /** {@return the settings for a run's configuration snapshot: the credential's variable name, never its value} */
    public JsonNode describe() {
        ObjectNode node = Json.object();
        // Credentials written into a URL must not reach the database or the reports.
        node.put("url", EndpointUrl.redacted(url.toString()));
        node.set("body", body);
        node.put("model", model);
        node.put("language", language);
        node.set("tools", Json.tree(tools));
        node.put("tools_url", toolsUrl == null ? null : EndpointUrl.redacted(toolsUrl.toString()));
        node.set("config_overrides", configOverrides);
        node.put("auth_header", authHeader);
        node.put("auth_env", authEnv);
        node.put("shared_workspace", sharedWorkspace);
        node.set("events", events.describe());
        node.put("connect_timeout_s", connectTimeout.toMillis() / 1000.0);
        node.put("max_attempts", retry.maxAttempts());
        node.set("retry", retry.describe());
        node.put("max_concurrency", maxConcurrency);
        node.put("url_stored_whole", storedWhole(url));
        node.put("tools_url_stored_whole", toolsUrl == null || storedWhole(toolsUrl));
        return node;
    }

    /**
     * {@return the settings {@link #describe()} wrote, as a resumed run reads them back: the credential is read again
     * from the variable they name} Check {@link #notStoredWhole} first.
     */
    public static SseAgentSettings fromSnapshot(JsonNode node) {
        JsonNode toolsUrl = node.path("tools_url");
        return new SseAgentSettings(
                URI.create(node.path("url").asText()),
                node.path("body"),
                node.path("model").asText(""),
                node.path("language").asText(""),
                Json.MAPPER.convertValue(node.path("tools"), STRINGS),
                toolsUrl.isTextual() ? URI.create(toolsUrl.asText()) : null,
                node.path("config_overrides") instanceof ObjectNode overrides ? overrides : null,
                node.path("auth_header").asText(null),
                node.path("auth_env").asText(null),
                node.path("shared_workspace").asBoolean(false),
                new EventMapping(
                        Json.MAPPER.convertValue(node.path("events").path("events"), STRING_MAP),
                        Json.MAPPER.convertValue(node.path("events").path("paths"), STRING_MAP)),
                Duration.ofMillis(Math.round(node.path("connect_timeout_s").asDouble(30) * 1000)),
                RetryPolicy.read(node.path("retry")),
                node.path("max_concurrency").asInt(Integer.MAX_VALUE));
    }

    /**
     * {@return why a snapshot's settings cannot be read back, if they cannot}: a URL with credentials or a query was
     * stored without them (they are never stored), and a snapshot of an older Assay does not say
     */
    public static Optional<String> notStoredWhole(JsonNode node) {
        if (!node.has("url_stored_whole")) {
            return Optional.of("an agent service's run is resumable from this version of Assay on");
        }
        if (!node.path("url_stored_whole").asBoolean()
                || !node.path("tools_url_stored_whole").asBoolean()) {
            return Optional.of("the agent service's URL held credentials or a query, which are not stored; "
                    + "start a new run with --agent");
        }
        return Optional.empty();
    }

    private static boolean storedWhole(URI url) {
        return EndpointUrl.redacted(url.toString()).equals(url.toString());
    }

    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};
    private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};
}
