package dev.assay.cases;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.cases.internal.ReferenceFormat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The functions a function-calling case declares (its {@code tools}, {@code builtin_tools} and {@code tool_results}
 * fields, kept as written in {@link Case#attributes()}), read and normalised: the OpenAI wrapper {@code {"type":
 * "function", "function": {...}}} is unwrapped and BFCL's type names ({@code dict}, {@code float}, {@code tuple},
 * {@code any}) become JSON Schema. The loader reports every problem with {@link #read}; later stages read a valid case
 * with {@link #of}.
 *
 * @param functions the declared functions, in the order written; empty when the case declares none
 * @param builtinTools whether the built-in tools are offered beside them (default: instead of them)
 * @param results function name to its {@code tool_results} entry as written (a value, or a list of {@code {args,
 *     result}})
 */
public record DeclaredTools(List<DeclaredFunction> functions, boolean builtinTools, Map<String, JsonNode> results) {
    public static final DeclaredTools NONE = new DeclaredTools(List.of(), false, Map.of());

    /** BFCL's and JSON Schema's type names, to the JSON Schema type; {@code any} means no type constraint. */
    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("string", "string"),
            Map.entry("integer", "integer"),
            Map.entry("number", "number"),
            Map.entry("float", "number"),
            Map.entry("boolean", "boolean"),
            Map.entry("array", "array"),
            Map.entry("tuple", "array"),
            Map.entry("object", "object"),
            Map.entry("dict", "object"),
            Map.entry("null", "null"),
            Map.entry("any", ""));

    public DeclaredTools {
        functions = List.copyOf(functions);
        results = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(results));
    }

    /**
     * One declared function.
     *
     * @param name the name as declared (checkers and transcripts use it; the wire name may differ)
     * @param description what the model is told it does; may be empty
     * @param parameters its arguments as a JSON Schema object schema, normalised
     */
    public record DeclaredFunction(String name, String description, ObjectNode parameters) {
        public DeclaredFunction {
            parameters = parameters.deepCopy();
        }

        /** {@return the schema of one parameter; a missing node when the schema does not describe it} */
        public JsonNode property(String parameter) {
            return parameters.path("properties").path(parameter);
        }

        /** {@return the parameters the schema requires} */
        public List<String> required() {
            var names = new ArrayList<String>();
            parameters.path("required").forEach(name -> names.add(name.asText()));
            return names;
        }
    }

    /** {@return whether the case declares no function} */
    public boolean isEmpty() {
        return functions.isEmpty();
    }

    /** {@return the declared function with exactly this name} */
    public Optional<DeclaredFunction> function(String name) {
        return functions.stream()
                .filter(function -> function.name().equals(name))
                .findFirst();
    }

    /** {@return the declarations of a case the loader accepted} */
    public static DeclaredTools of(Case evalCase) {
        return read(evalCase.attributes(), (type, field, message, expected) -> {
            throw new AssayException(Problem.of(type, "case " + evalCase.id() + ": " + field + ": " + message));
        });
    }

    /** Reads the fields of one case entry, reporting every problem to {@code problems}. */
    public static DeclaredTools read(JsonNode caseNode, ReferenceFormat.Problems problems) {
        JsonNode tools = caseNode.get("tools");
        JsonNode builtin = caseNode.get("builtin_tools");
        JsonNode results = caseNode.get("tool_results");
        if (tools == null || tools.isNull()) {
            for (String field : List.of("builtin_tools", "tool_results")) {
                if (caseNode.hasNonNull(field)) {
                    problems.add(
                            "case.invalid_field",
                            field,
                            "`" + field + "` needs `tools`",
                            "`tools`: the functions the case declares");
                }
            }
            return NONE;
        }
        if (!tools.isArray() || tools.isEmpty()) {
            problems.add(
                    "case.invalid_field",
                    "tools",
                    "`tools` is not a non-empty list",
                    "a list of function definitions {name, description, parameters}");
            return NONE;
        }
        var functions = new ArrayList<DeclaredFunction>();
        for (int i = 0; i < tools.size(); i++) {
            DeclaredFunction function = function(tools.get(i), "tools[" + i + "]", problems);
            if (function == null) {
                continue;
            }
            if (functions.stream().anyMatch(other -> other.name().equals(function.name()))) {
                problems.add(
                        "case.invalid_field",
                        "tools[" + i + "].name",
                        "the function '" + function.name() + "' is declared twice",
                        "unique function names");
            }
            functions.add(function);
        }
        boolean builtinTools = false;
        if (builtin != null && !builtin.isNull()) {
            if (builtin.isBoolean()) {
                builtinTools = builtin.booleanValue();
            } else {
                problems.add("case.invalid_field", "builtin_tools", "`builtin_tools` is " + builtin, "true or false");
            }
        }
        var resultMap = new LinkedHashMap<String, JsonNode>();
        if (results != null && !results.isNull()) {
            if (!results.isObject()) {
                problems.add(
                        "case.invalid_field",
                        "tool_results",
                        "`tool_results` is not an object",
                        "an object: function name to a result, or to a list of {args, result}");
            } else {
                results.properties().forEach(entry -> {
                    String field = "tool_results." + entry.getKey();
                    if (functions.stream().noneMatch(function -> function.name().equals(entry.getKey()))) {
                        problems.add(
                                "case.invalid_field",
                                field,
                                "no declared function is named '" + entry.getKey() + "'",
                                "a name from `tools`");
                    }
                    if (isMatchedList(entry.getValue())) {
                        checkMatchedList((ArrayNode) entry.getValue(), field, problems);
                    }
                    resultMap.put(entry.getKey(), entry.getValue().deepCopy());
                });
            }
        }
        return new DeclaredTools(functions, builtinTools, resultMap);
    }

    /**
     * {@return whether a {@code tool_results} entry is the matched form}: a non-empty list of objects that all have
     * {@code result}. Any other value is the function's one result.
     */
    public static boolean isMatchedList(JsonNode entry) {
        if (!entry.isArray() || entry.isEmpty()) {
            return false;
        }
        for (JsonNode element : entry) {
            if (!element.isObject() || !element.has("result")) {
                return false;
            }
        }
        return true;
    }

    private static void checkMatchedList(ArrayNode entries, String field, ReferenceFormat.Problems problems) {
        for (int i = 0; i < entries.size(); i++) {
            JsonNode entry = entries.get(i);
            String at = field + "[" + i + "]";
            entry.fieldNames().forEachRemaining(key -> {
                if (!key.equals("args") && !key.equals("result")) {
                    problems.add(
                            "case.invalid_field",
                            at + "." + key,
                            "unknown field '" + key + "'",
                            "`args` (the arguments to match) and `result`");
                }
            });
            if (entry.has("args") && !entry.get("args").isObject()) {
                problems.add(
                        "case.invalid_field",
                        at + ".args",
                        "`args` is not an object",
                        "an object of arguments, matched as a subset of the call's");
            }
        }
    }

    private static DeclaredFunction function(JsonNode node, String field, ReferenceFormat.Problems problems) {
        if (node.isObject() && node.path("type").asText().equals("function") && node.has("function")) {
            node = node.get("function");
            field = field + ".function";
        }
        if (!node.isObject()) {
            problems.add(
                    "case.invalid_field",
                    field,
                    "the function definition is not an object",
                    "{name, description, parameters} or {\"type\": \"function\", \"function\": {...}}");
            return null;
        }
        JsonNode name = node.get("name");
        if (name == null || !name.isTextual() || name.textValue().isBlank()) {
            problems.add(
                    name == null ? "case.missing_field" : "case.invalid_field",
                    field + ".name",
                    "the function has no name",
                    "a non-empty string");
            return null;
        }
        JsonNode description = node.path("description");
        if (!description.isMissingNode() && !description.isNull() && !description.isTextual()) {
            problems.add("case.invalid_field", field + ".description", "`description` is not a string", "a string");
        }
        JsonNode parameters = node.get("parameters");
        ObjectNode schema;
        if (parameters == null || parameters.isNull()) {
            schema = Json.object().put("type", "object");
            schema.putObject("properties");
        } else if (!parameters.isObject()) {
            problems.add(
                    "case.invalid_field",
                    field + ".parameters",
                    "`parameters` is not an object",
                    "a JSON Schema object schema (BFCL's \"type\": \"dict\" is read as \"object\")");
            return null;
        } else {
            schema = (ObjectNode) parameters.deepCopy();
            normalise(schema, field + ".parameters", problems);
            String type = schema.path("type").asText("object");
            if (!type.equals("object")) {
                problems.add(
                        "case.invalid_field",
                        field + ".parameters.type",
                        "the parameters are of type '" + type + "'",
                        "\"object\" (or BFCL's \"dict\")");
            }
            schema.put("type", "object");
            JsonNode required = schema.get("required");
            if (required != null && !(required.isArray() && allText(required))) {
                problems.add(
                        "case.invalid_field",
                        field + ".parameters.required",
                        "`required` is not a list of " + "names",
                        "a list of parameter names");
                schema.remove("required");
            }
        }
        return new DeclaredFunction(name.textValue(), description.asText(""), schema);
    }

    /** Rewrites BFCL type names to JSON Schema, in place, through properties, items and additionalProperties. */
    private static void normalise(ObjectNode schema, String field, ReferenceFormat.Problems problems) {
        JsonNode type = schema.get("type");
        if (type != null) {
            String mapped = type.isTextual() ? TYPES.get(type.textValue()) : null;
            if (mapped == null) {
                problems.add(
                        "case.invalid_field",
                        field + ".type",
                        "unknown type " + type,
                        "one of " + TYPES.keySet().stream().sorted().toList());
            } else if (mapped.isEmpty()) {
                schema.remove("type");
            } else {
                schema.put("type", mapped);
            }
        }
        JsonNode properties = schema.get("properties");
        if (properties != null && properties.isObject()) {
            properties.properties().forEach(entry -> {
                if (entry.getValue().isObject()) {
                    normalise((ObjectNode) entry.getValue(), field + ".properties." + entry.getKey(), problems);
                }
            });
        }
        for (String nested : List.of("items", "additionalProperties")) {
            if (schema.get(nested) instanceof ObjectNode inner) {
                normalise(inner, field + "." + nested, problems);
            }
        }
    }

    private static boolean allText(JsonNode list) {
        for (JsonNode element : list) {
            if (!element.isTextual()) {
                return false;
            }
        }
        return true;
    }
}
