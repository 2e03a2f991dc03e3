package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How {@code tool_args} judges one call's arguments: either BFCL's acceptable-value lists (docs/checkers.md,
 * "tool_args") or the reference server's subset rule ({@link JsonSubset}).
 */
sealed interface ArgumentRule {

    /** {@return every way the arguments break the rule; empty when they satisfy it} */
    List<ArgumentError> errors(JsonNode arguments);

    /** The rule as read, for the verdict's detail. */
    ObjectNode toJson();

    /**
     * One way a call's arguments depart from the expectation.
     *
     * @param type {@code tool_args.missing_required}, {@code tool_args.unexpected_param}, {@code tool_args.type_error}
     *     or {@code tool_args.value_error}
     * @param param the argument, dotted and indexed for nested values ({@code options.mode}, {@code items[1]})
     * @param expected what was acceptable there; null for an unexpected parameter
     * @param actual what the call gave; null when missing
     */
    record ArgumentError(String type, String param, JsonNode expected, JsonNode actual) {
        static final String MISSING_REQUIRED = "tool_args.missing_required";
        static final String UNEXPECTED_PARAM = "tool_args.unexpected_param";
        static final String TYPE_ERROR = "tool_args.type_error";
        static final String VALUE_ERROR = "tool_args.value_error";

        ObjectNode toJson() {
            ObjectNode node = Json.object();
            node.put("type", type);
            node.put("param", param);
            node.set("expected", expected);
            node.set("actual", actual);
            return node;
        }
    }

    /** How strings are compared by {@link Acceptable}. */
    enum Strings {
        /** NFC, CRLF as LF, trimmed, lower case. The default. */
        NORMALIZED,
        /** Character for character. */
        EXACT,
        /** BFCL's {@code standardize_string}: spaces and {@code ,./-_*^} removed, lower case, ' read as ". */
        BFCL;

        private static final Pattern BFCL_REMOVED = Pattern.compile("[ ,./\\-_*^]");

        String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        String normalize(String text) {
            return switch (this) {
                case EXACT -> text;
                case NORMALIZED ->
                    Normalizer.normalize(text, Normalizer.Form.NFC)
                            .replace("\r\n", "\n")
                            .strip()
                            .toLowerCase(Locale.ROOT);
                case BFCL ->
                    BFCL_REMOVED
                            .matcher(text)
                            .replaceAll("")
                            .toLowerCase(Locale.ROOT)
                            .replace('\'', '"');
            };
        }
    }

    /**
     * BFCL semantics. Each expected argument lists its acceptable values (a value that is not a list is the only
     * acceptable one; a list value itself is written as a list inside the list, {@code [[1, 2]]}); {@code ""} in the
     * list means the argument may be omitted. An acceptable object is itself a parameter map, matched recursively.
     * Types are checked first: an integer is accepted where a float is expected (int-to-float promotion), not the other
     * way round. A parameter the expectation does not name is unexpected unless {@code allowExtra}.
     *
     * @param params argument name to acceptable values, in the order written
     * @param allowExtra whether arguments the expectation does not name are allowed; default false
     * @param strings how strings are compared; default {@link Strings#NORMALIZED}
     */
    record Acceptable(Map<String, List<JsonNode>> params, boolean allowExtra, Strings strings) implements ArgumentRule {
        static final JsonNode OMITTABLE = Json.tree("");

        public Acceptable {
            var copy = new LinkedHashMap<String, List<JsonNode>>();
            params.forEach((name, values) -> copy.put(name, List.copyOf(values)));
            params = java.util.Collections.unmodifiableMap(copy);
        }

        /** Reads a parameter map as written: a list is the acceptable values, anything else the only one. */
        static Map<String, List<JsonNode>> paramsOf(JsonNode spec) {
            var params = new LinkedHashMap<String, List<JsonNode>>();
            spec.properties().forEach(entry -> {
                JsonNode value = entry.getValue();
                var acceptable = new ArrayList<JsonNode>();
                if (value.isArray()) {
                    value.forEach(acceptable::add);
                } else {
                    acceptable.add(value);
                }
                params.put(entry.getKey(), acceptable);
            });
            return params;
        }

        @Override
        public List<ArgumentError> errors(JsonNode arguments) {
            return paramErrors(params, arguments, "");
        }

        @Override
        public ObjectNode toJson() {
            ObjectNode node = Json.object();
            node.set("args", Json.tree(params));
            node.put("allow_extra", allowExtra);
            node.put("strings", strings.wireName());
            return node;
        }

