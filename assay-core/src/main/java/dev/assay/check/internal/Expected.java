package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.assay.AssayException;
import dev.assay.Problem;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A checker's {@code expected} value being read by its factory. Every shape error becomes an {@link AssayException}
 * with type {@code check.invalid_expected} whose details name the checker, the field and what was expected, so a bad
 * case file fails when the suite loads, before any model is called.
 */
final class Expected {
    static final String INVALID = "check.invalid_expected";

    private final String checker;
    private final JsonNode node;

    private Expected(String checker, JsonNode node) {
        this.checker = checker;
        this.node = node;
    }

    static Expected of(String checker, JsonNode node) {
        return new Expected(checker, node == null ? NullNode.getInstance() : node);
    }

    JsonNode node() {
        return node;
    }

    boolean isObject() {
        return node.isObject();
    }

    /** Refuses keys outside {@code known}, so a misspelt option is reported rather than silently ignored. */
    Expected onlyKeys(Set<String> known) {
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!known.contains(name)) {
                throw invalid(name, "one of " + known.stream().sorted().toList(), node.get(name));
            }
        }
        return this;
    }

    /** {@return the first of {@code names} present in the object form, or null} */
    JsonNode field(String... names) {
        for (String name : names) {
            JsonNode value = node.get(name);
            if (value != null && !value.isNull()) {
                return value;
            }
        }
        return null;
    }

    JsonNode requiredField(String... names) {
        JsonNode value = field(names);
        if (value == null) {
            throw invalid(names[0], "a value for '" + String.join("' or '", names) + "'", null);
        }
        return value;
    }

    /** {@return a non-empty string} */
    String text(String field, JsonNode value) {
        if (value == null || !value.isTextual() || value.asText().isEmpty()) {
            throw invalid(field, "a non-empty string", value);
        }
        return value.asText();
    }

    /** {@return a string or a non-empty list of strings, as a list} */
    List<String> texts(String field, JsonNode value) {
        if (value != null && value.isArray() && !value.isEmpty()) {
            var result = new ArrayList<String>();
            for (JsonNode element : value) {
                result.add(text(field + "[]", element));
            }
            return List.copyOf(result);
        }
        if (value != null && value.isTextual() && !value.asText().isEmpty()) {
            return List.of(value.asText());
        }
        throw invalid(field, "a non-empty string or a non-empty list of strings", value);
    }

    boolean flag(String field, boolean defaultValue) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return defaultValue;
        }
        if (!value.isBoolean()) {
            throw invalid(field, "true or false", value);
        }
        return value.asBoolean();
    }

    /** {@return the string option {@code field}, one of {@code allowed}, or the default} */
    String choice(String field, List<String> allowed, String defaultValue) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return defaultValue;
        }
        if (!value.isTextual() || !allowed.contains(value.asText())) {
            throw invalid(field, "one of " + allowed, value);
        }
        return value.asText();
    }

    AssayException invalid(String field, String what, JsonNode got) {
        String shape = got == null ? "nothing" : got.getNodeType().name().toLowerCase(Locale.ROOT);
        var problem = Problem.of(INVALID, checker + ": '" + field + "' must be " + what + ", got " + shape)
                .withDetail("checker", checker)
                .withDetail("field", field)
                .withDetail("expected", what)
                .withDetail("got", got == null ? null : got.toString());
        return new AssayException(problem);
    }

    AssayException invalid(String what) {
        return invalid("expected", what, node);
    }
}
