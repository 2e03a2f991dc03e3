package dev.assay.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.assay.Json;
import dev.assay.cases.DatasetMapping;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The options that read a run's suites as plain datasets (docs/datasets.md): which fields are the question and the
 * answer, the checker, the prompt template, the options of a multiple-choice row, the id and the dimension. Given none,
 * the suites are case files, or datasets that {@code assay.yaml}'s {@code datasets} maps.
 */
final class DatasetOptionsMixin {
    @Option(
            names = "--input-field",
            paramLabel = "<field>",
            description = "Read the suites as datasets (JSONL, CSV, TSV, JSON array, Parquet): this field of each row "
                    + "is the prompt.")
    String inputField;

    @Option(
            names = "--target-field",
            paramLabel = "<field>",
            description = "The field of each row that is the expected answer.")
    String expectedField;

    @Option(
            names = "--checker",
            paramLabel = "<name>",
            description = "The checker that compares the answer with the target (default: choice with --choices, "
                    + "else exact).")
    String checker;

    @Option(
            names = "--template",
            paramLabel = "<template>",
            description = "A prompt template over the row's fields, e.g. 'Q: {{question}}' (Nunjucks syntax); "
                    + "{{options}} places the lettered options.")
    String template;

    @Option(
            names = "--choices",
            split = ",",
            paramLabel = "<field>",
            description = "The field holding a row's options (a list), or several fields, one option each: the options "
                    + "are shown lettered A, B, C... and the answer is graded with choice.")
    List<String> choices = new ArrayList<>();

    @Option(
            names = "--id-field",
            paramLabel = "<field>",
            description = "The field of each row that is the case id (default: the row's number).")
    String idField;

    @Option(
            names = "--dimension",
            paramLabel = "<name>",
            description = "The dimension of the dataset's cases (default: the dataset's file name).")
    String dimension;

    @Option(
            names = "--checker-option",
            paramLabel = "<key=value>",
            description = "An option of the checker, repeatable: --checker-option ignore_case=true. The value is read "
                    + "as JSON when it is (true, 0.5, [\"a\"]), else as text.")
    Map<String, String> checkerOptions = new LinkedHashMap<>();

    /** {@return the mapping the options give, each value null where not given; null when none is given} */
    DatasetMapping mapping() {
        var mapping = new DatasetMapping(
                inputField, expectedField, checker, template, choices, idField, dimension, options());
        return mapping.equals(new DatasetMapping(null, null, null, null, null, null, null)) ? null : mapping;
    }

    private ObjectNode options() {
        if (checkerOptions.isEmpty()) {
            return null;
        }
        ObjectNode options = Json.object();
        checkerOptions.forEach((key, value) -> options.set(key, value(value)));
        return options;
    }

    /** {@return a value given on the command line: JSON when it reads as JSON, else the text} */
    private static JsonNode value(String text) {
        try {
            JsonNode parsed = Json.MAPPER.readTree(text);
            return parsed == null || parsed.isMissingNode() ? TextNode.valueOf(text) : parsed;
        } catch (JsonProcessingException e) {
            return TextNode.valueOf(text);
        }
    }
}
