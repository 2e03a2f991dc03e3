package dev.assay.subject.sse.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.assay.Json;
import dev.assay.subject.sse.SseAgentSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fills a request-body template. A string that is exactly one placeholder ({@code "{{tool_names}}"}) becomes the value
 * itself, so lists and objects keep their JSON type; placeholders inside longer strings are replaced by their text.
 * Known placeholders: {@code prompt}, {@code session_id}, {@code user_id}, {@code run_id}, {@code case_id},
 * {@code model}, {@code language}, {@code tool_names}, {@code config_overrides}, {@code workspace}; unknown ones stay
 * as written.
 */
public final class RequestBody {
    /** The reference server's {@code POST /wunder} body (docs/targets.md, "Request"). */
    public static final JsonNode REFERENCE = Json.parse("""
            {"user_id": "{{user_id}}", "question": "{{prompt}}", "tool_names": "{{tool_names}}", "stream": true,
             "session_id": "{{session_id}}", "model_name": "{{model}}", "language": "{{language}}",
             "config_overrides": "{{config_overrides}}"}""");

    /** The reference body plus the shared workspace's path, for agents that work in Assay's directory. */
    public static final JsonNode REFERENCE_WITH_WORKSPACE =
            ((ObjectNode) REFERENCE.deepCopy()).put("workspace", "{{workspace}}");

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([a-z_]+)}}");

    private RequestBody() {}

    /**
     * What one request is about; the settings add {@code model}, {@code tool_names} and {@code config_overrides}.
     *
     * @param prompt the message for the agent
     * @param sessionId the agent's session
     * @param userId the user; empty is sent as {@code assay}, because the reference server refuses a blank one
     * @param runId the run; empty when none
     * @param caseId the case; empty when none
     * @param language the language of the prompt; empty for the settings' language
     * @param workspace the absolute path of a workspace shared with the agent; empty when none
     */
    public record Call(
            String prompt,
            String sessionId,
            String userId,
            String runId,
            String caseId,
            String language,
            String workspace) {
        public Call {
            prompt = Objects.requireNonNullElse(prompt, "");
            sessionId = Objects.requireNonNullElse(sessionId, "");
            userId = Objects.requireNonNullElse(userId, "");
            runId = Objects.requireNonNullElse(runId, "");
            caseId = Objects.requireNonNullElse(caseId, "");
            language = Objects.requireNonNullElse(language, "");
            workspace = Objects.requireNonNullElse(workspace, "");
        }
    }

    /** {@return the body of one request: the settings' template filled with the call's and the settings' values} */
    public static JsonNode of(SseAgentSettings settings, Call call) {
        Map<String, JsonNode> values = new LinkedHashMap<>();
        values.put("prompt", TextNode.valueOf(call.prompt()));
        values.put("session_id", TextNode.valueOf(call.sessionId()));
        values.put("user_id", TextNode.valueOf(call.userId().isEmpty() ? "assay" : call.userId()));
        values.put("run_id", TextNode.valueOf(call.runId()));
        values.put("case_id", TextNode.valueOf(call.caseId()));
        values.put("model", TextNode.valueOf(settings.model()));
        values.put("language", TextNode.valueOf(call.language().isEmpty() ? settings.language() : call.language()));
        values.put("tool_names", Json.tree(settings.tools()));
        values.put("config_overrides", settings.configOverrides());
        values.put("workspace", TextNode.valueOf(call.workspace()));
        return fill(settings.body(), values);
    }

    /** {@return a filled copy of {@code template}} */
    public static JsonNode fill(JsonNode template, Map<String, JsonNode> values) {
        if (template.isTextual()) {
            return fillText(template.asText(), values);
        }
        if (template.isObject()) {
            ObjectNode filled = Json.object();
            template.properties().forEach(field -> filled.set(field.getKey(), fill(field.getValue(), values)));
            return filled;
        }
        if (template.isArray()) {
            ArrayNode filled = Json.MAPPER.createArrayNode();
            template.forEach(element -> filled.add(fill(element, values)));
            return filled;
        }
        return template.deepCopy();
    }

    private static JsonNode fillText(String text, Map<String, JsonNode> values) {
        Matcher whole = PLACEHOLDER.matcher(text);
        if (whole.matches() && values.containsKey(whole.group(1))) {
            return values.get(whole.group(1)).deepCopy();
        }
        Matcher matcher = PLACEHOLDER.matcher(text);
        var result = new StringBuilder();
        while (matcher.find()) {
            JsonNode value = values.get(matcher.group(1));
            String replacement =
                    value == null ? matcher.group() : value.isValueNode() ? value.asText() : Json.write(value);
            matcher.appendReplacement(result, Matcher.quoteReplacement(replacement));
        }
        matcher.appendTail(result);
        return new TextNode(result.toString());
    }
}
