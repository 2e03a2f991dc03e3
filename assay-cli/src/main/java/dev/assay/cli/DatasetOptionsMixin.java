package dev.assay.cli;

import dev.assay.cases.DatasetMapping;
import java.util.ArrayList;
import java.util.List;
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
    String targetField;

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

    /** {@return the mapping the options give, each value null where not given; null when none is given} */
    DatasetMapping mapping() {
        var mapping = new DatasetMapping(inputField, targetField, checker, template, choices, idField, dimension);
        return mapping.equals(new DatasetMapping(null, null, null, null, null, null, null)) ? null : mapping;
    }
}
