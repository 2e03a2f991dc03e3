package dev.assay.code;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.Locale;
import java.util.Objects;

/**
 * The result of one test.
 *
 * @param label the test's label ({@code Example 1}, {@code test 2}, {@code check})
 * @param status passed, wrong_answer, timeout, runtime_error or unsupported
 * @param input the arguments, possibly shortened for display; JSON null when not applicable
 * @param expected the expected value, possibly shortened; JSON null when not applicable
 * @param actual what the program returned, possibly shortened; JSON null when it returned nothing
 * @param message the error or the reason; empty when passed
 */
public record CaseResult(
        String label, Status status, JsonNode input, JsonNode expected, JsonNode actual, String message) {
    /** The closed set of per-test statuses; lower-case names are stored. */
    public enum Status {
        PASSED,
        WRONG_ANSWER,
        TIMEOUT,
        RUNTIME_ERROR,
        UNSUPPORTED;

        @JsonValue
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public CaseResult {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(status, "status");
        input = input == null ? NullNode.getInstance() : input;
        expected = expected == null ? NullNode.getInstance() : expected;
        actual = actual == null ? NullNode.getInstance() : actual;
        message = message == null ? "" : message;
    }
}
