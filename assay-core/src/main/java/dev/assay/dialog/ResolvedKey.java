package dev.assay.dialog;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * A {@code memory_required_keys_gt} entry resolved to the text the target must remember (M1).
 *
 * @param key the key as written in the dataset, e.g. {@code profile_gt.constraints_gt[0]} or
 *     {@code history_turn_index:3}
 * @param resolvable whether a text was found; unresolvable keys leave the denominator
 * @param targetText the text to find in the target's memory; null when unresolvable
 * @param resolver how it was resolved: {@code profile_field}, {@code constraints_gt}, {@code preferences_gt},
 *     {@code history_user_turn}, {@code history_abs_turn} or {@code unresolved}
 */
public record ResolvedKey(String key, boolean resolvable, String targetText, String resolver) {
    public ResolvedKey {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(resolver, "resolver");
    }

    public static ResolvedKey unresolved(String key) {
        return new ResolvedKey(key, false, null, "unresolved");
    }

    ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("key", key);
        node.put("resolvable", resolvable);
        node.put("target_text", targetText);
        node.put("resolver", resolver);
        return node;
    }
}
