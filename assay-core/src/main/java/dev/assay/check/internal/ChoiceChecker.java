package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.check.CheckContext;
import dev.assay.check.Checker;
import dev.assay.check.CheckerFactory;
import dev.assay.check.Verdict;
import java.text.Normalizer;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code choice}: the letter the model chose (found by {@link ChoiceAnswer}) must be one of the accepted letters.
 * Expected: {@code "B"}, {@code ["B", "C"]}, or {@code {"answer": "B" | [...], "letters": "ABCDE"}} where
 * {@code letters} lists the options (default {@code ABCD}). The letter is read from the model's last text as written
 * (the transcript's raw final text, else the cleaned final answer), because the answer label is evidence. Under the
 * run's {@code --scoring reference} a short line is read as the reference server reads it (docs/checkers.md, C9).
 *
 * @param accepted the accepted letters, upper case
 * @param answers the extractor for the case's option letters
 */
record ChoiceChecker(List<String> accepted, ChoiceAnswer answers) implements Checker {
    static final CheckerFactory FACTORY = new BuiltinFactory("choice", ChoiceChecker::create);

    static ChoiceChecker create(JsonNode node) {
        var expected = Expected.of("choice", node);
        JsonNode answer = node;
        String letters = ChoiceAnswer.DEFAULT_LETTERS;
        if (expected.isObject()) {
            expected.onlyKeys(Set.of("answer", "letters"));
            answer = expected.requiredField("answer");
            JsonNode given = expected.field("letters");
            if (given != null) {
                letters = expected.text("letters", given).toUpperCase(Locale.ROOT);
                if (!letters.matches("[A-Z]+") || letters.chars().distinct().count() != letters.length()) {
                    throw expected.invalid("letters", "distinct letters A-Z such as \"ABCDE\"", given);
                }
            }
        }
        // The answer is named as the case gives it: {"answer": ...} or the expectation itself.
        String answerField = expected.isObject() ? "answer" : "expected";
        var accepted = expected.texts(answerField, answer).stream()
                .map(letter -> Normalizer.normalize(letter, Normalizer.Form.NFKC)
                        .strip()
                        .toUpperCase(Locale.ROOT))
                .toList();
        for (String letter : accepted) {
            if (letter.length() != 1 || letters.indexOf(letter.charAt(0)) < 0) {
                throw expected.invalid(answerField, "one letter of " + letters + " or a list of them", answer);
            }
        }
        return new ChoiceChecker(accepted, new ChoiceAnswer(letters));
    }

    @Override
    public Verdict check(CheckContext context) {
        // The raw text keeps its answer label ("The answer is B because..."), which the normaliser reads; the cleaned
        // final answer has lost it. The normaliser strips tool calls and thinking itself.
        String raw = context.transcript().rawFinalText();
        String actual = (raw.isBlank() ? context.finalAnswer() == null ? "" : context.finalAnswer() : raw).strip();
        var extraction = answers.extract(actual, context.scoring());
        ObjectNode detail = Json.object();
        detail.set("expected", Json.strings(accepted));
        detail.put("actual", actual);
        detail.put("normalized", extraction.map(ChoiceAnswer.Extraction::letter).orElse(null));
        detail.put("rule", extraction.map(ChoiceAnswer.Extraction::rule).orElse(null));
        if (extraction.isEmpty()) {
            return Verdict.failed("choice.no_answer", "no single option letter found in the answer", detail);
        }
        String letter = extraction.get().letter();
        return Verdict.of(
                accepted.contains(letter),
                "choice.wrong_answer",
                "chose " + letter + ", expected " + String.join(" or ", accepted),
                detail);
    }
}
