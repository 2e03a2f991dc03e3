package dev.assay.cli;

import java.io.PrintWriter;
import java.io.Writer;

/**
 * Text made safe for a terminal. What Assay prints holds text it does not trust: a model's answer, an endpoint's error
 * body, an agent's events, a case file's content, names from a shared database. A terminal obeys the control characters
 * in it (ESC starts sequences that clear the screen, set the window title or, through OSC 52, write the clipboard; BEL
 * rings; a lone carriage return overwrites what the line said), so each is printed visibly instead, as its
 * {@code \}{@code u} escape ({@code \}{@code u001b}), which a JSON document printed whole also reads as the same
 * character. The control characters are C0 (but for line feed and tab where a text of several lines is printed on
 * purpose, and a carriage return before a line feed), DEL and C1, and the bidirectional formatting characters (U+061C,
 * U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), with which a text can show its characters in another order than
 * they are (an answer that reads {@code passed} while holding {@code dessap}).
 *
 * <p>Every writer the command line prints to is {@link #writer escaping}, so that nothing printed reaches the terminal
 * raw; {@link #line} also escapes line feeds and tabs, for a value shown within a line. Only the progress bar's own
 * redrawing goes to the terminal as it is ({@link #unescaped}). Stateless and thread-safe.
 */
final class TerminalText {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private TerminalText() {}

    /** {@return the text for a place within one line: every control character escaped, line feeds and tabs too} */
    static String line(CharSequence text) {
        return text == null ? null : escape(text, 0, text.length(), false);
    }

    /**
     * {@return a writer that prints through {@code out} with every control character escaped but line breaks and tabs}
     */
    static PrintWriter writer(PrintWriter out) {
        return out instanceof Escaping ? out : new Escaping(out);
    }

    /**
     * {@return the writer under an {@link #writer escaping} one, for the control sequences Assay itself writes (the
     * progress bar's redrawing); any other writer as it is}
     */
    static PrintWriter unescaped(PrintWriter out) {
        return out instanceof Escaping escaping ? escaping.raw : out;
    }

    /**
     * {@return {@code text[start, end)} with its control characters escaped}
     *
     * @param lines whether line feeds, tabs and a carriage return before a line feed are kept
     */
    static String escape(CharSequence text, int start, int end, boolean lines) {
        int first = start;
        while (first < end && !escaped(text, first, end, lines)) {
            first++;
        }
        if (first == end) {
            return text.subSequence(start, end).toString();
        }
        var escaped = new StringBuilder(end - start + 16).append(text, start, first);
        for (int index = first; index < end; index++) {
            char c = text.charAt(index);
            if (escaped(text, index, end, lines)) {
                escaped.append("\\u")
                        .append(HEX[c >> 12 & 0xf])
                        .append(HEX[c >> 8 & 0xf])
                        .append(HEX[c >> 4 & 0xf])
                        .append(HEX[c & 0xf]);
            } else {
                escaped.append(c);
            }
        }
        return escaped.toString();
    }

    private static boolean escaped(CharSequence text, int index, int end, boolean lines) {
        char c = text.charAt(index);
        if ((c >= 0x20 && c < 0x7f) || c > 0x9f) {
            return isBidiControl(c);
        }
        if (!lines) {
            return true;
        }
        return !(c == '\n' || c == '\t' || (c == '\r' && index + 1 < end && text.charAt(index + 1) == '\n'));
    }

    private static boolean isBidiControl(char c) {
        return c == 0x061c
                || c == 0x200e
                || c == 0x200f
                || (c >= 0x202a && c <= 0x202e)
                || (c >= 0x2066 && c <= 0x2069);
    }

    /**
     * A print writer whose every character goes through {@link #escape} on its way to the one it wraps. A carriage
     * return and its line feed pass only when written together, as a line separator is.
     */
    private static final class Escaping extends PrintWriter {
        private final PrintWriter raw;

        Escaping(PrintWriter raw) {
            super(new EscapingWriter(raw), true);
            this.raw = raw;
        }
    }

    private static final class EscapingWriter extends Writer {
        private final Writer out;

        EscapingWriter(Writer out) {
            super(out);
            this.out = out;
        }

        @Override
        public void write(char[] buffer, int offset, int length) throws java.io.IOException {
            out.write(escape(java.nio.CharBuffer.wrap(buffer, offset, length), 0, length, true));
        }

        @Override
        public void write(String text, int offset, int length) throws java.io.IOException {
            out.write(escape(text, offset, offset + length, true));
        }

        @Override
        public void write(int c) throws java.io.IOException {
            write(new char[] {(char) c}, 0, 1);
        }

        @Override
        public void flush() throws java.io.IOException {
            out.flush();
        }

        @Override
        public void close() throws java.io.IOException {
            out.close();
        }
    }
}
