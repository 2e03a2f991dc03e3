package dev.assay.code.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.code.Example;
import dev.assay.code.ParsedExamples;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the examples in a problem description (Chinese or English; plain text, Markdown or HTML) and parses their
 * inputs and outputs. It never invents a test: an example it cannot read is reported with the reason. Stateless and
 * thread-safe.
 */
public final class ExampleParser {
    private static final Pattern HTML =
            Pattern.compile("<(p|pre|div|strong|b|code|br|span|img|ul|li|em)\\b[^>]*>", Pattern.CASE_INSENSITIVE);
    private static final Pattern BLOCK_TAG = Pattern.compile(
            "<\\s*/?\\s*(p|pre|div|br|li|ul|ol|img|h[1-6]|tr|table|blockquote)\\b[^>]*>", Pattern.CASE_INSENSITIVE);
    private static final Pattern ANY_TAG = Pattern.compile("<[^>]+>");
    private static final Pattern ENTITY = Pattern.compile("&(#x[0-9a-fA-F]+|#\\d+|[a-zA-Z]+);");
    private static final Map<String, String> ENTITIES = Map.of(
            "quot", "\"", "apos", "'", "lt", "<", "gt", ">", "amp", "&", "nbsp", " ", "le", "≤", "ge", "≥", "times",
            "×", "ne", "≠");
    private static final Pattern HEADER = Pattern.compile(
            "^[ \\t]*(?:#+[ \\t]*)?(示例|样例|例子|Example|Sample)[ \\t]*(\\d*)[ \\t]*[:：]?[ \\t]*(.*)$",
            Pattern.MULTILINE | Pattern.CASE_INSENSITIVE);
    private static final Pattern STOP = Pattern.compile(
            "^[ \\t]*(?:#+[ \\t]*)?(提示|进阶|注意|约束|说明|Constraints|Follow[- ]?up|Note|Hints?)(?![A-Za-z])[ \\t]*[:：]?",
            Pattern.MULTILINE | Pattern.CASE_INSENSITIVE);
    private static final Pattern LABEL = Pattern.compile(
            "^[ \\t]*(?:[-*>][ \\t]*)?(输入|输出|解释|Input|Output|Explanation)[ \\t]*(?:[:：][ \\t]*(.*)|$)",
            Pattern.MULTILINE | Pattern.CASE_INSENSITIVE);
    private static final Pattern NAMED =
            Pattern.compile("^(?:且|and)?\\s*([\\p{L}_][\\p{L}\\p{N}_]*)\\s*=\\s*(.*)$", Pattern.DOTALL);

    /** {@return every example of the description, parsed or with the reason it could not be} */
    public ParsedExamples parse(String description) {
        String text = plainText(description == null ? "" : description);
        var examples = new ArrayList<Example>();
        for (var block : blocks(text)) {
            examples.add(parseBlock(block.label(), block.body()));
        }
        return new ParsedExamples(examples);
    }

    /** Turns HTML into lines of text and undoes the Markdown emphasis that wraps labels. */
    static String plainText(String description) {
        String text = description.replace("\r\n", "\n");
        if (HTML.matcher(text).find()) {
            text = BLOCK_TAG.matcher(text).replaceAll("\n");
            text = ANY_TAG.matcher(text).replaceAll("");
        }
        text = decodeEntities(text).replace('\u00a0', ' ').replace('\u3000', ' ');
        // Markdown: **Input:**, `value`, fenced blocks and quoted lines.
        text = text.replace("**", "")
                .replace("__", "")
                .replaceAll("(?m)^[ \\t]*```\\w*[ \\t]*$", "")
                .replace("`", "")
                .replaceAll("(?m)^[ \\t]*>[ \\t]?", "");
        return text;
    }

