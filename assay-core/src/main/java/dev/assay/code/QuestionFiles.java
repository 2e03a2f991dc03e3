package dev.assay.code;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.Yaml;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.cases.SourceRef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Reads code questions from files: a suite or case file (JSON, YAML: a list, or an object with {@code cases}), JSONL
 * with one question per line (HumanEval's format included), or a directory of such files. A simple reader for
 * {@code assay code extract} and the bench; suites proper are loaded by the case loader. Stateless.
 */
public final class QuestionFiles {

    private QuestionFiles() {}

    /**
     * {@return the questions in a file or directory, in file order}
     *
     * @throws AssayException {@code code.unreadable} when a file cannot be read or parsed
     */
    public static List<Case> read(Path path) {
        var cases = new ArrayList<Case>();
        if (Files.isDirectory(path)) {
            try (Stream<Path> files = Files.walk(path)) {
                for (Path file : files.filter(Files::isRegularFile)
                        .filter(QuestionFiles::readable)
                        .sorted()
                        .toList()) {
                    cases.addAll(readFile(file));
                }
            } catch (IOException e) {
                throw unreadable(path, e);
            }
            return cases;
        }
        return readFile(path);
    }

    private static boolean readable(Path file) {
        String name = file.getFileName().toString();
        return name.endsWith(".json") || name.endsWith(".jsonl") || name.endsWith(".yaml") || name.endsWith(".yml");
    }

    private static List<Case> readFile(Path file) {
        String name = file.getFileName().toString();
        var cases = new ArrayList<Case>();
        try {
            if (name.endsWith(".jsonl")) {
                int lineNumber = 0;
                for (String line : Files.readAllLines(file)) {
                    lineNumber++;
                    if (!line.isBlank()) {
                        cases.add(toCase(Json.parse(line), file, lineNumber));
                    }
                }
                return cases;
            }
            JsonNode root = (name.endsWith(".json") ? Json.MAPPER : Yaml.MAPPER).readTree(file.toFile());
            JsonNode rows = root != null && root.isObject() && root.has("cases") ? root.get("cases") : root;
            if (rows != null && rows.isArray()) {
                for (JsonNode row : rows) {
                    cases.add(toCase(row, file, 0));
                }
            } else if (rows != null && rows.isObject()) {
                cases.add(toCase(rows, file, 0));
            }
            return cases;
        } catch (IOException | AssayException e) {
            throw unreadable(file, e);
        }
    }

    /** A row as a code case: HumanEval's {@code task_id}/{@code test} become {@code id}/{@code test_code}. */
    static Case toCase(JsonNode row, Path file, int line) {
        if (!row.isObject()) {
            throw AssayException.of("code.unreadable", "a question must be an object, got " + row.getNodeType());
        }
        ObjectNode attributes = ((ObjectNode) row).deepCopy();
        String id = first(row, "id", "task_id", "question_id");
        if (id.isEmpty()) {
            id = file.getFileName() + ":" + line;
        }
        if (!attributes.has("test_code")
                && row.path("test").isTextual()
                && row.get("test").asText().contains("def check")) {
            attributes.put("test_code", row.get("test").asText());
        }
        String prompt = first(row, "prompt", "description", "content", "question", "input");
        return new Case(
                id,
                row.path("dimension").asText("code"),
                row.path("language").asText(""),
                prompt,
                1.0,
                null,
                List.of(Check.of("code", null)),
                List.of(),
                List.of(),
                Map.of(),
                attributes,
                new SourceRef(file.toString(), line));
    }

    private static String first(JsonNode row, String... fields) {
        for (String field : fields) {
            if (row.path(field).isTextual()) {
                return row.get(field).asText();
            }
        }
        return "";
    }

    private static AssayException unreadable(Path path, Exception cause) {
        return new AssayException(
                Problem.of("code.unreadable", "cannot read questions from " + path + ": " + cause.getMessage()), cause);
    }
}
