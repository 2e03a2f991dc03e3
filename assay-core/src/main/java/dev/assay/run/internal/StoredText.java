package dev.assay.run.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Map;

/**
 * The cap on text an item stores. An answer appears in an item several times (the final answer, the transcript's model
 * message, the final_answer tool call, checker evidence) and again in every report, so one 10 MB answer made a 42 MB
 * report. Checkers judge the whole answer in memory; what is stored keeps the first {@value #LIMIT} characters of each
 * text, followed by a marker saying how much was left out, and the item is flagged {@code truncated}. Stateless.
 */
public final class StoredText {
    /** Characters (UTF-16 units) kept of one stored text: 1 Mi. */
    public static final int LIMIT = 1 << 20;

    private StoredText() {}

    /** {@return whether the text is longer than the cap} */
    static boolean exceeds(String text) {
        return text != null && text.length() > LIMIT;
    }

    /** {@return the text, or its first {@value #LIMIT} characters and a truncation marker} */
    static String cap(String text) {
        if (!exceeds(text)) {
            return text;
        }
        // Never split a surrogate pair: half a character would be stored as U+FFFD.
        int end = Character.isHighSurrogate(text.charAt(LIMIT - 1)) ? LIMIT - 1 : LIMIT;
        return text.substring(0, end) + "\n[truncated by Assay: " + (text.length() - end) + " of " + text.length()
                + " characters not stored]";
    }

    /** {@return whether any text inside the JSON value is longer than the cap} */
    static boolean exceeds(JsonNode node) {
        if (node == null) {
            return false;
        }
        if (node.isTextual()) {
            return exceeds(node.textValue());
        }
        for (JsonNode child : node) {
            if (exceeds(child)) {
                return true;
            }
        }
        for (var names = node.fieldNames(); names.hasNext(); ) {
            if (exceeds(names.next())) {
                return true;
            }
        }
        return false;
    }

    /** {@return the JSON value with every text in it capped; the value itself when nothing exceeds the cap} */
    static JsonNode cap(JsonNode node) {
        if (!exceeds(node)) {
            return node;
        }
        if (node.isTextual()) {
            return TextNode.valueOf(cap(node.textValue()));
        }
        if (node instanceof ArrayNode array) {
            ArrayNode copy = array.arrayNode(array.size());
            array.forEach(child -> copy.add(cap(child)));
            return copy;
        }
        ObjectNode object = (ObjectNode) node;
        ObjectNode copy = object.objectNode();
        for (Map.Entry<String, JsonNode> field : object.properties()) {
            copy.set(cap(field.getKey()), cap(field.getValue()));
        }
        return copy;
    }
}
