package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.assay.Json;
import dev.assay.cases.DeclaredTools.DeclaredFunction;
import dev.assay.check.internal.ArgumentRule.ArgumentError;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * BFCL's rules for one call's arguments ({@code "match": "bfcl"}), as its AST checker applies them to Python
 * function-calling categories, with the function's declared schema and the expectation's acceptable values. The first
 * broken rule is the only error, as there. Values are compared as Python compares them: an integer equals the float of
 * the same value, and {@code true} equals 1. docs/checkers.md lists every rule.
 */
final class BfclArguments {
    private static final JsonNode OPTIONAL = TextNode.valueOf("");

    /** The Python types BFCL compares, from JSON values and from schema types. */
    private enum PyType {
        STR,
        INT,
        FLOAT,
        BOOL,
        LIST,
        DICT,
        NONE;

        static PyType of(JsonNode value) {
            return switch (value.getNodeType()) {
                case STRING -> STR;
                case BOOLEAN -> BOOL;
                case NUMBER -> value.isIntegralNumber() ? INT : FLOAT;
                case ARRAY -> LIST;
                case OBJECT -> DICT;
                default -> NONE;
            };
        }

        /** BFCL's type mapping; {@code any} (no type in the normalised schema) is a string there. */
        static PyType ofSchema(JsonNode schema) {
            return switch (schema.path("type").asText("")) {
                case "integer" -> INT;
                case "number" -> FLOAT;
                case "boolean" -> BOOL;
                case "array" -> LIST;
                case "object" -> DICT;
                case "null" -> NONE;
                default -> STR;
            };
        }
    }

    /**
     * The outcome of BFCL's type check.
     *
     * @param valid whether the value's type is acceptable
     * @param variable whether the value stands for a variable (its type is the acceptable values' type, not the
     *     schema's): it is then compared by plain equality, without string normalisation
     */
    private record TypeCheck(boolean valid, boolean variable) {}

    private BfclArguments() {}

    /**
     * {@return the first rule the arguments break, or nothing}
     *
     * @param function the declared function (its schema's properties and required list)
     * @param acceptable parameter to its acceptable values; {@code ""} among them marks the parameter optional
     * @param arguments the call's arguments
     */
    static List<ArgumentError> errors(
            DeclaredFunction function, Map<String, List<JsonNode>> acceptable, JsonNode arguments) {
        for (String required : function.required()) {
            if (!arguments.has(required)) {
                return error(ArgumentError.MISSING_REQUIRED, required, Json.tree(acceptable.get(required)), null);
            }
        }
        for (var entry : arguments.properties()) {
            String param = entry.getKey();
            JsonNode value = entry.getValue();
            JsonNode schema = function.property(param);
            List<JsonNode> possible = acceptable.get(param);
            if (schema.isMissingNode() || possible == null) {
                return error(ArgumentError.UNEXPECTED_PARAM, param, null, value);
            }
            PyType expected = PyType.ofSchema(schema);
            JsonNode items = schema.path("items");
            PyType nested = expected == PyType.LIST && items.isObject() ? PyType.ofSchema(items) : null;
            if (expected == PyType.FLOAT && PyType.of(value) == PyType.INT) {
                value = DoubleNode.valueOf(value.doubleValue());
            }
            TypeCheck types = typeCheck(value, possible, expected, nested);
            if (!types.valid()) {
                return error(ArgumentError.TYPE_ERROR, param, schema.path("type"), entry.getValue());
            }
            boolean matches;
            if (types.variable()) {
                matches = possible.stream().anyMatch(candidate -> pyEquals(candidate, entry.getValue()));
            } else if (expected == PyType.DICT) {
                matches = dictMatches(value, possible);
            } else if (expected == PyType.LIST && nested == PyType.DICT) {
                matches = listOfDictsMatches(value, possible);
            } else if (expected == PyType.STR) {
                String standard = standardize(value.asText());
                matches = possible.stream()
                        .anyMatch(candidate -> candidate.isTextual()
                                && standardize(candidate.textValue()).equals(standard));
            } else if (expected == PyType.LIST) {
                matches = listMatches(value, possible);
            } else {
                JsonNode compared = value;
                matches = possible.stream().anyMatch(candidate -> pyEquals(candidate, compared));
            }
            if (!matches) {
                return error(ArgumentError.VALUE_ERROR, param, Json.tree(possible), entry.getValue());
            }
        }
        for (var entry : acceptable.entrySet()) {
            if (!arguments.has(entry.getKey()) && !entry.getValue().contains(OPTIONAL)) {
                return error(ArgumentError.MISSING_REQUIRED, entry.getKey(), Json.tree(entry.getValue()), null);
            }
        }
        return List.of();
    }

    private static List<ArgumentError> error(String type, String param, JsonNode expected, JsonNode actual) {
        return List.of(new ArgumentError(type, param, expected, actual));
    }

    /**
     * BFCL's type check, one level of nesting deep: the schema's type, or the type of the first acceptable value that
     * is not {@code ""} (a variable). For an array with an item type, each element must have the item type or the type
     * of the first element of some acceptable list; an acceptable value that is not a list (such as {@code ""}) lets
     * any elements through. A value of neither type passes when it has the first acceptable value's type (a variable).
     */
    private static TypeCheck typeCheck(JsonNode value, List<JsonNode> possible, PyType expected, PyType nested) {
        PyType answerType = possible.stream()
                .filter(candidate -> !candidate.equals(OPTIONAL))
                .findFirst()
                .map(PyType::of)
                .orElse(null);
        boolean variable = answerType != null && answerType != expected;
        if (PyType.of(value) == expected) {
            if (nested == null) {
                return new TypeCheck(true, variable);
            }
            for (JsonNode candidate : possible) {
                if (!candidate.isArray() || elementsFit(value, elements(candidate), nested)) {
                    return new TypeCheck(true, variable);
                }
            }
            // BFCL marks a failed element check invalid before it looks for a variable, so nothing rescues it.
            return new TypeCheck(false, false);
        }
        if (answerType != null && PyType.of(value) == answerType) {
            return new TypeCheck(true, true);
        }
        return new TypeCheck(false, false);
    }

