package dev.assay.subject.sse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How an agent service names its events and where their fields are, so services that differ from the reference server
 * can be read without code. Overrides are merged into {@link #DEFAULT_EVENTS} and {@link #DEFAULT_PATHS}; an unknown
 * key is a configuration error. Paths are JSON Pointers ({@code /data/answer}); all but {@code payload} and
 * {@code timestamp} are relative to the payload.
 *
 * @param events the service's event name for each kind Assay reads (keys of {@link #DEFAULT_EVENTS})
 * @param paths the JSON Pointer of each field Assay reads (keys of {@link #DEFAULT_PATHS})
 */
public record EventMapping(Map<String, String> events, Map<String, String> paths) {
    /** The reference server's event names (docs/targets.md, "Events"), by the kind Assay reads. */
    public static final Map<String, String> DEFAULT_EVENTS = ordered(
            "tool_call", "tool_call",
            "tool_result", "tool_result",
            "llm_output", "llm_output",
            "llm_output_delta", "llm_output_delta",
            "final", "final",
            "error", "error");

    /**
     * The reference server's field positions. {@code payload} is where the event's own fields sit inside the
     * {@code data:} JSON (the reference wraps them as {@code {"session_id", "timestamp", "data": {...}}}); a
     * {@code data:} object without it is taken as the payload itself.
     */
    public static final Map<String, String> DEFAULT_PATHS = ordered(
            "payload", "/data",
            "timestamp", "/timestamp",
            "tool_call.tool", "/tool",
            "tool_call.args", "/args",
            "tool_call.id", "/tool_call_id",
            "tool_result.tool", "/tool",
            "tool_result.id", "/tool_call_id",
            "tool_result.ok", "/ok",
            "tool_result.output", "/data",
            "tool_result.error", "/error",
            "llm_output.content", "/content",
            "llm_output.reasoning", "/reasoning",
            "llm_output.usage", "/usage",
            "llm_output_delta.delta", "/delta",
            "llm_output_delta.reasoning", "/reasoning_delta",
            "final.answer", "/answer",
            "final.files", "/files",
            "error.code", "/code",
            "error.message", "/message",
            "error.detail", "/detail");

    public EventMapping {
        events = merge("event", DEFAULT_EVENTS, events);
        paths = merge("path", DEFAULT_PATHS, paths);
        paths.forEach((key, pointer) -> {
            if (!pointer.isEmpty() && !pointer.startsWith("/")) {
                throw invalid(
                        "the path of " + key + " must be a JSON Pointer such as /data/answer, not '" + pointer + "'",
                        key);
            }
        });
    }

    /** {@return the reference server's mapping} */
    public static EventMapping defaults() {
        return new EventMapping(Map.of(), Map.of());
    }

    /** {@return the kind Assay reads for a service's event name; null for events Assay ignores} */
    public String kindOf(String eventName) {
        for (var entry : events.entrySet()) {
            if (entry.getValue().equals(eventName)) {
                return entry.getKey();
            }
        }
        return null;
    }

    /** {@return the field {@code key} of {@code node}; missing when absent} */
    public JsonNode at(JsonNode node, String key) {
        String pointer = paths.get(key);
        return pointer.isEmpty() ? node : node.at(pointer);
    }

    /** {@return the mapping as it is stored in a run's configuration snapshot} */
    public JsonNode describe() {
        ObjectNode node = Json.object();
        node.set("events", Json.tree(events));
        node.set("paths", Json.tree(paths));
        return node;
    }

    private static Map<String, String> merge(String what, Map<String, String> defaults, Map<String, String> overrides) {
        var merged = new LinkedHashMap<>(defaults);
        if (overrides != null) {
            overrides.forEach((key, value) -> {
                if (!defaults.containsKey(key)) {
                    throw invalid(
                            "unknown " + what + " key '" + key + "'; known: " + String.join(", ", defaults.keySet()),
                            key);
                }
                merged.put(key, value == null ? "" : value.strip());
            });
        }
        return Collections.unmodifiableMap(merged);
    }

    private static AssayException invalid(String message, String key) {
        return new AssayException(
                Problem.of("config.invalid_agent_mapping", message).withDetail("key", key));
    }

    private static Map<String, String> ordered(String... keysAndValues) {
        var map = new LinkedHashMap<String, String>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return Collections.unmodifiableMap(map);
    }
}
