package dev.assay.dialog;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * How many of a turn's resolvable memory keys each memory source contained (a key found in two sources counts in both).
 *
 * @param shortTerm keys found in {@code recall.short_term_context}
 * @param longTerm keys found in the recalled items' {@code content}
 * @param profile keys found in {@code recall.profile_context}
 */
public record SourceHits(int shortTerm, int longTerm, int profile) {
    ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("short_term", shortTerm);
        node.put("long_term", longTerm);
        node.put("profile", profile);
        return node;
    }
}
