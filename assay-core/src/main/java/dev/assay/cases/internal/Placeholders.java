package dev.assay.cases.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Map;

/**
 * The {@code {run_id}} / {@code {user_id}} placeholders of the reference server's case files (docs/case-format.md, "The
 * reference server's shape"), replaced in prompts, file paths and anywhere inside an expectation.
 */
public final class Placeholders {
    private Placeholders() {}

    public static String fill(String text, Map<String, String> values) {
        if (text == null || text.indexOf('{') < 0) {
            return text;
        }
        String result = text;
        for (var entry : values.entrySet()) {
            result = result.replace("{" + entry.getKey() + "}", entry.getValue());
        }
        return result;
    }

    public static JsonNode fill(JsonNode node, Map<String, String> values) {
        if (node == null) {
            return null;
        }
        if (node.isTextual()) {
            return TextNode.valueOf(fill(node.textValue(), values));
        }
        if (node.isArray()) {
            ArrayNode copy = ((ArrayNode) node).arrayNode();
            node.forEach(element -> copy.add(fill(element, values)));
            return copy;
        }
        if (node.isObject()) {
            ObjectNode copy = ((ObjectNode) node).objectNode();
            node.properties().forEach(field -> copy.set(fill(field.getKey(), values), fill(field.getValue(), values)));
            return copy;
        }
        return node;
    }
}
