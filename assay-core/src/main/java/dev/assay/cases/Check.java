package dev.assay.cases;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.Objects;

/**
 * One check of a case, as written in a case file: which checker judges and what it expects.
 *
 * @param checker the checker's registered name ({@code choice}, {@code exact}, {@code tool_args}...)
 * @param expected the checker-specific expectation; its shape is documented per checker; JSON null when absent
 * @param weight this check's share of the case score (weighted mean over the case's checks); default 1, never negative
 */
public record Check(String checker, JsonNode expected, double weight) {
    public Check {
        Objects.requireNonNull(checker, "checker");
        expected = expected == null ? NullNode.getInstance() : expected;
        if (weight < 0 || Double.isNaN(weight)) {
            throw new IllegalArgumentException("check weight must be >= 0, got " + weight);
        }
    }

    public static Check of(String checker, JsonNode expected) {
        return new Check(checker, expected, 1.0);
    }

    public Check withExpected(JsonNode newExpected) {
        return new Check(checker, newExpected, weight);
    }
}
