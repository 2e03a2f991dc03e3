package dev.assay.transcript;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a model's raw text into the final answer checkers judge (docs/checkers.md, "The final answer"): tool-call
 * markup and think blocks removed, a leading answer label removed, trimmed. Stateless and thread-safe.
 *
 * <p>Beyond the reference's stripping (whole {@code <tool_call>} and {@code <tool>} blocks, then stray tags):
 *
 * <ul>
 *   <li>an opening {@code <tool_call>}/{@code <tool>} tag that is never closed starts a call the model did not finish
 *       (its output was cut off); everything from it to the end is a call payload, not answer text;
 *   <li>{@code <think>} and {@code <thinking>} blocks are removed; a lone closing tag means the opening one was in the
 *       chat template, so everything before it is reasoning; a lone opening tag means the reasoning was cut off, so
 *       everything after it is reasoning;
 *   <li>the answer label may be wrapped in Markdown ({@code **Answer:**}, {@code ## Final Answer:}).
 * </ul>
 */
public final class AnswerText {
    private static final Pattern TOOL_CALL_BLOCK = Pattern.compile("(?is)<tool_call\\b[^>]*>.*?</tool_call\\s*>");
    private static final Pattern TOOL_BLOCK = Pattern.compile("(?is)<tool\\b[^>]*>.*?</tool\\s*>");
    private static final Pattern UNCLOSED_TOOL_CALL = Pattern.compile("(?is)<tool(?:_call)?\\b[^>]*>.*");
    private static final Pattern STRAY_TOOL_TAG = Pattern.compile("(?i)</tool(?:_call)?\\s*>");
    private static final Pattern THINK_BLOCK = Pattern.compile("(?is)<(think|thinking)\\b[^>]*>.*?</\\1\\s*>");
    private static final Pattern ORPHAN_THINK_CLOSE = Pattern.compile("(?is)^.*</think(?:ing)?\\s*>");
    private static final Pattern UNCLOSED_THINK = Pattern.compile("(?is)<think(?:ing)?\\b[^>]*>.*");
    private static final Pattern ANSWER_PREFIX = Pattern.compile(
            "(?iu)^(?:#{1,6}\\s*)?[*_]*(?:(?:final\\s+answer|answer|最终答案|答案|最终回复)[*_]*\\s*(?:[:：]|is\\b|为|是)"
                    + "|the\\s+(?:final\\s+)?answer\\s+is\\b\\s*[:：]?)[*_]*\\s*");

    private AnswerText() {}

    /** {@return the text with tool-call blocks, unfinished calls and stray tool tags removed, trimmed} */
    public static String stripToolCalls(String text) {
        if (text == null) {
            return "";
        }
        String result = TOOL_CALL_BLOCK.matcher(text).replaceAll("");
        result = TOOL_BLOCK.matcher(result).replaceAll("");
        result = UNCLOSED_TOOL_CALL.matcher(result).replaceFirst("");
        result = STRAY_TOOL_TAG.matcher(result).replaceAll("");
        return result.strip();
    }

    /** {@return the text with think blocks and reasoning cut off by a lone think tag removed, trimmed} */
    public static String stripThinking(String text) {
        if (text == null) {
            return "";
        }
        String result = THINK_BLOCK.matcher(text).replaceAll("");
        result = ORPHAN_THINK_CLOSE.matcher(result).replaceFirst("");
        result = UNCLOSED_THINK.matcher(result).replaceFirst("");
        return result.strip();
    }

    /** {@return the text with tool calls and thinking stripped, a leading answer label kept} */
    public static String withoutMarkup(String raw) {
        return stripThinking(stripToolCalls(raw));
    }

    /** {@return the final answer: tool calls and thinking stripped, then a leading answer label} */
    public static String finalAnswer(String raw) {
        String text = withoutMarkup(raw);
        Matcher prefix = ANSWER_PREFIX.matcher(text);
        if (prefix.find() && prefix.end() > 0 && prefix.end() < text.length()) {
            return text.substring(prefix.end()).strip();
        }
        return text;
    }
}
