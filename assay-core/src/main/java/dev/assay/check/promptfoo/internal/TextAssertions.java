package dev.assay.check.promptfoo.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import dev.assay.check.promptfoo.internal.Judged.Grading;
import dev.assay.tools.internal.DeadlineText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The assertions promptfoo judges from the output's text alone, each as its handler in promptfoo 0.121.20 does
 * (src/assertions/contains.ts, equals.ts, startsWith.ts, regex.ts, levenshtein.ts, json.ts): the same comparison, the
 * same {@code not-} inversion, the same reason. Stateless, thread-safe.
 */
public final class TextAssertions {
    private static final Duration REGEX_TIME_LIMIT = Duration.ofSeconds(2);
    private static final Pattern QUANTIFIER = Pattern.compile("\\{\\d+(,\\d*)?}");

    private TextAssertions() {}

    /** {@return the result of a text assertion on {@code output}} */
    static Grading grade(Assertion assertion, String output) {
        boolean inverse = assertion.inverse();
        String not = inverse ? "not " : "";
        JsonNode value = assertion.value();
        return switch (assertion.base()) {
            case "equals" -> equals(assertion, output);
            case "contains", "icontains" -> {
                UnaryOperator<String> fold = folding(assertion.base().startsWith("i"));
                String expected = JsValues.string(value);
                boolean pass = fold.apply(output).contains(fold.apply(expected)) != inverse;
                yield Grading.of(pass, "Expected output to " + not + "contain \"" + expected + "\"", assertion);
            }
            case "contains-any", "icontains-any" -> {
                UnaryOperator<String> fold = folding(assertion.base().startsWith("i"));
                List<String> expected = list(value);
                String folded = fold.apply(output);
                boolean pass = expected.stream().anyMatch(item -> folded.contains(fold.apply(item))) != inverse;
                yield Grading.of(
                        pass,
                        "Expected output to " + not + "contain one of \"" + String.join(", ", expected) + "\"",
                        assertion);
            }
            case "contains-all", "icontains-all" -> {
                UnaryOperator<String> fold = folding(assertion.base().startsWith("i"));
                List<String> expected = list(value);
                String folded = fold.apply(output);
                List<String> missing = expected.stream()
                        .filter(item -> !folded.contains(fold.apply(item)))
                        .toList();
                boolean pass = missing.isEmpty() != inverse;
                yield Grading.of(
                        pass,
                        "Expected output to " + not + "contain all of [" + String.join(", ", expected) + "]. Missing: ["
                                + String.join(", ", missing) + "]",
                        assertion);
            }
            case "starts-with" -> {
                boolean pass = output.startsWith(value.asText()) != inverse;
                yield Grading.of(
                        pass, "Expected output to " + not + "start with \"" + value.asText() + "\"", assertion);
            }
            case "regex" -> regex(assertion, output);
            case "levenshtein" -> {
                int distance = levenshtein(output, value.asText());
                double threshold = assertion.threshold() == null ? 5 : assertion.threshold();
                boolean pass = distance <= threshold != inverse;
                yield Grading.of(
                        pass,
                        "Levenshtein distance " + distance + " is "
                                + (inverse ? "less than or equal to" : "greater than") + " threshold "
                                + JsValues.number(threshold),
                        assertion);
            }
            case "is-json" -> isJson(assertion, output);
            case "contains-json" -> containsJson(assertion, output);
            default -> throw new IllegalArgumentException("not a text assertion: " + assertion.type());
        };
    }

    /** {@code equals}: an object value is compared with the output parsed as JSON, anything else as text. */
    private static Grading equals(Assertion assertion, String output) {
        JsonNode value = assertion.value();
        boolean inverse = assertion.inverse();
        boolean pass;
        String expected;
        // typeof null and of an array is "object" too.
        if (value.isObject() || value.isArray() || value.isNull()) {
            pass = JsValues.parse(output)
                    .map(parsed -> JsValues.deepEqual(value, parsed) != inverse)
                    .orElse(inverse);
            expected = value.toString();
        } else {
            expected = JsValues.string(value);
            pass = expected.equals(output) != inverse;
        }
        return Grading.of(
                pass,
                "Expected output \"" + output + "\" to " + (inverse ? "not " : "") + "equal \"" + expected + "\"",
                assertion);
    }

    private static Grading regex(Assertion assertion, String output) {
        Pattern pattern;
        try {
            pattern = Pattern.compile(javaRegex(assertion.value().asText()));
        } catch (PatternSyntaxException e) {
            return Grading.of(false, "Invalid regex pattern: " + e.getDescription(), assertion);
        }
        boolean found;
        try {
            found = pattern.matcher(DeadlineText.of(output, REGEX_TIME_LIMIT)).find();
        } catch (DeadlineText.Exceeded e) {
            // The output is the model's: a pattern that backtracks without end on it fails rather than stall the run.
            return Grading.of(false, "The regex took longer than 2 s on this output", assertion);
        } catch (StackOverflowError e) {
            return Grading.of(false, "The regex is too deeply recursive for this output", assertion);
        }
        boolean pass = found != assertion.inverse();
        return Grading.of(
                pass,
                "Expected output to " + (assertion.inverse() ? "not " : "") + "match regex \""
                        + assertion.value().asText() + "\"",
                assertion);
    }

