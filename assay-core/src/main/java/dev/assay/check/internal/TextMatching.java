package dev.assay.check.internal;

import java.text.Normalizer;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * How answer text and expected text are made comparable by {@code exact}, {@code contains} and {@code file_contains}.
 * Always: Unicode NFC (so a precomposed "é" equals "e" plus a combining accent) and line endings CRLF/CR read as LF.
 * Optionally: case-insensitive (Unicode lower case, locale-independent) and whitespace folding (every run of whitespace
 * becomes one space).
 *
 * @param ignoreCase compare without regard to case; default false
 * @param foldWhitespace treat every run of whitespace as a single space; default false
 */
record TextMatching(boolean ignoreCase, boolean foldWhitespace) {
    static final TextMatching STRICT = new TextMatching(false, false);
    private static final Pattern LINE_BREAK = Pattern.compile("\r\n?");
    private static final Pattern LINE_FEED = Pattern.compile("\n");
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

    /**
     * {@return where {@code fragment} first occurs in {@code text} as written, as {@code [start, end)} UTF-16 offsets,
     * under these options (a whitespace run of the fragment matches any whitespace run when folding, a line break
     * matches CRLF or CR); empty when it does not occur there}. The page marks this span in the answer; it is only
     * evidence: the verdict comes from {@link #normalize}, which also equates NFC and NFD forms.
     */
    Optional<int[]> span(String text, String fragment) {
        String wanted = LINE_BREAK
                .matcher(Normalizer.normalize(fragment, Normalizer.Form.NFC))
                .replaceAll("\n");
        String written = text == null ? "" : text;
        String[] pieces = (foldWhitespace ? WHITESPACE : LINE_FEED).split(wanted, -1);
        if (pieces.length == 1 && !ignoreCase) {
            // Nothing to match loosely: the fragment occurs as written or not at all, and a pattern compiled for each
            // check cost more than the check.
            int start = written.indexOf(wanted);
            return start < 0 ? Optional.empty() : Optional.of(new int[] {start, start + wanted.length()});
        }
        String separator = foldWhitespace ? "\\s+" : "(?:\\r\\n?|\\n)";
        String pattern = Arrays.stream(pieces).map(Pattern::quote).collect(Collectors.joining(separator));
        int flags =
                Pattern.UNICODE_CHARACTER_CLASS | (ignoreCase ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
        Matcher matcher = Pattern.compile(pattern, flags).matcher(written);
        return matcher.find() ? Optional.of(new int[] {matcher.start(), matcher.end()}) : Optional.empty();
    }
}
