package dev.assay.promptfoo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.SourceRef;
import dev.assay.check.promptfoo.PromptfooAssertions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The CSV conventions of promptfoo's test files: a column per var, and the special columns {@code __expected} (and
 * {@code __expected1..n}), {@code __description}, {@code __prefix}, {@code __suffix}, {@code __metric},
 * {@code __threshold}. An {@code __expected} cell is an assertion in promptfoo's shorthand ({@code contains:...},
 * {@code not-icontains:...}, {@code javascript:...}, {@code fn:...}, {@code grade:...}, {@code similar(0.8):...}), else
 * an {@code equals}. Stateless.
 */
final class CsvTests {
    /** promptfoo's base assertion types, which its shorthand recognises after an optional {@code not-}. */
    private static final List<String> BASE_TYPES = List.of(
            "answer-relevance",
            "bleu",
            "classifier",
            "contains",
            "contains-all",
            "contains-any",
            "contains-html",
            "contains-json",
            "contains-sql",
            "contains-xml",
            "context-faithfulness",
            "context-recall",
            "context-relevance",
            "cost",
            "equals",
            "factuality",
            "finish-reason",
            "g-eval",
            "gleu",
            "guardrails",
            "icontains",
            "icontains-all",
            "icontains-any",
            "is-html",
            "is-json",
            "is-refusal",
            "is-sql",
            "is-valid-function-call",
            "is-valid-openai-function-call",
            "is-valid-openai-tools-call",
            "is-xml",
            "javascript",
            "latency",
            "levenshtein",
            "llm-rubric",
            "meteor",
            "model-graded-closedqa",
            "model-graded-factuality",
            "moderation",
            "perplexity",
            "perplexity-score",
            "pi",
            "python",
            "regex",
            "rouge-n",
            "ruby",
            "similar",
            "starts-with",
            "webhook",
            "word-count");

    private static final Pattern SHORTHAND = Pattern.compile(
            "^(not-)?(" + String.join("|", BASE_TYPES) + ")(?:\\((\\d+(?:\\.\\d+)?)\\))?(?::([\\s\\S]*))?$");

    /** Types whose shorthand value is a comma-separated list. */
    private static final List<String> LIST_TYPES =
            List.of("contains-any", "contains-all", "icontains-any", "icontains-all");

    /** Types whose shorthand carries a threshold, with promptfoo's default when none is written. */
    private static final List<String> THRESHOLD_TYPES = List.of(
            "answer-relevance",
            "classifier",
            "context-faithfulness",
            "context-recall",
            "context-relevance",
            "cost",
            "latency",
            "levenshtein",
            "perplexity-score",
            "perplexity",
            "rouge-n",
            "similar",
            "starts-with");

    /** Types whose shorthand value is kept as written, spaces included. */
    private static final List<String> JSON_TYPES = List.of("contains-json", "is-json");

    /**
     * The special columns Assay honours besides {@code __expected}, {@code __expectedN}, {@code __config:...} and
     * {@code __metadata:...} (which only describes a test); another, such as {@code __providerOutput}, is reported.
     */
    static final Set<String> HONOURED_COLUMNS =
            Set.of("__prefix", "__suffix", "__description", "__metric", "__threshold");

    private static final Pattern CONFIG_COLUMN = Pattern.compile("^__config:__expected(\\d*):threshold$");

    private static final Pattern FINITE_NUMBER =
            Pattern.compile("^[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?$");

    private CsvTests() {}

    /** {@return the test one CSV row makes, columns in header order} */
    static TestCase test(Map<String, String> row, int index, SourceRef source, String key) {
        ObjectNode vars = Json.object();
        ArrayNode asserts = Json.MAPPER.createArrayNode();
        ObjectNode options = Json.object();
        String description = null;
        String metric = null;
        Double threshold = null;
        var thresholds = new HashMap<Integer, Double>();
        for (var cell : row.entrySet()) {
            String column = cell.getKey().strip();
            String value = cell.getValue() == null ? "" : cell.getValue();
            Matcher config = CONFIG_COLUMN.matcher(column);
            if (column.startsWith("__expected")) {
                if (!value.isBlank()) {
                    asserts.add(assertion(value.strip()));
                }
            } else if (config.matches()) {
                int at = config.group(1).isEmpty() ? 0 : Integer.parseInt(config.group(1)) - 1;
                Double number = finiteNumber(value);
                if (number != null && at >= 0) {
                    thresholds.put(at, number);
                }
            } else if (column.equals("__prefix")) {
                options.put("prefix", value);
            } else if (column.equals("__suffix")) {
                options.put("suffix", value);
            } else if (column.equals("__description")) {
                description = value;
            } else if (column.equals("__metric")) {
                metric = value;
            } else if (column.equals("__threshold")) {
                threshold = finiteNumber(value);
            } else if (!column.startsWith("__")) {
                // `__metadata:KEY` only describes the test, and the reader reports other special columns: no var.
                vars.put(column, value);
            }
        }
        for (int i = 0; i < asserts.size(); i++) {
            ObjectNode assertion = (ObjectNode) asserts.get(i);
            if (metric != null) {
                assertion.put("metric", metric);
            }
            if (thresholds.containsKey(i)) {
                assertion.put("threshold", thresholds.get(i));
            }
        }
        var list = new java.util.ArrayList<JsonNode>();
        asserts.forEach(list::add);
        return new TestCase(index, description, vars, list, threshold, options, source, key);
    }

