package dev.assay.check;

import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * How answer text and expected text are made comparable by {@code exact}, {@code contains} and
 * {@code file_contains}. Always: Unicode NFC (so a precomposed "é" equals "e" plus a combining accent) and line
 * endings CRLF/CR read as LF. Optionally: case-insensitive (Unicode lower case, locale-independent) and
 * whitespace folding (every run of whitespace becomes one space).
 *
 * @param ignoreCase     compare without regard to case; default false
 * @param foldWhitespace treat every run of whitespace as a single space; default false
 */
record TextMatching(boolean ignoreCase, boolean foldWhitespace) {
    static final TextMatching STRICT = new TextMatching(false, false);
    private static final Pattern LINE_BREAK = Pattern.compile("\r\n?");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+", Pattern.UNICODE_CHARACTER_CLASS);

    /** Reads the options {@code ignore_case} and {@code fold_whitespace} of an object-form expectation. */
    static TextMatching from(Expected expected) {
        if (!expected.isObject()) {
            return STRICT;
        }
        return new TextMatching(expected.flag("ignore_case", false), expected.flag("fold_whitespace", false));
    }

    String normalize(String text) {
        String result = Normalizer.normalize(text == null ? "" : text, Normalizer.Form.NFC);
        result = LINE_BREAK.matcher(result).replaceAll("\n");
        if (foldWhitespace) {
            result = WHITESPACE.matcher(result).replaceAll(" ");
        }
        return ignoreCase ? result.toLowerCase(Locale.ROOT) : result;
    }
}