    private static boolean elementsFit(JsonNode values, List<JsonNode> candidate, PyType nested) {
        for (JsonNode element : values) {
            if (!typeCheck(element, candidate, nested, null).valid()) {
                return false;
            }
        }
        return true;
    }

    /** BFCL's {@code standardize_string}: spaces and {@code ,./-_*^} removed, lower case, ' read as ". */
    static String standardize(String text) {
        return ArgumentRule.Strings.BFCL.normalize(text);
    }

    private static JsonNode standardized(JsonNode value) {
        return value.isTextual() ? TextNode.valueOf(standardize(value.textValue())) : value;
    }

    /**
     * What Python yields when it iterates a value: a list's elements, a string's characters, a dict's keys; null for a
     * value it cannot iterate (BFCL would stop with an error; here the value matches nothing).
     */
    private static List<JsonNode> elements(JsonNode value) {
        var out = new ArrayList<JsonNode>();
        if (value.isArray()) {
            value.forEach(out::add);
        } else if (value.isTextual()) {
            value.textValue().codePoints().forEach(c -> out.add(TextNode.valueOf(Character.toString(c))));
        } else if (value.isObject()) {
            value.fieldNames().forEachRemaining(name -> out.add(TextNode.valueOf(name)));
        } else {
            return null;
        }
        return out;
    }

    /** A list: its strings standardised, equal (Python {@code ==}) to one acceptable list standardised alike. */
    private static boolean listMatches(JsonNode value, List<JsonNode> possible) {
        List<JsonNode> actual = new ArrayList<>();
        value.forEach(element -> actual.add(standardized(element)));
        for (JsonNode candidate : possible) {
            List<JsonNode> expected = elements(candidate);
            if (expected != null
                    && listEquals(
                            actual,
                            expected.stream().map(BfclArguments::standardized).toList())) {
                return true;
            }
        }
        return false;
    }

    /**
     * A dict against acceptable dicts (each key to its acceptable values; {@code ""} skipped): every key of the value
     * is known and its value (standardised when a string) is acceptable, and every key not given may be left out.
     */
    private static boolean dictMatches(JsonNode value, List<JsonNode> possible) {
        if (!value.isObject()) {
            return false;
        }
        for (JsonNode candidate : possible) {
            if (candidate.equals(OPTIONAL) || !candidate.isObject()) {
                continue;
            }
            if (dictFits(value, candidate)) {
                return true;
            }
        }
        return false;
    }

    private static boolean dictFits(JsonNode value, JsonNode candidate) {
        for (var entry : value.properties()) {
            JsonNode choices = candidate.get(entry.getKey());
            List<JsonNode> acceptable = choices == null ? null : elements(choices);
            if (acceptable == null) {
                return false;
            }
            JsonNode actual = standardized(entry.getValue());
            if (acceptable.stream().map(BfclArguments::standardized).noneMatch(choice -> pyEquals(choice, actual))) {
                return false;
            }
        }
        for (var entry : candidate.properties()) {
            if (!value.has(entry.getKey()) && !mayBeLeftOut(entry.getValue())) {
                return false;
            }
        }
        return true;
    }

    /** Python's {@code "" in values}: an element of a list, a key of a dict, and always true for a string. */
    private static boolean mayBeLeftOut(JsonNode values) {
        return values.isTextual()
                || (values.isArray() && elements(values).contains(OPTIONAL))
                || (values.isObject() && values.has(""));
    }

    /** A list of dicts: as long as one acceptable list, each dict matching the one at its position. */
    private static boolean listOfDictsMatches(JsonNode value, List<JsonNode> possible) {
        for (JsonNode candidate : possible) {
            List<JsonNode> expected =
                    candidate.equals(OPTIONAL) ? List.of() : candidate.isArray() ? elements(candidate) : null;
            if (expected == null || expected.size() != value.size()) {
                continue;
            }
            boolean all = true;
            for (int i = 0; i < expected.size() && all; i++) {
                all = value.get(i).isObject() && expected.get(i).isObject() && dictFits(value.get(i), expected.get(i));
            }
            if (all) {
                return true;
            }
        }
        return false;
    }

    private static boolean listEquals(List<JsonNode> a, List<JsonNode> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!pyEquals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** Python's {@code ==} on JSON values: numbers and booleans by value (True == 1 == 1.0), containers deeply. */
    static boolean pyEquals(JsonNode a, JsonNode b) {
        BigDecimal x = numeric(a);
        BigDecimal y = numeric(b);
        if (x != null || y != null) {
            return x != null && y != null && x.compareTo(y) == 0;
        }
        if (a.isArray() && b.isArray()) {
            return listEquals(elements(a), elements(b));
        }
        if (a.isObject() && b.isObject()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (var entry : a.properties()) {
                JsonNode other = b.get(entry.getKey());
                if (other == null || !pyEquals(entry.getValue(), other)) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    private static BigDecimal numeric(JsonNode value) {
        if (value.isBoolean()) {
            return value.booleanValue() ? BigDecimal.ONE : BigDecimal.ZERO;
        }
        return value.isNumber() ? value.decimalValue() : null;
    }
}
