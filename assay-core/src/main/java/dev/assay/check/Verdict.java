package dev.assay.check;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Problem;
import java.util.Locale;

/**
 * A checker's judgement, explaining itself.
 *
 * @param status passed, failed, partial, skipped or error
 * @param score in [0, 1]; 0 for skipped and error
 * @param errorType machine-readable reason when not passed ({@code choice.no_answer}, {@code tool_args.value_error},
 *     {@code check.invalid_expected}...); null when passed
 * @param message one sentence for people; empty when passed
 * @param detail the evidence judged (expected, actual, matched arguments...); JSON null when none
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record Verdict(Status status, double score, String errorType, String message, JsonNode detail) {

    /** The closed set of verdict kinds; the lower-case names are stored. */
    public enum Status {
        PASSED,
        FAILED,
        PARTIAL,
        SKIPPED,
        ERROR;

        @JsonValue
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public Verdict {
        if (Double.isNaN(score) || score < 0 || score > 1) {
            throw new IllegalArgumentException("score must be in [0, 1], got " + score);
        }
        message = message == null ? "" : message;
        detail = detail == null ? NullNode.getInstance() : detail;
    }

    public static Verdict passed(JsonNode detail) {
        return new Verdict(Status.PASSED, 1.0, null, "", detail);
    }

    public static Verdict failed(String errorType, String message, JsonNode detail) {
        return new Verdict(Status.FAILED, 0.0, errorType, message, detail);
    }

    /** Partial credit, e.g. 0.5 for the right tool with wrong arguments. */
    public static Verdict partial(double score, String errorType, String message, JsonNode detail) {
        return new Verdict(Status.PARTIAL, score, errorType, message, detail);
    }

    public static Verdict skipped(String reasonType, String message) {
        return new Verdict(Status.SKIPPED, 0.0, reasonType, message, null);
    }

    public static Verdict error(Problem problem) {
        return new Verdict(Status.ERROR, 0.0, problem.type(), problem.message(), null);
    }

    /**
     * {@return the verdict as it is stored and reported: status, score, error_type, message, detail} The node Jackson
     * would make of the record, built field by field: every check of every case makes one, and Jackson's conversion
     * went through a buffer of tokens. The detail is the verdict's own node, not a copy.
     */
    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("status", status.wireName());
        json.put("score", score);
        json.put("error_type", errorType);
        json.put("message", message);
        json.set("detail", detail);
        return json;
    }

    /** {@return passed or failed by a condition, with the same evidence either way} */
    public static Verdict of(boolean passed, String errorType, String message, JsonNode detail) {
        return passed ? passed(detail) : failed(errorType, message, detail);
    }
}
