package dev.assay.run;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Problem;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where the trace's {@code recall}, {@code tools}, {@code compliance} and {@code profile_snapshot} are found in an
 * agent's per-turn report: a JSON Pointer (RFC 6901) each, or an empty string for "the agent does not report this" (the
 * trace field is then null, or [] for tools). Documented in docs/dialog.md.
 *
 * @param recall pointer to the recall object; default {@code /recall}
 * @param tools pointer to the tool-call list; default {@code /tools}
 * @param compliance pointer to the compliance object; default {@code /compliance}
 * @param profileSnapshot pointer to the profile object; default {@code /profile_snapshot}
 */
public record FieldMapping(String recall, String tools, String compliance, String profileSnapshot) {
    public FieldMapping {
        recall = validate("recall", recall);
        tools = validate("tools", tools);
        compliance = validate("compliance", compliance);
        profileSnapshot = validate("profile_snapshot", profileSnapshot);
    }

    /** {@return the mapping that reads the trace's own field names at the top of the report} */
    public static FieldMapping defaults() {
        return new FieldMapping("/recall", "/tools", "/compliance", "/profile_snapshot");
    }

    /**
     * {@return the defaults with the given fields overridden}
     *
     * @param spec comma-separated {@code field=pointer} pairs, e.g. {@code recall=/memory,tools=/tool_calls}; fields
     *     are {@code recall}, {@code tools}, {@code compliance}, {@code profile_snapshot}
     * @throws AssayException {@code dialog.invalid_field_mapping} for an unknown field or an invalid pointer
     */
    public static FieldMapping parse(String spec) {
        var fields = new LinkedHashMap<String, String>(defaults().asMap());
        if (spec != null && !spec.isBlank()) {
            for (String pair : spec.split(",")) {
                int eq = pair.indexOf('=');
                String field = eq < 0 ? pair.strip() : pair.substring(0, eq).strip();
                if (eq < 0 || !fields.containsKey(field)) {
                    throw new AssayException(Problem.of(
                            "dialog.invalid_field_mapping",
                            "expected field=pointer with field one of " + fields.keySet() + ", got '" + pair + "'"));
                }
                fields.put(field, pair.substring(eq + 1).strip());
            }
        }
        return new FieldMapping(
                fields.get("recall"), fields.get("tools"), fields.get("compliance"), fields.get("profile_snapshot"));
    }

    /** {@return the mapping as {@code field → pointer}, in trace order} */
    public Map<String, String> asMap() {
        var map = new LinkedHashMap<String, String>();
        map.put("recall", recall);
        map.put("tools", tools);
        map.put("compliance", compliance);
        map.put("profile_snapshot", profileSnapshot);
        return map;
    }

    /** {@return the mapping as stored: {@code field → pointer}} */
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        asMap().forEach(node::put);
        return node;
    }

    private static String validate(String field, String pointer) {
        String value = Objects.requireNonNullElse(pointer, "");
        try {
            JsonPointer.compile(value);
        } catch (IllegalArgumentException e) {
            throw new AssayException(Problem.of(
                            "dialog.invalid_field_mapping", "invalid JSON pointer for " + field + ": '" + value + "'")
                    .withDetail("field", field));
        }
        return value;
    }
}
