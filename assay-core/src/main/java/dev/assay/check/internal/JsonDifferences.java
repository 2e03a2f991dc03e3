package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Where two JSON documents differ, as JSON pointers (RFC 6901) with both values: objects compared key by key in any
 * order, arrays element by element, numbers by value ({@code 1} equals {@code 1.0}). A pointer listed as ignored, or
 * inside one, is not compared. Stateless.
 */
final class JsonDifferences {
    /** The most differences a verdict lists; the count says how many there were. */
    static final int SHOWN = 50;

    private JsonDifferences() {}

    /** {@return whether the two values are equal as JSON, numbers by value and object keys in any order} */
    static boolean equal(JsonNode expected, JsonNode actual) {
        return of(expected, actual, List.of()).isEmpty();
    }

    /**
     * {@return every difference, as {@code {pointer, expected, actual}}: a value missing on one side has no field for
     * that side}
     */
    static ArrayNode of(JsonNode expected, JsonNode actual, List<String> ignored) {
        ArrayNode differences = Json.MAPPER.createArrayNode();
        compare("", expected, actual, ignored, differences);
        return differences;
    }

    private static void compare(
            String pointer, JsonNode expected, JsonNode actual, List<String> ignored, ArrayNode out) {
        if (isIgnored(pointer, ignored)) {
            return;
        }
        if (expected != null && actual != null && expected.isObject() && actual.isObject()) {
            Set<String> names = new LinkedHashSet<>();
            expected.fieldNames().forEachRemaining(names::add);
            actual.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                compare(pointer + "/" + escape(name), expected.get(name), actual.get(name), ignored, out);
            }
            return;
        }
        if (expected != null && actual != null && expected.isArray() && actual.isArray()) {
            for (int index = 0; index < Math.max(expected.size(), actual.size()); index++) {
                compare(pointer + "/" + index, expected.get(index), actual.get(index), ignored, out);
            }
            return;
        }
        if (expected != null && actual != null && sameScalar(expected, actual)) {
            return;
        }
        ObjectNode difference = out.addObject();
        difference.put("pointer", pointer);
        if (expected != null) {
            difference.set("expected", expected);
        }
        if (actual != null) {
            difference.set("actual", actual);
        }
    }

    private static boolean sameScalar(JsonNode expected, JsonNode actual) {
        if (expected.isNumber() && actual.isNumber()) {
            return expected.decimalValue().compareTo(actual.decimalValue()) == 0;
        }
        return !expected.isContainerNode() && expected.equals(actual);
    }

    private static boolean isIgnored(String pointer, List<String> ignored) {
        for (String prefix : ignored) {
            if (pointer.equals(prefix) || pointer.startsWith(prefix + "/")) {
                return true;
            }
        }
        return false;
    }

    private static String escape(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }
}