    private static String decodeEntities(String text) {
        Matcher m = ENTITY.matcher(text);
        var out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            String replacement;
            if (name.startsWith("#x")) {
                replacement = new String(Character.toChars(Integer.parseInt(name.substring(2), 16)));
            } else if (name.startsWith("#")) {
                replacement = new String(Character.toChars(Integer.parseInt(name.substring(1))));
            } else {
                replacement = ENTITIES.getOrDefault(name, m.group());
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    private record Block(String label, String body) {}

    private static List<Block> blocks(String text) {
        var headers = new ArrayList<int[]>();
        var labels = new ArrayList<String>();
        Matcher m = HEADER.matcher(text);
        while (m.find()) {
            String rest = m.group(3);
            // "Example 1:" alone or followed by its first label; "Examples of usage:" prose is not a header.
            if (!rest.isBlank() && !LABEL.matcher(rest).lookingAt()) {
                continue;
            }
            headers.add(new int[] {m.start(), m.start(3)});
            labels.add(m.group(2).isEmpty() ? m.group(1) : m.group(1) + " " + m.group(2));
        }
        var blocks = new ArrayList<Block>();
        if (headers.isEmpty()) {
            // A single unlabelled example: "Input: ... Output: ..." with no header.
            if (LABEL.matcher(text).find()) {
                blocks.add(new Block("Example", cutAtStop(text)));
            }
            return blocks;
        }
        for (int i = 0; i < headers.size(); i++) {
            int end = i + 1 < headers.size() ? headers.get(i + 1)[0] : text.length();
            blocks.add(new Block(labels.get(i), cutAtStop(text.substring(headers.get(i)[1], end))));
        }
        return blocks;
    }

    private static String cutAtStop(String body) {
        Matcher stop = STOP.matcher(body);
        return stop.find() ? body.substring(0, stop.start()) : body;
    }

    private static Example parseBlock(String label, String body) {
        Map<String, String> sections = new LinkedHashMap<>();
        Matcher m = LABEL.matcher(body);
        String current = null;
        int valueStart = 0;
        while (m.find()) {
            if (current != null) {
                sections.putIfAbsent(current, body.substring(valueStart, m.start()));
            }
            current = canonicalLabel(m.group(1));
            valueStart = m.group(2) == null ? m.end() : m.start(2);
        }
        if (current != null) {
            sections.putIfAbsent(current, body.substring(valueStart));
        }
        String input = sections.get("input");
        String output = sections.get("output");
        if (input == null) {
            return Example.unsupported(label, "no input line (Input:/输入：) found");
        }
        if (output == null) {
            return Example.unsupported(label, "no output line (Output:/输出：) found");
        }
        ObjectNode arguments;
        try {
            arguments = parseInput(input);
        } catch (IllegalArgumentException e) {
            return Example.unsupported(label, "input: " + e.getMessage());
        }
        JsonNode expected;
        try {
            expected = Literals.parse(joinLines(output));
        } catch (IllegalArgumentException e) {
            return Example.unsupported(
                    label,
                    "output is not a literal (" + e.getMessage() + "): " + Literals.abbreviate(joinLines(output)));
        }
        return Example.ok(label, arguments, expected);
    }

    private static String canonicalLabel(String label) {
        return switch (label.toLowerCase(java.util.Locale.ROOT)) {
            case "输入", "input" -> "input";
            case "输出", "output" -> "output";
            default -> "explanation";
        };
    }

    /**
     * Reads one input line ({@code nums = [1,2], k = 3}, positional or mixed) as argument name to value.
     *
     * @throws IllegalArgumentException with the reason when it does not parse
     */
    public static ObjectNode parseArguments(String raw) {
        return parseInput(raw);
    }

    private static ObjectNode parseInput(String raw) {
        List<String> lines =
                raw.lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("empty input");
        }
        ObjectNode arguments = Json.object();
        if (lines.size() == 2 && lines.get(0).startsWith("[") && lines.get(1).startsWith("[")) {
            JsonNode operations = Literals.parse(lines.get(0));
            JsonNode args = Literals.parse(lines.get(1));
            if (operations.isArray()
                    && !operations.isEmpty()
                    && operations.get(0).isTextual()
                    && args.isArray()
                    && args.size() == operations.size()) {
                arguments.set("operations", operations);
                arguments.set("arguments", args);
                return arguments;
            }
        }
        int position = 0;
        for (String piece : Literals.splitTopLevel(joinLines(raw))) {
            Matcher named = NAMED.matcher(piece);
            if (named.matches()) {
                String name = named.group(1);
                if (arguments.has(name)) {
                    throw new IllegalArgumentException("argument '" + name + "' given twice");
                }
                arguments.set(name, parseValue(name, named.group(2)));
            } else {
                arguments.set("#" + position, parseValue("#" + position, piece));
                position++;
            }
        }
        return arguments;
    }

    private static JsonNode parseValue(String name, String text) {
        try {
            return Literals.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage());
        }
    }

    private static String joinLines(String text) {
        return String.join(
                " ",
                text.lines().map(String::strip).filter(line -> !line.isEmpty()).toList());
    }
}
