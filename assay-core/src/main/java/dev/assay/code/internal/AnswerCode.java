package dev.assay.code.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes the program out of a model's answer: the fenced block that defines what is to be called (the longest such
 * block), else the longest block in the question's language, else the whole answer. Nothing inside the code is
 * rewritten. Stateless and thread-safe.
 */
public final class AnswerCode {
    private static final Pattern FENCE =
            Pattern.compile("(?ms)^[ \\t]*(```+|~~~+)[ \\t]*([\\w+#-]*)[^\\n]*\\n(.*?)^[ \\t]*\\1[ \\t]*$");
    private static final java.util.Map<String, Set<String>> TAGS = java.util.Map.of(
            "python", Set.of("python", "py", "python3"),
            "javascript", Set.of("javascript", "js", "node", "jsx"),
            "java", Set.of("java"));

    private AnswerCode() {}

    public static String extract(String answer, String language, String entryPoint) {
        if (answer == null) {
            return "";
        }
        Matcher m = FENCE.matcher(answer);
        var blocks = new ArrayList<String[]>();
        while (m.find()) {
            blocks.add(new String[] {m.group(2).toLowerCase(java.util.Locale.ROOT), m.group(3)});
        }
        if (blocks.isEmpty()) {
            return answer.strip().isEmpty() ? "" : answer;
        }
        Set<String> tags = TAGS.getOrDefault(language, Set.of(language));
        List<String> inLanguage = blocks.stream()
                .filter(b -> b[0].isEmpty() || tags.contains(b[0]))
                .map(b -> b[1])
                .toList();
        List<String> pool =
                inLanguage.isEmpty() ? blocks.stream().map(b -> b[1]).toList() : inLanguage;
        List<String> defining =
                pool.stream().filter(code -> defines(code, entryPoint)).toList();
        List<String> chosen = defining.isEmpty() ? pool : defining;
        return chosen.stream()
                .max(java.util.Comparator.comparingInt(String::length))
                .orElse("");
    }

    private static boolean defines(String code, String entryPoint) {
        if (code.contains("class Solution")) {
            return true;
        }
        if (entryPoint.isEmpty()) {
            return false;
        }
        String name = Pattern.quote(entryPoint);
        // def f( / function f( / f = function / f = ( / a method header f(...) { -- a call is not a definition.
        return Pattern.compile("\\b(?:def|function)\\s+" + name + "\\s*\\(|\\b" + name
                        + "\\s*=\\s*(?:function\\b|\\(|async\\b)|\\b" + name + "\\s*\\([^)]*\\)\\s*(?:throws[^{]*)?\\{")
                .matcher(code)
                .find();
    }
}
