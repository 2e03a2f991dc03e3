package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * The reference server's subset rule ({@code json_contains(actual, required)}, docs/checkers.md, "json_contains"): null
 * needs null; booleans equal; numbers equal as integers when both are integral, else as doubles (3 and 3.0 match);
 * strings equal exactly; a required array needs an actual array at least as long whose element <i>i</i> contains
 * required element <i>i</i> (an ordered prefix, not a set); a required object needs every key, each contained
 * recursively (extra keys allowed).
 */
final class JsonSubset {
    private JsonSubset() {}

    /**
     * Where the actual value first departs from the requirement.
     *
     * @param path JSON Pointer of the place ({@code ""} for the root)
     * @param kind {@code missing} (key absent, array too short), {@code type} or {@code value}
     * @param expected the required value there
     * @param actual the actual value there; null when missing
     */
    record Mismatch(String path, String kind, JsonNode expected, JsonNode actual) {
        ObjectNode toJson() {
            ObjectNode node = Json.object();
            node.put("path", path);
            node.put("kind", kind);
            node.set("expected", expected);
            node.set("actual", actual);
            return node;
        }
    }

    /** {@return the first mismatch, or empty when {@code actual} contains {@code required}} */
    static Optional<Mismatch> firstMismatch(JsonNode required, JsonNode actual) {
        return mismatch("", required, actual);
    }

    private static Optional<Mismatch> mismatch(String path, JsonNode required, JsonNode actual) {
        if (actual == null || actual.isMissingNode()) {
            return Optional.of(new Mismatch(path, "missing", required, null));
        }
        if (required.isNumber() && actual.isNumber()) {
            return numbersEqual(required, actual)
                    ? Optional.empty()
                    : Optional.of(new Mismatch(path, "value", required, actual));
        }
        if (required.getNodeType() != actual.getNodeType()) {
            return Optional.of(new Mismatch(path, "type", required, actual));
        }
        if (required.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it =
                            required.properties().iterator();
                    it.hasNext(); ) {
                var entry = it.next();
                var inner = mismatch(path + "/" + escape(entry.getKey()), entry.getValue(), actual.get(entry.getKey()));
                if (inner.isPresent()) {
                    return inner;
                }
            }
            return Optional.empty();
        }
        if (required.isArray()) {
            for (int i = 0; i < required.size(); i++) {
                var inner = mismatch(path + "/" + i, required.get(i), actual.get(i));
                if (inner.isPresent()) {
                    return inner;
                }
            }
            return Optional.empty();
        }
        return required.equals(actual) ? Optional.empty() : Optional.of(new Mismatch(path, "value", required, actual));
    }

    static boolean numbersEqual(JsonNode a, JsonNode b) {
        if (a.isIntegralNumber() && b.isIntegralNumber()) {
            return a.bigIntegerValue().equals(b.bigIntegerValue());
        }
        return a.doubleValue() == b.doubleValue();
    }

    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
