package dev.assay.transcript;

import java.util.regex.Pattern;

/**
 * Turns a model's raw text into the final answer checkers judge (wunder-reference.md §1.6): tool-call
 * markup and think blocks removed, a leading answer label removed, trimmed.
 */
public final class AnswerText {
    private static final Pattern TOOL_CALL_BLOCK = Pattern.compile("(?is)<tool_call\\b[^>]*>.*?</tool_call>");
    private static final Pattern TOOL_BLOCK = Pattern.compile("(?is)<tool\\b[^>]*>.*?</tool>");
    private static final Pattern STRAY_TOOL_TAG = Pattern.compile("(?i)</?tool(_call)?\\b[^>]*>");
    private static final Pattern THINK_BLOCK = Pattern.compile("(?is)<think\\b[^>]*>.*?</think>");
    private static final Pattern STRAY_THINK_TAG = Pattern.compile("(?i)</?think\\b[^>]*>");
    private static final Pattern ANSWER_PREFIX = Pattern.compile(
            "(?i)^(?:(?:final\\s+answer|answer|最终答案|答案)\\s*(?:[:：]|is\\b|为|是)|the\\s+answer\\s+is\\b)\\s*");

    private AnswerText() {
    }

    /** {@return the text with tool-call blocks and tags removed, trimmed} */
    public static String stripToolCalls(String text) {
        if (text == null) {
            return "";
        }
        String result = TOOL_CALL_BLOCK.matcher(text).replaceAll("");
        result = TOOL_BLOCK.matcher(result).replaceAll("");
        result = STRAY_TOOL_TAG.matcher(result).replaceAll("");
        return result.strip();
    }

    /** {@return the text with think blocks and stray think tags removed, trimmed} */
    public static String stripThinking(String text) {
        if (text == null) {
            return "";
        }
        String result = THINK_BLOCK.matcher(text).replaceAll("");
        return STRAY_THINK_TAG.matcher(result).replaceAll("").strip();
    }

    /** {@return the final answer: tool calls and thinking stripped, then a leading answer label} */
    public static String finalAnswer(String raw) {
        String text = stripThinking(stripToolCalls(raw));
        var prefix = ANSWER_PREFIX.matcher(text);
        if (prefix.find() && prefix.end() > 0 && prefix.end() < text.length()) {
            return text.substring(prefix.end()).strip();
        }
        return text;
    }
}
