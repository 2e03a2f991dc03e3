package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.check.CheckContext;
import dev.assay.check.Checker;
import dev.assay.check.CheckerFactory;
import dev.assay.check.Verdict;
import java.util.List;
import java.util.Set;

/**
 * {@code contains}: the final answer contains every expected fragment. Expected: {@code "text"}, {@code ["a", "b"]}
 * (all required), or {@code {"text": "a" | [...], "ignore_case": false, "fold_whitespace": false}}; see
 * {@link TextMatching}.
 *
 * @param fragments the fragments, all required
 * @param matching how answer and fragments are normalised
 */
record ContainsChecker(List<String> fragments, TextMatching matching) implements Checker {
    static final CheckerFactory FACTORY = new BuiltinFactory("contains", ContainsChecker::create);

    ContainsChecker {
        fragments = List.copyOf(fragments);
    }

    static ContainsChecker create(JsonNode node) {
        var expected = Expected.of("contains", node);
        if (expected.isObject()) {
            expected.onlyKeys(Set.of("text", "contains", "ignore_case", "fold_whitespace"));
            JsonNode text = expected.requiredField("text", "contains");
            return new ContainsChecker(expected.texts("text", text), TextMatching.from(expected));
        }
        return new ContainsChecker(expected.texts("expected", node), TextMatching.STRICT);
    }

    @Override
    public Verdict check(CheckContext context) {
        // All fragments must occur in one reading; the cleaned answer is reported unless the labelled one passes.
        List<String> readings = context.answerReadings();
        String actual = readings.stream()
                .filter(reading ->
                        missingFragments(fragments, reading, matching).isEmpty())
                .findFirst()
                .orElse(readings.getFirst());
        List<String> missing = missingFragments(fragments, actual, matching);
        ObjectNode detail = Json.object();
        detail.set("expected", Json.strings(fragments));
        detail.set("missing", Json.strings(missing));
        detail.put("actual", actual);
        detail.set("spans", spans(fragments, actual, matching));
        return Verdict.of(
                missing.isEmpty(),
                "contains.missing",
                missing.size() + " of " + fragments.size() + " expected fragments not found in the answer",
                detail);
    }

    /**
     * {@return {@code [{fragment, start, end}]}: where each found fragment occurs in {@code text} as written (UTF-16
     * offsets), for the page to mark; a fragment found only after normalisation (NFC) has no span}
     */
    static ArrayNode spans(List<String> fragments, String text, TextMatching matching) {
        ArrayNode spans = Json.MAPPER.createArrayNode();
        for (String fragment : fragments) {
            matching.span(text, fragment)
                    .ifPresent(span -> spans.addObject()
                            .put("fragment", fragment)
                            .put("start", span[0])
                            .put("end", span[1]));
        }
        return spans;
    }

    /** {@return the fragments not found in {@code text}, in their given order} */
    static List<String> missingFragments(List<String> fragments, String text, TextMatching matching) {
        String haystack = matching.normalize(text);
        return fragments.stream()
                .filter(fragment -> !haystack.contains(matching.normalize(fragment)))
                .toList();
    }
}
