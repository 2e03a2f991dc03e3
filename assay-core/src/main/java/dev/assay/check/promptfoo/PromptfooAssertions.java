package dev.assay.check.promptfoo;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
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
            "assert-set");

    /** Types promptfoo has that Assay knows of but cannot judge yet, with why. */
    private static final Map<String, String> WHY_NOT =
            Map.of("cost", "cost not available: Assay does not price model calls yet");

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
            String base = type.startsWith("not-") ? type.substring(4) : type;
            return Optional.of(WHY_NOT.getOrDefault(base, "the assertion type '" + type + "' is not supported by Assay")
                    + " (" + type + ")");
        }
        if (assertion.hasNonNull("transform")) {
            return Optional.of("an assertion's 'transform' is not supported by Assay (" + type + ")");
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