        private List<ArgumentError> paramErrors(Map<String, List<JsonNode>> expected, JsonNode actual, String prefix) {
            var errors = new ArrayList<ArgumentError>();
            expected.forEach((name, acceptable) -> {
                JsonNode value = actual.get(name);
                boolean omittable = acceptable.contains(OMITTABLE);
                if (value == null || (value.isNull() && omittable)) {
                    if (!omittable) {
                        errors.add(new ArgumentError(
                                ArgumentError.MISSING_REQUIRED, prefix + name, Json.tree(acceptable), null));
                    }
                } else {
                    errors.addAll(valueErrors(acceptable, value, prefix + name));
                }
            });
            if (!allowExtra) {
                for (Iterator<String> names = actual.fieldNames(); names.hasNext(); ) {
                    String name = names.next();
                    if (!expected.containsKey(name)) {
                        errors.add(new ArgumentError(
                                ArgumentError.UNEXPECTED_PARAM, prefix + name, null, actual.get(name)));
                    }
                }
            }
            return errors;
        }

        /**
         * None when one acceptable value matches. Otherwise a scalar gets one error listing every acceptable value
         * ({@code type_error} when none has its type); an object or array gets the nested errors of the closest
         * acceptable value of its type, which say which element is wrong.
         */
        private List<ArgumentError> valueErrors(List<JsonNode> acceptable, JsonNode actual, String param) {
            List<JsonNode> candidates = acceptable.stream()
                    .filter(value -> !value.equals(OMITTABLE) || actual.equals(OMITTABLE))
                    .toList();
            if (candidates.isEmpty()) {
                // Only "" was listed: the argument must be left out.
                return List.of(new ArgumentError(ArgumentError.VALUE_ERROR, param, Json.tree(acceptable), actual));
            }
            List<ArgumentError> closest = null;
            for (JsonNode candidate : candidates) {
                if (typeFits(candidate, actual)) {
                    List<ArgumentError> errors = compare(candidate, actual, param);
                    if (errors.isEmpty()) {
                        return errors;
                    }
                    if (closest == null || errors.size() < closest.size()) {
                        closest = errors;
                    }
                }
            }
            if (closest == null) {
                return List.of(new ArgumentError(ArgumentError.TYPE_ERROR, param, Json.tree(candidates), actual));
            }
            if (actual.isContainerNode()) {
                return closest;
            }
            return List.of(new ArgumentError(ArgumentError.VALUE_ERROR, param, Json.tree(candidates), actual));
        }

        private List<ArgumentError> compare(JsonNode expected, JsonNode actual, String param) {
            if (!typeFits(expected, actual)) {
                return List.of(new ArgumentError(ArgumentError.TYPE_ERROR, param, expected, actual));
            }
            if (expected.isObject()) {
                return paramErrors(paramsOf(expected), actual, param + ".");
            }
            if (expected.isArray()) {
                if (expected.size() != actual.size()) {
                    return List.of(new ArgumentError(ArgumentError.VALUE_ERROR, param, expected, actual));
                }
                var errors = new ArrayList<ArgumentError>();
                for (int i = 0; i < expected.size(); i++) {
                    errors.addAll(compare(expected.get(i), actual.get(i), param + "[" + i + "]"));
                }
                return errors;
            }
            boolean equal = expected.isNumber()
                    ? JsonSubset.numbersEqual(expected, actual)
                    : expected.isTextual()
                            ? strings.normalize(expected.asText()).equals(strings.normalize(actual.asText()))
                            : expected.equals(actual);
            return equal ? List.of() : List.of(new ArgumentError(ArgumentError.VALUE_ERROR, param, expected, actual));
        }

        /** Same JSON type, except that an integer fits where a float is expected (int-to-float promotion). */
        private static boolean typeFits(JsonNode expected, JsonNode actual) {
            if (expected.isNumber() && actual.isNumber()) {
                return !expected.isIntegralNumber() || actual.isIntegralNumber();
            }
            return expected.getNodeType() == actual.getNodeType();
        }
    }

    /**
     * The reference server's form {@code {"tool": ..., "required": {...}}}: the arguments must contain {@code required}
     * by the subset rule; extra arguments are allowed.
     *
     * @param required the required subset
     */
    record Subset(JsonNode required) implements ArgumentRule {
        public Subset {
            required = required.deepCopy();
        }

        @Override
        public List<ArgumentError> errors(JsonNode arguments) {
            return JsonSubset.firstMismatch(required, arguments)
                    .map(mismatch -> {
                        String type = switch (mismatch.kind()) {
                            case "missing" -> ArgumentError.MISSING_REQUIRED;
                            case "type" -> ArgumentError.TYPE_ERROR;
                            default -> ArgumentError.VALUE_ERROR;
                        };
                        String param = mismatch.path().isEmpty()
                                ? ""
                                : mismatch.path().substring(1).replace('/', '.');
                        return List.of(new ArgumentError(type, param, mismatch.expected(), mismatch.actual()));
                    })
                    .orElse(List.of());
        }

        @Override
        public ObjectNode toJson() {
            ObjectNode node = Json.object();
            node.set("required", required);
            return node;
        }
    }
}
