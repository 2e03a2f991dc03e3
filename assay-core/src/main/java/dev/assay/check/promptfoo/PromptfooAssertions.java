package dev.assay.check.promptfoo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.check.promptfoo.internal.TextAssertions;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which promptfoo assertion types the {@code promptfoo} checker judges, for a config loader that must mark a test whose
 * assertions Assay cannot judge as skipped (with {@link #unsupportedReason}) rather than fail its whole load.
 * Stateless, thread-safe.
 */
public final class PromptfooAssertions {
    /** The problem type of a check whose assertion Assay does not judge; its message names the type. */
    public static final String UNSUPPORTED = "promptfoo.unsupported_assertion";

    /** The base types judged, each with its {@code not-} form except {@code assert-set}. */
    static final Set<String> SUPPORTED = Set.of(
            "equals",
            "contains",
            "icontains",
            "contains-any",
            "contains-all",
            "icontains-any",
            "icontains-all",
            "starts-with",
            "regex",
            "is-json",
            "contains-json",
            "is-valid-openai-tools-call",
            "javascript",
            "python",
            "levenshtein",
            "llm-rubric",
            "model-graded-closedqa",
            "latency",
            "cost",
            "assert-set");

    /**
     * The keys of an assertion Assay honours; the others ({@code transform}, a grader {@code provider},
     * {@code rubricPrompt}, {@code contextTransform}...) would change its verdict, so its test is skipped, naming it.
     */
    private static final Set<String> HONOURED_KEYS =
            Set.of("type", "value", "threshold", "weight", "metric", "config", "assert");

    private PromptfooAssertions() {}

    /**
     * {@return whether the checker judges assertions of this type}: a supported base type, or its {@code not-} form
     * ({@code not-assert-set} is no type in promptfoo either)
     */
    public static boolean supports(String type) {
        if (type == null) {
            return false;
        }
        if (type.startsWith("not-")) {
            String base = type.substring(4);
            return SUPPORTED.contains(base) && !base.equals("assert-set");
        }
        return SUPPORTED.contains(type);
    }

    /**
     * {@return a list written as text ({@code a, "b, c"}) split as promptfoo splits it, quoted fields unquoted}; empty
     * when a quote is not closed, for a loader that writes the list as promptfoo's config reader does
     */
    public static Optional<List<String>> commaSeparated(String value) {
        return TextAssertions.commaSeparated(value);
    }

    /**
     * {@return why the checker cannot judge this assertion, or empty when it can}: an unsupported type (its own or one
     * inside an {@code assert-set}), or a form of a supported type Assay does not run (a {@code file://} script, a
     * {@code transform}); the reason names the type
     */
    public static Optional<String> unsupportedReason(JsonNode assertion) {
        if (assertion == null || !assertion.isObject()) {
            return Optional.empty();
        }
        String type = assertion.path("type").asText("");
        if (!supports(type)) {
            return Optional.of("the assertion type '" + type + "' is not supported by Assay (" + type + ")");
        }
        for (var fields = assertion.fieldNames(); fields.hasNext(); ) {
            String field = fields.next();
            if (!HONOURED_KEYS.contains(field)) {
                return Optional.of("an assertion's '" + field + "' is not supported by Assay (" + type + ")");
            }
        }
        if (assertion.path("value").asText("").startsWith("file://")) {
            return Optional.of("a file:// value is not supported by Assay (" + type + ")");
        }
        if (type.equals("assert-set")) {
            return nestedReason(assertion);
        }
        return Optional.empty();
    }

    private static Optional<String> nestedReason(JsonNode set) {
        for (JsonNode child : set.path("assert")) {
            if (child.path("type").asText("").equals("assert-set")) {
                // promptfoo opens one level of sets; a set inside one is an unknown type to its runAssertion.
                return Optional.of("an assert-set inside an assert-set is not run by promptfoo either (assert-set)");
            }
            Optional<String> reason = unsupportedReason(child);
            if (reason.isPresent()) {
                return reason;
            }
        }
        return Optional.empty();
    }
}
