package dev.assay.cases.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.assay.Json;
import dev.assay.cases.Check;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The reference server's case shape (docs/case-format.md, "The reference server's shape"): {@code checker} is an object
 * tagged by {@code type} whose other fields are the expectation. Converted here to Assay's {@link Check}s, so every
 * later stage sees one shape; where the reference judges differently and its own cases depend on it, the conversion
 * sets the option that gives its verdict (docs/checkers.md, "Differences from the reference server").
 */
public final class ReferenceFormat {
    /**
     * The files the reference server seeds into {@code eval/<run_id>/} before a run (§1.4); its cases read and edit
     * them, so a suite in its shape carries them as fixtures. Keys keep the placeholder.
     */
    public static final Map<String, String> FIXTURES = fixtures();

    private ReferenceFormat() {}

    /** Receives a problem found while converting. */
    public interface Problems {
        void add(String type, String field, String message, String expected);
    }

    private static Map<String, String> fixtures() {
        var files = new LinkedHashMap<String, String>();
        files.put("eval/{run_id}/fixtures/alpha.txt", "alpha beta gamma\n");
        files.put("eval/{run_id}/fixtures/list/a.txt", "alpha\n");
        files.put("eval/{run_id}/fixtures/list/b.txt", "beta\n");
        files.put("eval/{run_id}/outputs/replace.txt", "hello world\n");
        files.put("eval/{run_id}/outputs/edit.txt", "line1\nline2\n");
        return java.util.Collections.unmodifiableMap(files);
    }

    /** {@return true when the entry uses the tagged-object {@code checker}} */
    public static boolean isReferenceShape(JsonNode entry) {
        return entry.path("checker").isObject();
    }

    /**
     * {@return the check a tagged checker object stands for, or null after reporting what is wrong}
     *
     * @param checker the tagged object
     * @param weight the check's weight
     * @param field the object's field name, prefixed to reported fields ({@code checker.answer})
     */
    static Check toCheck(ObjectNode checker, double weight, String field, Problems problems) {
        JsonNode type = checker.get("type");
        if (type == null || type.isNull()) {
            problems.add(
                    "case.missing_field",
                    field + ".type",
                    "the checker object has no `type`",
                    "a checker type such as choice, regex or tool_called");
            return null;
        }
        if (!type.isTextual()) {
            problems.add(
                    "case.invalid_field",
                    field + ".type",
                    "the checker `type` is not a string",
                    "a checker type such as choice, regex or tool_called");
            return null;
        }
        var reader = new Fields(checker, field, problems);
        String name = type.textValue().strip();
        JsonNode expected = switch (name) {
            case "choice", "exact" -> reader.text("answer");
            case "contains" -> reader.text("text");
            // The reference fails just the case on a pattern its engine rejects (docs/checkers.md, difference R2).
            case "regex" -> reader.pair("pattern", reader.text("pattern"), "on_invalid", TextNode.valueOf("fail"));
            case "tool_called" -> reader.text("tool");
            // The reference's file_exists passes on a directory, and its case sets rely on it (F1).
            case "file_exists" -> reader.pair("path", reader.text("path"), "type", TextNode.valueOf("any"));
            case "tool_args" -> reader.pair("tool", reader.text("tool"), "required", reader.any("required"));
            case "file_contains" -> reader.pair("path", reader.text("path"), "contains", reader.text("text"));
            case "json_contains" -> reader.pair("path", reader.text("path"), "required", reader.any("required"));
            default -> {
                problems.add(
                        "plugin.unknown",
                        field + ".type",
                        "unknown reference checker type '" + name + "'",
                        "one of choice, exact, contains, regex, tool_called, tool_args, file_exists, "
                                + "file_contains, json_contains");
                yield null;
            }
        };
        return expected == null ? null : new Check(name, expected, weight);
    }

    /** Reads the kind-specific fields of one checker object, reporting each missing or mistyped one. */
    private record Fields(ObjectNode checker, String field, Problems problems) {
        JsonNode text(String name) {
            JsonNode value = any(name);
            if (value != null && !value.isTextual()) {
                problems.add("case.invalid_field", field + "." + name, "`" + name + "` is not a string", "a string");
                return null;
            }
            return value == null ? null : TextNode.valueOf(value.textValue());
        }

        JsonNode any(String name) {
            JsonNode value = checker.get(name);
            if (value == null || value.isNull()) {
                problems.add(
                        "case.missing_field",
                        field + "." + name,
                        "the `" + checker.path("type").asText() + "` checker has no `" + name + "`",
                        "a value for `" + name + "`");
                return null;
            }
            return value;
        }

        JsonNode pair(String firstName, JsonNode first, String secondName, JsonNode second) {
            if (first == null || second == null) {
                return null;
            }
            ObjectNode pair = Json.object();
            pair.set(firstName, first);
            pair.set(secondName, second.deepCopy());
            return pair;
        }
    }
}
