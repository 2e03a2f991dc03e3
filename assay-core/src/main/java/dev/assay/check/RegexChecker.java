package dev.assay.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.tools.DeadlineText;
import java.time.Duration;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code regex}: a Java regular expression is searched for ({@link Matcher#find()}) in the final answer.
 * Expected: {@code "pattern"} or {@code {"pattern": "..."}}. Default flags as in the reference: case-sensitive,
 * {@code .} does not match a newline, {@code ^}/{@code $} anchor the whole answer; case files opt in with inline
 * flags {@code (?i)}, {@code (?s)}, {@code (?m)}. The answer is trimmed, so Java's {@code $} (which also matches
 * before a final line break) behaves like the reference's. A pattern that does not compile is rejected at load
 * time. A search that runs longer than {@link #TIME_LIMIT} (catastrophic backtracking on a long answer) fails with
 * {@code regex.timeout} instead of stalling the run, one that overflows the stack with {@code regex.too_complex}.
 *
 * @param pattern the compiled pattern
 */
record RegexChecker(Pattern pattern) implements Checker {
    static final CheckerFactory FACTORY = new BuiltinFactory("regex", RegexChecker::create);
    static final Duration TIME_LIMIT = Duration.ofSeconds(2);

    static RegexChecker create(JsonNode node) {
        var expected = Expected.of("regex", node);
        JsonNode source = node;
        if (expected.isObject()) {
            expected.onlyKeys(Set.of("pattern"));
            source = expected.requiredField("pattern");
        }
        String text = expected.text("pattern", source);
        try {
            return new RegexChecker(Pattern.compile(text));
        } catch (PatternSyntaxException e) {
            throw expected.invalid("pattern", "a valid Java regular expression (" + e.getDescription()
                    + " near index " + e.getIndex() + ")", source);
        }
    }

    @Override
    public Verdict check(CheckContext context) {
        String actual = context.finalAnswer() == null ? "" : context.finalAnswer().strip();
        ObjectNode detail = Json.object();
        detail.put("pattern", pattern.pattern());
        detail.put("actual", actual);
        try {
            Matcher matcher = pattern.matcher(DeadlineText.of(actual, TIME_LIMIT));
            boolean found = matcher.find();
            detail.put("match", found ? matcher.group() : null);
            return Verdict.of(found, "regex.no_match", "the pattern does not occur in the answer", detail);
        } catch (DeadlineText.Exceeded e) {
            return Verdict.failed("regex.timeout",
                    "the pattern took longer than " + TIME_LIMIT.toSeconds() + " s on this answer", detail);
        } catch (StackOverflowError e) {
            // java.util.regex recurses per repetition; a long answer under a pattern like (a|b)* can exhaust the stack.
            return Verdict.failed("regex.too_complex", "the pattern is too deeply recursive for this answer", detail);
        }
    }
}
