package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.check.CheckContext;
import dev.assay.check.Checker;
import dev.assay.check.CheckerFactory;
import dev.assay.check.Verdict;
import dev.assay.tools.internal.DeadlineText;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code regex}: a Java regular expression is searched for ({@link Matcher#find()}) in the final answer. Expected:
 * {@code "pattern"} or {@code {"pattern": "...", "on_invalid": "reject" | "fail"}}. Default flags as in the reference:
 * case-sensitive, {@code .} does not match a newline, {@code ^}/{@code $} anchor the whole answer; case files opt in
 * with inline flags {@code (?i)}, {@code (?s)}, {@code (?m)}. Character classes, {@code \b} and {@code (?i)} are
 * Unicode-aware, as in the reference's Rust {@code regex} ({@code ^\w+$} matches {@code 标题}, {@code (?i)^ÉTÉ$} matches
 * {@code été}). The answer is trimmed, so Java's {@code $} (which also matches before a final line break) behaves like
 * the reference's; the answer with its leading label kept is searched too ({@link CheckContext#answerReadings()}). A
 * pattern that does not compile is rejected at load time, or with {@code on_invalid: fail} (the reference's behaviour,
 * used for cases in its shape) fails the case with {@code regex.invalid_pattern}. A search that runs longer than
 * {@link #TIME_LIMIT} (catastrophic backtracking on a long answer) fails with {@code regex.timeout} instead of stalling
 * the run, one that overflows the stack with {@code regex.too_complex}.
 *
 * @param source the pattern as written
 * @param pattern the compiled pattern, or null when it does not compile ({@code on_invalid: fail})
 * @param invalid why the pattern does not compile, or null
 */
record RegexChecker(String source, Pattern pattern, String invalid) implements Checker {
    static final CheckerFactory FACTORY = new BuiltinFactory("regex", RegexChecker::create);
    static final Duration TIME_LIMIT = Duration.ofSeconds(2);
    /** Java's classes are ASCII by default; these flags give Rust {@code regex}'s Unicode classes and case folding. */
    private static final int UNICODE = Pattern.UNICODE_CHARACTER_CLASS | Pattern.UNICODE_CASE;

    static RegexChecker create(JsonNode node) {
        var expected = Expected.of("regex", node);
        JsonNode source = node;
        boolean failOnInvalid = false;
        if (expected.isObject()) {
            expected.onlyKeys(Set.of("pattern", "on_invalid"));
            source = expected.requiredField("pattern");
            failOnInvalid = expected.choice("on_invalid", List.of("reject", "fail"), "reject")
                    .equals("fail");
        }
        String text = expected.text("pattern", source);
        try {
            return new RegexChecker(text, Pattern.compile(text, UNICODE), null);
        } catch (PatternSyntaxException e) {
            String reason = e.getDescription() + " near index " + e.getIndex();
            if (failOnInvalid) {
                return new RegexChecker(text, null, reason);
            }
            throw expected.invalid("pattern", "a valid Java regular expression (" + reason + ")", source);
        }
    }

    @Override
    public Verdict check(CheckContext context) {
        List<String> readings =
                context.answerReadings().stream().map(String::strip).toList();
        ObjectNode detail = Json.object();
        detail.put("pattern", source);
        detail.put("actual", readings.getFirst());
        detail.put("valid", pattern != null);
        if (pattern == null) {
            detail.put("error", invalid);
            return Verdict.failed("regex.invalid_pattern", "the pattern does not compile: " + invalid, detail);
        }
        try {
            for (String reading : readings) {
                Matcher matcher = pattern.matcher(DeadlineText.of(reading, TIME_LIMIT));
                if (matcher.find()) {
                    detail.put("actual", reading);
                    detail.put("match", matcher.group());
                    detail.put("match_start", matcher.start());
                    detail.put("match_end", matcher.end());
                    return Verdict.passed(detail);
                }
            }
            detail.putNull("match");
            return Verdict.failed("regex.no_match", "the pattern does not occur in the answer", detail);
        } catch (DeadlineText.Exceeded e) {
            return Verdict.failed(
                    "regex.timeout",
                    "the pattern took longer than " + TIME_LIMIT.toSeconds() + " s on this answer",
                    detail);
        } catch (StackOverflowError e) {
            // java.util.regex recurses per repetition; a long answer under a pattern like (a|b)* can exhaust the stack.
            return Verdict.failed("regex.too_complex", "the pattern is too deeply recursive for this answer", detail);
        }
    }
}
