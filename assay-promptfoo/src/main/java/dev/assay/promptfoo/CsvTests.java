package dev.assay.promptfoo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.SourceRef;
import java.util.List;
import java.util.Map;
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

    private CsvTests() {}

    /** {@return the test one CSV row makes, columns in header order} */
    static TestCase test(Map<String, String> row, int index, SourceRef source, String key) {
        ObjectNode vars = Json.object();
        ArrayNode asserts = Json.MAPPER.createArrayNode();
        ObjectNode options = Json.object();
        String description = null;
        String metric = null;
        Double threshold = null;
        for (var cell : row.entrySet()) {
            String column = cell.getKey();
            String value = cell.getValue() == null ? "" : cell.getValue();
            if (column.startsWith("__expected")) {
                if (!value.isBlank()) {
                    asserts.add(assertion(value));
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
                threshold = parseNumber(value);
            } else {
                vars.put(column, value);
            }
        }
        if (metric != null) {
            for (JsonNode assertion : asserts) {
                ((ObjectNode) assertion).put("metric", metric);
            }
        }
        var list = new java.util.ArrayList<JsonNode>();
        asserts.forEach(list::add);
        return new TestCase(
                index,
                description,
                vars,
                list,
                threshold != null && threshold != 0 ? threshold : null,
                options,
                source,
                key);
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
            if (LIST_TYPES.contains(type)) {
                ArrayNode values = node.putArray("value");
                for (String part : value.split(",", -1)) {
                    values.add(part.strip());
                }
            } else if (THRESHOLD_TYPES.contains(type)) {
                node.put("value", value);
                Double written = match.group(3) == null ? null : parseNumber(match.group(3));
                node.put("threshold", written != null && written != 0 ? written : type.equals("similar") ? 0.8 : 0.75);
            } else if (match.group(4) != null) {
                // Without a value (`is-json`), promptfoo's assertion has none.
                node.put("value", value);
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

    /** {@return the number JavaScript's parseFloat reads at the start of {@code text}; null for NaN} */
    private static Double parseNumber(String text) {
        Matcher number = Pattern.compile("^\\s*[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")
                .matcher(text);
        return number.find() ? Double.valueOf(number.group().strip()) : null;
    }
}