    private static Grading isJson(Assertion assertion, String output) {
        boolean inverse = assertion.inverse();
        Optional<JsonNode> parsed = JsValues.parse(output);
        boolean pass = parsed.isPresent() != inverse;
        if (parsed.isPresent() && assertion.hasValue()) {
            Schema schema = schema(assertion);
            List<Error> errors = schema.validate(parsed.get());
            boolean valid = errors.isEmpty();
            pass = valid != inverse;
            if (!pass) {
                return Grading.of(
                        false,
                        inverse
                                ? "Output is JSON that conforms to the provided schema"
                                : "JSON does not conform to the provided schema. Errors: "
                                        + JsonSchemas.errorsText(errors),
                        assertion);
            }
        }
        return Grading.of(pass, "Expected output to be valid JSON", assertion);
    }

    private static Grading containsJson(Assertion assertion, String output) {
        boolean inverse = assertion.inverse();
        String failure = "Expected output to contain valid JSON";
        List<JsonNode> objects = JsValues.objectsIn(output);
        boolean pass = inverse ? objects.isEmpty() : !objects.isEmpty();
        if (assertion.hasValue()) {
            Schema schema = schema(assertion);
            for (JsonNode object : objects) {
                List<Error> errors = schema.validate(object);
                boolean valid = errors.isEmpty();
                pass = valid != inverse;
                if (valid) {
                    if (inverse) {
                        failure = "Output contains JSON conforming to the provided schema";
                    }
                    break;
                }
                failure = "JSON does not conform to the provided schema. Errors: " + JsonSchemas.errorsText(errors);
            }
        }
        return Grading.of(pass, failure, assertion);
    }

    private static Schema schema(Assertion assertion) {
        return JsonSchemas.compile(assertion.value())
                .orElseThrow(() -> new IllegalStateException("validated when the suite loaded"));
    }

    private static UnaryOperator<String> folding(boolean ignoreCase) {
        return ignoreCase ? text -> text.toLowerCase(Locale.ROOT) : UnaryOperator.identity();
    }

    /** {@return the items of a list value, or of a comma-separated one, each as {@code String(item)}} */
    private static List<String> list(JsonNode value) {
        if (value.isTextual()) {
            return commaSeparated(value.asText()).orElseThrow();
        }
        var items = new ArrayList<String>();
        value.forEach(item -> items.add(JsValues.string(item)));
        return items;
    }

    /**
     * {@return the fields of a comma-separated value as promptfoo's parseCommaSeparatedValues splits it}: fields
     * trimmed, empty ones between repeated commas dropped, a field in double quotes kept whole with {@code \"},
     * {@code \\} and {@code ""} unescaped; empty when a quote is not closed or a quoted field is not followed by a
     * comma
     */
    public static Optional<List<String>> commaSeparated(String value) {
        var fields = new ArrayList<String>();
        int i = 0;
        int length = value.length();
        while (i < length) {
            while (i < length && (Character.isWhitespace(value.charAt(i)) || value.charAt(i) == ',')) {
                i++;
            }
            if (i >= length) {
                break;
            }
            if (value.charAt(i) == '"') {
                var field = new StringBuilder();
                boolean closed = false;
                i++;
                while (i < length) {
                    char c = value.charAt(i);
                    if (c == '\\' && i + 1 < length && (value.charAt(i + 1) == '"' || value.charAt(i + 1) == '\\')) {
                        field.append(value.charAt(i + 1));
                        i += 2;
                    } else if (c == '"' && i + 1 < length && value.charAt(i + 1) == '"') {
                        field.append('"');
                        i += 2;
                    } else if (c == '"') {
                        i++;
                        closed = true;
                        break;
                    } else {
                        field.append(c);
                        i++;
                    }
                }
                if (!closed) {
                    return Optional.empty();
                }
                fields.add(field.toString());
                while (i < length && Character.isWhitespace(value.charAt(i))) {
                    i++;
                }
                if (i < length && value.charAt(i) != ',') {
                    return Optional.empty();
                }
            } else {
                int start = i;
                while (i < length && value.charAt(i) != ',') {
                    i++;
                }
                fields.add(value.substring(start, i).strip());
            }
        }
        return Optional.of(fields);
    }

    /**
     * {@return a JavaScript regular expression (no flags, as promptfoo builds it) as a Java one}: {@code $} outside a
     * character class means the end of the text only, as in JavaScript (Java's also matches before a final line break),
     * and a brace that opens no quantifier is a literal brace, as JavaScript reads it
     */
    static String javaRegex(String js) {
        var java = new StringBuilder(js.length() + 8);
        boolean inClass = false;
        for (int i = 0; i < js.length(); i++) {
            char c = js.charAt(i);
            if (c == '\\' && i + 1 < js.length()) {
                java.append(c).append(js.charAt(++i));
            } else if (inClass) {
                if (c == ']') {
                    inClass = false;
                } else if (c == '[') {
                    // A '[' inside a JavaScript class is a literal; in Java it would open a nested class.
                    java.append('\\');
                }
                java.append(c);
            } else if (js.startsWith("[]", i)) {
                // JavaScript's "[]" matches nothing and "[^]" anything; Java reads a leading ']' as a literal.
                java.append("(?!)");
                i++;
            } else if (js.startsWith("[^]", i)) {
                java.append("[\\s\\S]");
                i += 2;
            } else if (c == '[') {
                inClass = true;
                java.append(c);
            } else if (c == '$') {
                java.append("\\z");
            } else if (c == '{'
                    && !QUANTIFIER.matcher(js).region(i, js.length()).lookingAt()) {
                java.append("\\{");
            } else {
                java.append(c);
            }
        }
        return java.toString();
    }

    /** {@return the edit distance between two texts, counted in UTF-16 units as fastest-levenshtein counts} */
    static int levenshtein(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
