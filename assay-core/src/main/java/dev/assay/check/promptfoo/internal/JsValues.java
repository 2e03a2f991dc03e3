package dev.assay.check.promptfoo.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.assay.Json;
import dev.assay.Yaml;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * JSON values as JavaScript sees them, where promptfoo's rules depend on it: {@code String(value)}, {@code JSON.parse},
 * Node's deep strict equality and promptfoo's search for JSON objects in text. Stateless, thread-safe.
 */
final class JsValues {
    /** {@code JSON.parse} reads one value and nothing after it. */
    private static final ObjectReader STRICT =
            Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    /** promptfoo's extractJsonObjects stops looking this far from an opening brace. */
    private static final int MAX_JSON_LENGTH = 100_000;

    private JsValues() {}

    /** {@return {@code JSON.parse(text)}, or empty where it throws} */
    static Optional<JsonNode> parse(String text) {
        try {
            JsonNode node = STRICT.readTree(text);
            return node == null || node.isMissingNode() ? Optional.empty() : Optional.of(node);
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }

    /** {@return {@code String(value)} in JavaScript} */
    static String string(JsonNode value) {
        if (value == null || value.isMissingNode()) {
            return "undefined";
        }
        if (value.isTextual()) {
            return value.asText();
        }
        if (value.isNumber()) {
            return number(value.asDouble());
        }
        if (value.isArray()) {
            return StreamSupport.stream(value.spliterator(), false)
                    .map(item -> item.isNull() ? "" : string(item))
                    .collect(Collectors.joining(","));
        }
        if (value.isObject()) {
            return "[object Object]";
        }
        return value.asText();
    }

    /** {@return a number as JavaScript writes it: {@code 5}, {@code 1.5}, {@code 1e-7}, {@code 1e+21}} */
    static String number(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "Infinity" : "-Infinity";
        }
        if (value == 0) {
            return "0";
        }
        double magnitude = Math.abs(value);
        BigDecimal decimal = new BigDecimal(Double.toString(value)).stripTrailingZeros();
        if (magnitude >= 1e-6 && magnitude < 1e21) {
            return decimal.toPlainString();
        }
        String digits = decimal.unscaledValue().abs().toString();
        int exponent = digits.length() - 1 - decimal.scale();
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        return (value < 0 ? "-" : "") + mantissa + "e" + (exponent < 0 ? "-" : "+") + Math.abs(exponent);
    }

    /**
     * {@return whether two JSON values are equal as Node's {@code util.isDeepStrictEqual} finds their parsed forms}:
     * numbers by value, objects whatever the order of their keys, arrays in order
     */
    static boolean deepEqual(JsonNode left, JsonNode right) {
        if (left.isNumber() && right.isNumber()) {
            return left.asDouble() == right.asDouble();
        }
        if (left.getNodeType() != right.getNodeType()) {
            return false;
        }
        if (left.isArray()) {
            if (left.size() != right.size()) {
                return false;
            }
            for (int i = 0; i < left.size(); i++) {
                if (!deepEqual(left.get(i), right.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (left.isObject()) {
            if (left.size() != right.size()) {
                return false;
            }
            for (Map.Entry<String, JsonNode> field : left.properties()) {
                JsonNode other = right.get(field.getKey());
                if (other == null || !deepEqual(field.getValue(), other)) {
                    return false;
                }
            }
            return true;
        }
        return left.equals(right);
    }

    /**
     * {@return the JSON objects in a text, as promptfoo's extractJsonObjects finds them}: from each opening brace, the
     * text to its balancing brace (braces counted without regard to strings; a text that ends first is closed with the
     * missing braces) read as YAML in JSON mode; an object found ends the search from there
     */
    static List<JsonNode> objectsIn(String text) {
        var objects = new ArrayList<JsonNode>();
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) != '{') {
                continue;
            }
            int open = 1;
            int close = 0;
            int j = i + 1;
            int end = Math.min(i + MAX_JSON_LENGTH, text.length());
            while (j < end && open > close) {
                char c = text.charAt(j);
                if (c == '{') {
                    open++;
                } else if (c == '}') {
                    close++;
                }
                j++;
                if (open == close || j == text.length() || j == i + MAX_JSON_LENGTH) {
                    String candidate = text.substring(i, j) + "}".repeat(Math.max(0, open - close));
                    Optional<JsonNode> parsed = yamlObject(candidate);
                    if (parsed.isPresent()) {
                        objects.add(parsed.get());
                        i = j - 1;
                        break;
                    }
                    if (open == close) {
                        break;
                    }
                }
            }
        }
        return objects;
    }

    private static Optional<JsonNode> yamlObject(String text) {
        try {
            JsonNode node = Yaml.MAPPER.readTree(text);
            return node != null && (node.isObject() || node.isArray()) ? Optional.of(node) : Optional.empty();
        } catch (JsonProcessingException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