    /** {@return the assertion a cell of promptfoo's shorthand writes} */
    static ObjectNode assertion(String expected) {
        ObjectNode node = Json.object();
        if (expected.startsWith("javascript:") || expected.startsWith("fn:") || expected.startsWith("eval:")) {
            node.put("type", "javascript");
            node.put("value", expected.substring(expected.indexOf(':') + 1).strip());
            return node;
        }
        if (expected.startsWith("file://") && isJavascriptFile(expected.substring("file://".length()))) {
            node.put("type", "javascript");
            node.put("value", expected.strip());
            return node;
        }
        if (expected.startsWith("grade:") || expected.startsWith("llm-rubric:")) {
            node.put("type", "llm-rubric");
            node.put("value", expected.substring(expected.startsWith("grade:") ? 6 : 11));
            return node;
        }
        if (expected.startsWith("python:")
                || (expected.startsWith("file://") && (expected.endsWith(".py") || expected.contains(".py:")))) {
            node.put("type", "python");
            node.put("value", expected.substring(7).strip());
            return node;
        }
        Matcher match = SHORTHAND.matcher(expected);
        if (match.matches()) {
            String type = match.group(2);
            String fullType = match.group(1) != null ? "not-" + type : type;
            String value = match.group(4) == null ? "" : match.group(4);
            node.put("type", fullType);
            if (match.group(4) == null) {
                // Without a value (`is-json`), promptfoo's assertion has none.
                if (THRESHOLD_TYPES.contains(type)) {
                    node.put("threshold", threshold(match.group(3), type));
                }
                return node;
            }
            Optional<List<String>> list =
                    LIST_TYPES.contains(type) ? PromptfooAssertions.commaSeparated(value) : Optional.empty();
            if (list.isPresent()) {
                ArrayNode values = node.putArray("value");
                list.get().forEach(values::add);
            } else if (LIST_TYPES.contains(type) || JSON_TYPES.contains(type)) {
                // A list whose quote is not closed stays as written, for the checker to refuse naming it.
                node.put("value", value);
            } else {
                node.put("value", value.strip());
            }
            if (THRESHOLD_TYPES.contains(type)) {
                node.put("threshold", threshold(match.group(3), type));
            }
            return node;
        }
        node.put("type", "equals");
        node.put("value", expected);
        return node;
    }

    private static boolean isJavascriptFile(String path) {
        String lower = path.toLowerCase(java.util.Locale.ROOT).replaceAll(":[^/]*$", "");
        return lower.endsWith(".js")
                || lower.endsWith(".cjs")
                || lower.endsWith(".mjs")
                || lower.endsWith(".ts")
                || lower.endsWith(".cts")
                || lower.endsWith(".mts");
    }

    /**
     * {@return the threshold written in a shorthand's parentheses, 0 included, else promptfoo's default for the type}
     */
    private static double threshold(String written, String type) {
        if (written != null) {
            return Double.parseDouble(written);
        }
        return type.equals("similar") ? 0.8 : 0.75;
    }

    /** {@return a cell that is a whole number literal, as promptfoo's parseFiniteNumber reads it; null otherwise} */
    private static Double finiteNumber(String text) {
        String trimmed = text.strip();
        if (!FINITE_NUMBER.matcher(trimmed).matches()) {
            return null;
        }
        double value = Double.parseDouble(trimmed);
        return Double.isFinite(value) ? value : null;
    }

    /** {@return the special columns of a row other than those every config may use, for the reader to report} */
    static ObjectNode specialColumns(Map<String, String> row) {
        ObjectNode special = Json.object();
        for (String column : row.keySet()) {
            String name = column.strip();
            if (name.startsWith("__")
                    && !name.startsWith("__expected")
                    && !name.startsWith("__metadata:")
                    && !CONFIG_COLUMN.matcher(name).matches()) {
                special.put(name, "");
            }
        }
        return special;
    }
}
