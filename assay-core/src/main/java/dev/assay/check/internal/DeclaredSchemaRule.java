package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.cases.DeclaredTools.DeclaredFunction;
import dev.assay.check.internal.ArgumentRule.ArgumentError;
import java.util.ArrayList;
import java.util.List;

/**
 * Assay's default use of a declared function's schema in {@code tool_args}: every parameter the schema requires is
 * given (a {@code null} counts as not given), and every value the schema types has that JSON type, through array items
 * and object properties. An integer fits {@code number}; a number with no fraction fits {@code integer}, as in JSON
 * Schema. A {@code null} for a parameter the schema does not require is left out, as the acceptable-value rule reads
 * it.
 */
final class DeclaredSchemaRule {
    private DeclaredSchemaRule() {}

    /** {@return the schema's objections to a call's arguments} */
    static List<ArgumentError> errors(DeclaredFunction function, JsonNode arguments) {
        var errors = new ArrayList<ArgumentError>();
        for (String required : function.required()) {
            JsonNode value = arguments.get(required);
            if (value == null || value.isNull()) {
                errors.add(new ArgumentError(ArgumentError.MISSING_REQUIRED, required, null, value));
            }
        }
        for (var entry : arguments.properties()) {
            if (!entry.getValue().isNull()) {
                typeErrors(function.property(entry.getKey()), entry.getValue(), entry.getKey(), errors);
            }
        }
        return errors;
    }

    private static void typeErrors(JsonNode schema, JsonNode value, String param, List<ArgumentError> errors) {
        JsonNode type = schema.path("type");
        if (!type.isMissingNode() && !fits(type, value)) {
            errors.add(new ArgumentError(ArgumentError.TYPE_ERROR, param, type, value));
            return;
        }
        if (value.isArray() && schema.path("items").isObject()) {
            for (int i = 0; i < value.size(); i++) {
                typeErrors(schema.get("items"), value.get(i), param + "[" + i + "]", errors);
            }
        } else if (value.isObject() && schema.path("properties").isObject()) {
            value.properties()
                    .forEach(entry -> typeErrors(
                            schema.get("properties").path(entry.getKey()),
                            entry.getValue(),
                            param + "." + entry.getKey(),
                            errors));
        }
    }

    private static boolean fits(JsonNode type, JsonNode value) {
        if (type.isArray()) {
            for (JsonNode one : type) {
                if (fits(one, value)) {
                    return true;
                }
            }
            return false;
        }
        return switch (type.asText()) {
            case "string" -> value.isTextual();
            case "integer" ->
                value.isIntegralNumber()
                        || (value.isNumber()
                                && value.decimalValue().stripTrailingZeros().scale() <= 0);
            case "number" -> value.isNumber();
            case "boolean" -> value.isBoolean();
            case "array" -> value.isArray();
            case "object" -> value.isObject();
            case "null" -> value.isNull();
            default -> true;
        };
    }
}
