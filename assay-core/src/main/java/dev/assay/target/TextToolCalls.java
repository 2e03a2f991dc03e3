package dev.assay.target;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Parses {@code <tool_call>} blocks written by a model in text tool mode. */
public final class TextToolCalls {
    private static final Pattern BLOCK = Pattern.compile("(?is)<tool_call>(.*?)</tool_call>");

    private TextToolCalls() {
    }

    public static List<ToolCallRequest> parse(String text) {
        var calls = new ArrayList<ToolCallRequest>();
        var matcher = BLOCK.matcher(text == null ? "" : text);
        while (matcher.find()) {
            try {
                JsonNode node = Json.MAPPER.readTree(matcher.group(1).strip());
                if (node != null && node.hasNonNull("name")) {
                    JsonNode args = node.path("arguments");
                    calls.add(new ToolCallRequest("call_" + (calls.size() + 1), node.get("name").asText(),
                            args.isObject() ? args : Json.object()));
                }
            } catch (Exception ignored) {
                // replaced by the full parser
            }
        }
        return calls;
    }
}
