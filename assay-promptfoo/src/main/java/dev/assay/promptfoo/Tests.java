package dev.assay.promptfoo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.assay.Json;
import dev.assay.Yaml;
import dev.assay.cases.SourceRef;
import dev.assay.promptfoo.PromptfooConfig.Context;
import dev.assay.promptfoo.PromptfooConfig.FileRefs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a config's {@code tests}: inline tests, and {@code file://} CSV, JSON, YAML and JSONL files of tests, as
 * promptfoo reads them. A config without tests runs each prompt once with no vars, as promptfoo does. Stateless.
 */
final class Tests {
    private static final CsvMapper CSV =
            CsvMapper.builder().enable(CsvParser.Feature.SKIP_EMPTY_LINES).build();

    private Tests() {}

    /** {@return the tests {@code node} lists, numbered in order} */
    static List<TestCase> read(JsonNode node, Context context) {
        var tests = new ArrayList<TestCase>();
        if (node.isMissingNode() || node.isNull()) {
            tests.add(new TestCase(0, "", null, List.of(), null, null, context.source(), "tests"));
            return tests;
        }
        List<JsonNode> entries = PromptfooConfig.listOf(node);
        for (int i = 0; i < entries.size(); i++) {
            JsonNode entry = entries.get(i);
            String key = node.isArray() ? "tests[" + i + "]" : "tests";
            if (FileRefs.isReference(entry)) {
                fromFile(entry.textValue(), key, context).forEach(test -> tests.add(test.at(tests.size())));
            } else {
                TestCase test = TestCase.read(entry, tests.size(), key, context.source(), context);
                if (test != null) {
                    tests.add(test);
                }
            }
        }
        return tests;
    }

    private static List<TestCase> fromFile(String reference, String key, Context context) {
        String written = FileRefs.written(reference);
        String lower = written.toLowerCase(Locale.ROOT);
        if (written.contains("*")) {
            context.problem(
                    "promptfoo.unsupported_tests",
                    key,
                    "tests files by glob are not supported: " + written,
                    "one file:// reference per file");
            return List.of();
        }
        Path path = context.resolve(reference);
        String file = path.toString();
        if (lower.endsWith(".csv") || lower.endsWith(".tsv")) {
            return csv(path, lower.endsWith(".tsv") ? '\t' : ',', context);
        }
        String text = context.text(reference, key);
        if (text == null) {
            return List.of();
        }
        var tests = new ArrayList<TestCase>();
        if (lower.endsWith(".jsonl")) {
            String[] lines = text.split("\\r?\\n", -1);
            for (int i = 0; i < lines.length; i++) {
                if (lines[i].isBlank()) {
                    continue;
                }
                SourceRef source = new SourceRef(file, i + 1);
                try {
                    add(Json.MAPPER.readTree(lines[i]), "line " + (i + 1), source, context, tests);
                } catch (IOException e) {
                    context.problemAt(
                            source, "promptfoo.parse_error", "line " + (i + 1), "the line is not JSON", "a JSON test");
                }
            }
            return tests;
        }
        if (!(lower.endsWith(".json") || lower.endsWith(".yaml") || lower.endsWith(".yml"))) {
            context.problem(
                    "promptfoo.unsupported_tests",
                    key,
                    "tests from " + written + " are not supported",
                    "a .csv, .tsv, .json, .jsonl, .yaml or .yml file");
            return List.of();
        }
        JsonNode root;
        try {
            root = Yaml.MAPPER.readTree(text);
        } catch (IOException | RuntimeException e) {
            context.problemAt(
                    new SourceRef(file, 0), "promptfoo.parse_error", "", "does not parse: " + e.getMessage(), "tests");
            return List.of();
        }
        List<JsonNode> entries = PromptfooConfig.listOf(root);
        for (int i = 0; i < entries.size(); i++) {
            add(entries.get(i), "[" + i + "]", new SourceRef(file, 0), context, tests);
        }
        return tests;
    }

    private static void add(JsonNode node, String key, SourceRef source, Context context, List<TestCase> tests) {
        TestCase test = TestCase.read(node, tests.size(), key, source, context);
        if (test != null) {
            tests.add(test);
        }
    }

    private static List<TestCase> csv(Path path, char separator, Context context) {
        var tests = new ArrayList<TestCase>();
        CsvSchema schema = CsvSchema.emptySchema().withHeader().withColumnSeparator(separator);
        try (MappingIterator<Map<String, String>> rows =
                CSV.readerForMapOf(String.class).with(schema).readValues(path.toFile())) {
            while (rows.hasNextValue()) {
                int line = rows.getCurrentLocation().getLineNr();
                Map<String, String> row = new LinkedHashMap<>(rows.nextValue());
                SourceRef source = new SourceRef(path.toString(), line);
                String key = path.getFileName() + " line " + line;
                context.unhonoured(CsvTests.specialColumns(row), CsvTests.HONOURED_COLUMNS, "CSV column", source, key);
                tests.add(CsvTests.test(row, tests.size(), source, key));
            }
        } catch (IOException | RuntimeException e) {
            context.problemAt(
                    new SourceRef(path.toString(), 0),
                    "promptfoo.parse_error",
                    "",
                    "the CSV does not read: " + e.getMessage(),
                    "a CSV file with a header line");
        }
        return tests;
    }
}
