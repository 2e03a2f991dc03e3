package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.check.CheckContext;
import dev.assay.check.Checker;
import dev.assay.check.CheckerFactory;
import dev.assay.check.Verdict;
import java.util.List;
import java.util.Set;

/**
 * {@code exact}: the final answer, trimmed, equals the expected text, trimmed, after {@link TextMatching} (NFC, CRLF as
 * LF; optionally case-insensitive and whitespace-folded). Expected: {@code "text"} or {@code {"answer": "text",
 * "ignore_case": false, "fold_whitespace": false}} ({@code text} is accepted for {@code answer}).
 *
 * @param expected the expected text as written
 * @param matching how both sides are normalised
 */
record ExactChecker(String expected, TextMatching matching) implements Checker {
    static final CheckerFactory FACTORY = new BuiltinFactory("exact", ExactChecker::create);

    static ExactChecker create(JsonNode node) {
        var expected = Expected.of("exact", node);
        if (expected.isObject()) {
            expected.onlyKeys(Set.of("answer", "text", "ignore_case", "fold_whitespace"));
            JsonNode answer = expected.requiredField("answer", "text");
            return new ExactChecker(expected.text("answer", answer), TextMatching.from(expected));
        }
        return new ExactChecker(expected.text("expected", node), TextMatching.STRICT);
    }

    @Override
    public Verdict check(CheckContext context) {
        String normalizedExpected = matching.normalize(expected).strip();
        List<String> readings = context.answerReadings();
        // The cleaned answer is reported unless the reading with its label kept is the one that matches.
        String actual = readings.stream()
                .filter(reading -> matching.normalize(reading).strip().equals(normalizedExpected))
                .findFirst()
                .orElse(readings.getFirst());
        String normalizedActual = matching.normalize(actual).strip();
        ObjectNode detail = Json.object();
        detail.put("expected", expected);
        detail.put("actual", actual);
        detail.put("normalized_expected", normalizedExpected);
        detail.put("normalized_actual", normalizedActual);
        return Verdict.of(
                normalizedActual.equals(normalizedExpected),
                "exact.mismatch",
                "the answer differs from the expected text",
                detail);
    }
}
