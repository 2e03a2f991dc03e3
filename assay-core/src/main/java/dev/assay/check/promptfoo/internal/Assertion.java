package dev.assay.check.promptfoo.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.check.promptfoo.PromptfooAssertions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One promptfoo assertion as written in a config, read and validated when the suite loads. Immutable.
 *
 * @param type the type as written, {@code not-} included
 * @param base the type without {@code not-}
 * @param inverse whether the type is a {@code not-} form, which inverts the result (src/assertions/index.ts)
 * @param value the expected value, rendered by the loader; missing when absent
 * @param threshold the threshold; null when absent (each type reads it its own way)
 * @param weight the weight (default 1); 0 makes the assertion pass whatever it finds, as in promptfoo
 * @param metric the named metric the result counts towards; null when absent
 * @param provider the grader a model-graded assertion names; missing when absent
 * @param config the assertion's {@code config}, given to code as {@code context.config}; missing when absent
 * @param children the assertions of an {@code assert-set}; empty for every other type
 * @param written the assertion as written, reported back
 */
record Assertion(
        String type,
        String base,
        boolean inverse,
        JsonNode value,
        Double threshold,
        double weight,
        String metric,
        JsonNode provider,
        JsonNode config,
        List<Assertion> children,
        ObjectNode written) {
    Assertion {
        children = List.copyOf(children);
    }

    /**
     * {@return the assertion read from a check's {@code expected}, {@code {"assertion": {...}}}}
     *
     * @throws AssayException {@link PromptfooAssertions#UNSUPPORTED} naming a type Assay does not judge, or
     *     {@code check.invalid_expected} for a malformed assertion
     */
    static Assertion fromExpected(JsonNode expected) {
        if (expected == null
                || !expected.isObject()
                || !expected.path("assertion").isObject()) {
            throw invalid("expected", "an object {\"assertion\": {\"type\": ..., ...}}", expected);
        }
        for (var names = expected.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!name.equals("assertion")) {
                throw invalid(name, "absent: the check holds only 'assertion'", expected.get(name));
            }
        }
        return read((ObjectNode) expected.get("assertion"), "assertion");
    }

    private static Assertion read(ObjectNode node, String field) {
        JsonNode typeNode = node.path("type");
        if (!typeNode.isTextual() || typeNode.asText().isBlank()) {
            throw invalid(field + ".type", "an assertion type such as \"contains\"", typeNode);
        }
        String type = typeNode.asText();
        var reason = PromptfooAssertions.unsupportedReason(node);
        if (reason.isPresent()) {
            throw new AssayException(Problem.of(PromptfooAssertions.UNSUPPORTED, reason.get())
                    .withDetail("checker", PromptfooCheckerFactory.NAME)
                    .withDetail("field", field)
                    .withDetail("type", type));
        }
        boolean inverse = type.startsWith("not-");
        String base = inverse ? type.substring(4) : type;
        Double threshold = number(node, field, "threshold", null);
        Double weight = number(node, field, "weight", 1.0);
        if (weight < 0) {
            throw invalid(field + ".weight", "a number >= 0", node.get("weight"));
        }
        JsonNode metric = node.path("metric");
        if (!metric.isMissingNode() && !metric.isNull() && !metric.isTextual()) {
            throw invalid(field + ".metric", "a metric name", metric);
        }
        var children = new ArrayList<Assertion>();
        if (base.equals("assert-set")) {
            JsonNode assertions = node.path("assert");
            if (!assertions.isArray() || assertions.isEmpty()) {
                throw invalid(field + ".assert", "a non-empty list of assertions", assertions);
            }
            for (int index = 0; index < assertions.size(); index++) {
                JsonNode child = assertions.get(index);
                if (!child.isObject()) {
                    throw invalid(field + ".assert[" + index + "]", "an assertion object", child);
                }
                children.add(read((ObjectNode) child, field + ".assert[" + index + "]"));
            }
        }
        var assertion = new Assertion(
                type,
                base,
                inverse,
                node.path("value"),
                threshold,
                weight,
                metric.isTextual() ? metric.asText() : null,
                node.path("provider"),
                node.path("config"),
                children,
                node.deepCopy());
        assertion.validate(field);
        return assertion;
    }

    /** The checks promptfoo makes of a value before judging (its invariants), made when the suite loads. */
    private void validate(String field) {
        String valueField = field + ".value";
        switch (base) {
            case "contains", "icontains" -> {
                if (!(value.isTextual() && !value.asText().isEmpty()) && !value.isNumber()) {
                    throw invalid(valueField, "a string or number", value);
                }
            }
            case "contains-any", "contains-all", "icontains-any", "icontains-all" -> {
                if (!hasValue() || !(value.isTextual() || value.isArray())) {
                    throw invalid(valueField, "a list, or a comma-separated string", value);
                }
                if (value.isTextual()
                        && TextAssertions.commaSeparated(value.asText()).isEmpty()) {
                    throw invalid(valueField, "comma-separated values, quotes closed", value);
                }
            }
            case "starts-with", "regex" -> {
                if (!hasValue() || !value.isTextual()) {
                    throw invalid(valueField, "a non-empty string", value);
                }
            }
            case "levenshtein", "model-graded-closedqa", "javascript", "python" -> {
                if (!value.isTextual()) {
                    throw invalid(valueField, "a string", value);
                }
            }
            case "llm-rubric" -> {
                if (!hasValue() || !(value.isTextual() || value.isObject())) {
                    throw invalid(valueField, "a rubric (a string or an object)", value);
                }
            }
            case "is-json", "contains-json" -> {
                if (hasValue() && JsonSchemas.compile(value).isEmpty()) {
                    throw invalid(valueField, "a JSON schema", value);
                }
            }
            case "latency" -> {
                if (threshold == null) {
                    throw invalid(field + ".threshold", "the most milliseconds the answer may take", null);
                }
            }
            case "cost" -> {
                if (threshold == null) {
                    throw invalid(field + ".threshold", "the most US dollars the answer may cost", null);
                }
            }
            default -> {
                // equals takes any value; is-valid-openai-tools-call and assert-set take none.
            }
        }
    }

    /** {@return {@code type} and {@code value} as written, as promptfoo reports an assertion with its result} */
    ObjectNode summary() {
        ObjectNode summary = Json.object();
        summary.put("type", type);
        if (!value.isMissingNode()) {
            summary.set("value", value);
        }
        return summary;
    }

    /** {@return whether a value was given: promptfoo's truthiness of a rendered value (not absent, null or "")} */
    boolean hasValue() {
        return !(value.isMissingNode()
                || value.isNull()
                || (value.isTextual() && value.asText().isEmpty()));
    }

    private static Double number(JsonNode node, String field, String name, Double fallback) {
        JsonNode value = node.path(name);
        if (value.isMissingNode() || value.isNull()) {
            return fallback;
        }
        if (value.isNumber()) {
            return value.asDouble();
        }
        // promptfoo reads a threshold given as text (a CSV column, a rendered template) as a number.
        if (value.isTextual()) {
            try {
                return Double.parseDouble(value.asText().strip());
            } catch (NumberFormatException e) {
                throw invalid(field + "." + name, "a number", value);
            }
        }
        throw invalid(field + "." + name, "a number", value);
    }

    static AssayException invalid(String field, String what, JsonNode got) {
        String shape = got == null || got instanceof MissingNode
                ? "nothing"
                : got.getNodeType().name().toLowerCase(Locale.ROOT);
        return new AssayException(
                Problem.of("check.invalid_expected", "promptfoo: '" + field + "' must be " + what + ", got " + shape)
                        .withDetail("checker", PromptfooCheckerFactory.NAME)
                        .withDetail("field", field)
                        .withDetail("expected", what)
                        .withDetail("got", got == null ? null : got.toString()));
    }
}
