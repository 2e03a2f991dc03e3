package dev.assay.subject.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.model.ToolCallRequest;
import dev.assay.tools.ToolNames;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the tool calls a model wrote as text (text tool mode), where the wire format taught by {@link TextToolPrompt}
 * is {@code <tool_call>{"name": ..., "arguments": {...}}</tool_call>}.
 *
 * <p>What is accepted (after the reference parser, docs/configuration.md, `tool_mode: text`):
 *
 * <ul>
 *   <li>any number of {@code <tool_call>} or {@code <tool>} blocks, in order of appearance; an opening tag without its
 *       closing tag (the model stopped early) takes the text up to the next opening tag or the end;
 *   <li>inside a block, every top-level JSON value, also inside a fenced {@code ```json} block; a value cut off before
 *       its closing brackets is closed when that makes it parse; JSON with raw line breaks inside strings or trailing
 *       commas is tolerated, as models write both;
 *   <li>a call object names its tool with {@code name}, {@code tool}, {@code tool_name} or {@code function_name} and
 *       its arguments with {@code arguments}, {@code args}, {@code parameters}, {@code params} or {@code input}; the
 *       OpenAI shape {@code {"function": {"name": ..., "arguments": "<json text>"}}}; arrays and {@code tool_calls}
 *       lists of calls;
 *   <li>arguments given as a string are parsed as JSON; when that gives no object they become {@code {"raw": text}};
 *       absent arguments are {@code {}};
 * </ul>
 *
 * Objects that look like tool results ({@code tool} with {@code ok} and {@code data} or {@code error}) are ignored, and
 * a call repeating an earlier one (same canonical name, equal arguments) is dropped. Names are kept as written;
 * canonicalising them ({@link ToolNames#canonical}) is the caller's job.
 *
 * <p>Deliberate difference from the reference: a message without any tag is <em>not</em> searched for JSON. The
 * reference parsed the whole text as a last resort, so a plain answer that merely contained a JSON object with a
 * {@code name} key (a person record, an example payload) became a false tool call. Without tags, a call is read only
 * when the whole message is one fenced code block holding JSON whose call objects have both a name key and an arguments
 * key. Thread-safe.
 */
public final class TextToolCalls {
    private static final Pattern OPENING_TAG = Pattern.compile("<(tool_call|tool)\\b[^>]*>", Pattern.CASE_INSENSITIVE);
    private static final Map<String, Pattern> CLOSING_TAGS = Map.of(
            "tool_call", Pattern.compile("</tool_call\\s*>", Pattern.CASE_INSENSITIVE),
            "tool", Pattern.compile("</tool\\s*>", Pattern.CASE_INSENSITIVE));
    private static final Pattern WHOLE_FENCE =
            Pattern.compile("^```[\\w-]*[ \\t]*\\R(.*?)\\R?[ \\t]*```$", Pattern.DOTALL);
    /**
     * Failed starts tolerated per payload: each costs a scan to the end, so a long broken payload full of braces (code
     * in a write_file call) would otherwise take quadratic time.
     */
    private static final int MAX_FAILED_STARTS = 64;

    private static final List<String> NAME_KEYS = List.of("name", "tool", "tool_name", "function_name");
    private static final List<String> ARGUMENT_KEYS = List.of("arguments", "args", "parameters", "params", "input");
    private static final List<String> NESTED_CALL_KEYS = List.of("tool_calls", "tool_call", "function_call");

    /** Forgiving where models commonly slip, strict elsewhere (no single quotes, comments or bare words). */
    private static final ObjectMapper LENIENT = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS)
            .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
            .enable(JsonReadFeature.ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER)
            .build();

    private TextToolCalls() {}

    /**
     * Finds the tool calls in one model message.
     *
     * @param modelText the message text; null is read as empty
     * @return the calls in the order written, with ids {@code call_1}, {@code call_2}... unique within this message
     *     only; empty when the message calls no tool
     */
    public static List<ToolCallRequest> parse(String modelText) {
        String text = modelText == null ? "" : modelText;
        var found = new ArrayList<Found>();
        List<String> payloads = taggedPayloads(text);
        if (payloads.isEmpty()) {
            wholeFencedBlock(text).ifPresent(json -> collect(json, true, found));
        } else {
            for (String payload : payloads) {
                for (JsonNode value : jsonValues(payload)) {
                    collect(value, false, found);
                }
            }
        }
        var calls = new ArrayList<ToolCallRequest>();
        for (Found call : found) {
            calls.add(new ToolCallRequest("call_" + (calls.size() + 1), call.name(), call.arguments()));
        }
        return List.copyOf(calls);
    }

    private record Found(String name, String canonicalName, JsonNode arguments) {
        boolean repeats(Found other) {
            return canonicalName.equals(other.canonicalName) && arguments.equals(other.arguments);
        }
    }

    /** The bodies of all tool tags, in order; a tag left open runs to the next opening tag or the end. */
    private static List<String> taggedPayloads(String text) {
        var payloads = new ArrayList<String>();
        Matcher opening = OPENING_TAG.matcher(text);
        int position = 0;
        while (position < text.length() && opening.find(position)) {
            int bodyStart = opening.end();
            String tag = opening.group(1).toLowerCase(Locale.ROOT);
            Matcher closing = CLOSING_TAGS.get(tag).matcher(text);
            int nextOpening = opening.find(bodyStart) ? opening.start() : text.length();
            if (closing.find(bodyStart) && closing.start() <= nextOpening) {
                payloads.add(text.substring(bodyStart, closing.start()));
                position = closing.end();
            } else {
                payloads.add(text.substring(bodyStart, nextOpening));
                position = nextOpening;
            }
        }
        return payloads;
    }

    private static Optional<JsonNode> wholeFencedBlock(String text) {
        Matcher fence = WHOLE_FENCE.matcher(text.strip());
        if (!fence.matches() || fence.group(1).contains("```")) {
            return Optional.empty();
        }
        return parseValue(fence.group(1).strip());
    }

    /** Every top-level JSON value in a payload, skipping text around and between them. */
    private static List<JsonNode> jsonValues(String payload) {
        var values = new ArrayList<JsonNode>();
        int from = 0;
        int failedStarts = 0;
        while (failedStarts < MAX_FAILED_STARTS) {
            int start = nextBracket(payload, from);
            if (start < 0) {
                break;
            }
            int end = balancedEnd(payload, start);
            Optional<JsonNode> value = end < 0
                    ? closedAtEnd(payload.substring(start)).flatMap(TextToolCalls::parseValue)
                    : parseValue(payload.substring(start, end));
            if (value.isPresent()) {
                values.add(value.get());
                from = end < 0 ? payload.length() : end;
            } else {
                from = start + 1;
                failedStarts++;
            }
        }
        return values;
    }

    private static int nextBracket(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            if (text.charAt(i) == '{' || text.charAt(i) == '[') {
                return i;
            }
        }
        return -1;
    }

    /** {@return the index after the bracket closing the one at {@code start}, or -1 when the text ends first} */
    private static int balancedEnd(String text, int start) {
        int depth = 0;
        boolean inString = false;
        boolean escaped = false;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (escaped) {
                    escaped = false;
                } else if (c == '\\') {
                    escaped = true;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                return i + 1;
            }
        }
        return -1;
    }

    /** Closes an open string and the open brackets of JSON cut off at the end, when the cut allows it. */
    private static Optional<String> closedAtEnd(String fragment) {
        var open = new ArrayDeque<Character>();
        boolean inString = false;
        boolean escaped = false;
        for (int i = 0; i < fragment.length(); i++) {
            char c = fragment.charAt(i);
            if (inString) {
                if (escaped) {
                    escaped = false;
                } else if (c == '\\') {
                    escaped = true;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{') {
                open.push('}');
            } else if (c == '[') {
                open.push(']');
            } else if (c == '}' || c == ']') {
                if (open.isEmpty() || open.pop() != c) {
                    return Optional.empty();
                }
            }
        }
        if (escaped) {
            return Optional.empty();
        }
        var closed = new StringBuilder(fragment.stripTrailing());
        if (inString) {
            closed.append('"');
        }
        open.forEach(closed::append);
        return Optional.of(closed.toString());
    }

    private static Optional<JsonNode> parseValue(String json) {
        try {
            JsonNode value = LENIENT.readTree(json);
            return value == null || value.isMissingNode() ? Optional.empty() : Optional.of(value);
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }

    /**
     * Adds the calls a JSON value describes.
     *
     * @param needArguments whether a call object must carry an arguments key (outside tags, to be sure it is meant as a
     *     call)
     */
    private static void collect(JsonNode value, boolean needArguments, List<Found> found) {
        if (value.isArray()) {
            value.forEach(element -> collect(element, needArguments, found));
            return;
        }
        if (!value.isObject() || looksLikeToolResult(value)) {
            return;
        }
        JsonNode function = value.get("function");
        if (function != null && function.isObject() && function.path("name").isTextual()) {
            add(function.get("name").asText(), firstOf(function, ARGUMENT_KEYS), needArguments, found);
            return;
        }
        for (String key : NAME_KEYS) {
            JsonNode name = value.get(key);
            if (name != null && name.isTextual() && !name.asText().isBlank()) {
                add(name.asText(), firstOf(value, ARGUMENT_KEYS), needArguments, found);
                return;
            }
        }
        for (String key : NESTED_CALL_KEYS) {
            JsonNode nested = value.get(key);
            if (nested != null) {
                collect(nested, needArguments, found);
            }
        }
    }

    private static void add(String name, JsonNode rawArguments, boolean needArguments, List<Found> found) {
        if (rawArguments == null && needArguments) {
            return;
        }
        var call = new Found(name.strip(), ToolNames.canonical(name), arguments(rawArguments));
        if (found.stream().noneMatch(call::repeats)) {
            found.add(call);
        }
    }

    private static boolean looksLikeToolResult(JsonNode value) {
        return value.has("tool") && value.has("ok") && (value.has("data") || value.has("error"));
    }

    private static JsonNode firstOf(JsonNode object, List<String> keys) {
        for (String key : keys) {
            if (object.has(key)) {
                return object.get(key);
            }
        }
        return null;
    }

    private static JsonNode arguments(JsonNode raw) {
        if (raw == null || raw.isNull()) {
            return JsonNodeFactory.instance.objectNode();
        }
        if (raw.isObject()) {
            return raw;
        }
        if (raw.isTextual()) {
            String text = raw.asText().strip();
            if (text.isEmpty()) {
                return JsonNodeFactory.instance.objectNode();
            }
            List<JsonNode> values = jsonValues(text);
            if (text.startsWith("{") && values.size() == 1 && values.getFirst().isObject()) {
                return values.getFirst();
            }
        }
        ObjectNode wrapped = JsonNodeFactory.instance.objectNode();
        wrapped.set("raw", raw);
        return wrapped;
    }
}
