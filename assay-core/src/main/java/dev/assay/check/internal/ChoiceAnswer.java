package dev.assay.check.internal;

import dev.assay.score.Weights;
import dev.assay.transcript.AnswerText;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the option letter a model chose in free text. The reference normaliser (docs/checkers.md, "choice",
 * {@code normalize_choice_answer}) in order, with Assay's additions marked (each decided in docs/checkers.md,
 * "Differences from the reference server"):
 *
 * <ol>
 *   <li>tool-call markup, think blocks and every XML/HTML-like tag are removed; then NFKC, so full-width letters and
 *       punctuation ({@code Ｂ}, {@code ：}, {@code （}) read as their ASCII forms;
 *   <li>{@code label}: a label (答案, 最终答案, 选择, 选项, answer, final answer; any case) with a separator ({@code :},
 *       {@code is}, 为, 是), optional wrappers, a letter and a terminator, anywhere; the last one wins;
 *   <li>{@code line}: from the bottom, the first line that is wholly a labelled answer or a lone letter with wrappers,
 *       punctuation or spaces around it ({@code ( A )}; wrappers include Markdown emphasis and LaTeX
 *       {@code \boxed{}}/{@code $…$});
 *   <li>{@code leading_letter} (Assay): lines that start with a letter and a separator ({@code B. 4}, {@code B，因为…})
 *       with no other option marker after it; used when all such lines name one letter, so an echo of the options is
 *       never read as a choice;
 *   <li>{@code short_line}: if the whole text is one line of at most 32 UTF-8 bytes, its only standalone letter in
 *       either case, as in the reference ({@code I pick b}); two or more (even the same letter twice) give no answer,
 *       except that (Assay) one standalone upper-case letter beside lower-case ones is read, so the English article "a"
 *       does not hide it ({@code It is a C}). Under Assay's reading a lone lower-case {@code a} followed by a word is
 *       the article, not an answer ({@code This is a mock answer.} gives none); the reference's reading (under
 *       {@code --scoring reference}) takes it as A.
 * </ol>
 *
 * Immutable and thread-safe.
 */
final class ChoiceAnswer {
    static final String DEFAULT_LETTERS = "ABCD";
    private static final int SHORT_LINE_BYTES = 32;
    private static final Pattern ANY_TAG = Pattern.compile("</?[A-Za-z][^>]*>");
    private static final Pattern LINE_LEAD = Pattern.compile("^[-*>`\\s]+");
    /** The English article: a lower-case {@code a} with a word after it ({@code a mock answer}). */
    private static final Pattern ARTICLE = Pattern.compile("a\\s+\\p{L}");

    private static final String LABEL = "(?:最终答案|答案|选择|选项|answer)[*_]*\\s*(?:[:：]|is\\s*[:：]?|为|是\\s*[:：]?)\\s*";
    /**
     * Opening wrappers, LaTeX's {@code \boxed{B}} and {@code $B$} included (maths-tuned models answer that way). A run
     * of wrapper characters is taken whole ({@code ++}): java.util.regex recurses once per repetition of a group, so a
     * model that repeats {@code (} thousands of times would otherwise overflow the stack; nothing after a run can be a
     * wrapper character, so taking it whole never loses a match.
     */
    private static final String OPEN = open("");
    /**
     * On a line that is only the answer, whitespace may stand among the wrappers, as in the reference: {@code ( A )}.
     */
    private static final String LINE_OPEN = open("\\s");

    private static final String CLOSE_OR_PUNCT = "[)\\]}>\"'`*_~”’」】$.,，。!！?？:：;；]";
    /** One character class, not an alternation: a group would recurse once per repetition on a long run. */
    private static final String LINE_CLOSE = "[\\s" + CLOSE_OR_PUNCT.substring(1);

    /**
     * A letter found and the rule that found it.
     *
     * @param letter the upper-case letter
     * @param rule {@code label}, {@code line}, {@code leading_letter} or {@code short_line}
     */
    record Extraction(String letter, String rule) {}

    private final Pattern labelled;
    private final Pattern letterLine;
    private final Pattern leadingLetter;
    private final Pattern optionMarker;
    private final Pattern standalone;
    private final Pattern standaloneUpper;

    /** @param letters the option letters, upper case, e.g. {@code ABCD} */
    ChoiceAnswer(String letters) {
        String any = "[" + letters + letters.toLowerCase(Locale.ROOT) + "]";
        String upper = "[" + letters + "]";
        labelled = Pattern.compile("(?iu)" + LABEL + OPEN + "(" + any + ")(?=\\s|" + CLOSE_OR_PUNCT + "|$)");
        letterLine = Pattern.compile("^" + LINE_OPEN + "(" + any + ")" + LINE_CLOSE + "*$");
        leadingLetter = Pattern.compile("^[(\\[【]?(" + upper + ")\\s*[).:、,，：]\\s*(.*)$");
        optionMarker = Pattern.compile("(?<![A-Za-z0-9])" + upper + "\\s*[).:、：]");
        standalone = Pattern.compile("(?<![A-Za-z0-9])(" + any + ")(?![A-Za-z0-9])");
        standaloneUpper = Pattern.compile("(?<![A-Za-z0-9])(" + upper + ")(?![A-Za-z0-9])");
    }

    private static String open(String extraCharacters) {
        return "(?:[" + extraCharacters + "(\\[{<\"'`*_~“‘「【$]++|\\\\boxed\\{|\\\\text\\{)*";
    }

    /**
     * {@return the chosen letter, or empty when the text names none unambiguously}
     *
     * @param reading the run's scoring preset: {@link Weights.Scoring#REFERENCE} reads a short line as the reference
     *     server does, the English article included
     */
    Optional<Extraction> extract(String answer, Weights.Scoring reading) {
        String text = clean(answer);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        List<String> lines = text.lines()
                .map(line -> LINE_LEAD.matcher(line.strip()).replaceFirst(""))
                .filter(line -> !line.isBlank())
                .map(String::strip)
                .toList();
        return lastLabel(text)
                .or(() -> bottomLine(lines))
                .or(() -> leadingLetter(lines))
                .or(() -> shortLine(text, lines, reading));
    }

    /** The text the rules read: what remains after markup is removed, in NFKC. */
    static String clean(String answer) {
        String text = AnswerText.withoutMarkup(answer);
        text = ANY_TAG.matcher(text).replaceAll("");
        return Normalizer.normalize(text, Normalizer.Form.NFKC).strip();
    }

    private Optional<Extraction> lastLabel(String text) {
        Matcher matcher = labelled.matcher(text);
        String last = null;
        while (matcher.find()) {
            last = matcher.group(1);
        }
        return found(last, "label");
    }

    private Optional<Extraction> bottomLine(List<String> lines) {
        // A line that is wholly a labelled answer needs no pattern here: the label rule, tried first, has read it.
        for (int i = lines.size() - 1; i >= 0; i--) {
            Matcher matcher = letterLine.matcher(lines.get(i));
            if (matcher.matches()) {
                return found(matcher.group(1), "line");
            }
        }
        return Optional.empty();
    }

    private Optional<Extraction> leadingLetter(List<String> lines) {
        Set<String> letters = new LinkedHashSet<>();
        for (String line : lines) {
            Matcher matcher = leadingLetter.matcher(line);
            if (matcher.matches() && !optionMarker.matcher(matcher.group(2)).find()) {
                letters.add(matcher.group(1));
            }
        }
        return letters.size() == 1 ? found(letters.iterator().next(), "leading_letter") : Optional.empty();
    }

    private Optional<Extraction> shortLine(String text, List<String> lines, Weights.Scoring reading) {
        if (lines.size() != 1 || text.getBytes(StandardCharsets.UTF_8).length > SHORT_LINE_BYTES) {
            return Optional.empty();
        }
        Optional<MatchResult> only = onlyMatch(standalone, text);
        if (reading != Weights.Scoring.REFERENCE && only.isPresent() && isArticle(text, only.get())) {
            return Optional.empty();
        }
        return only.or(() -> onlyMatch(standaloneUpper, text)).flatMap(match -> found(match.group(1), "short_line"));
    }

    /** {@return whether the match is the English article: a lower-case "a" with a word after it} */
    private static boolean isArticle(String text, MatchResult match) {
        Matcher article = ARTICLE.matcher(text).region(match.start(1), text.length());
        return article.lookingAt();
    }

    /** {@return the pattern's only match in the text; empty for none or several} */
    private static Optional<MatchResult> onlyMatch(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        MatchResult only = null;
        int count = 0;
        while (matcher.find()) {
            only = matcher.toMatchResult();
            count++;
        }
        return count == 1 ? Optional.of(only) : Optional.empty();
    }

    private static Optional<Extraction> found(String letter, String rule) {
        return letter == null ? Optional.empty() : Optional.of(new Extraction(letter.toUpperCase(Locale.ROOT), rule));
    }
}
