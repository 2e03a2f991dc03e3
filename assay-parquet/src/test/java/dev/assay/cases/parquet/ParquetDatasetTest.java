package dev.assay.cases.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.assay.Json;
import dev.assay.api.Assay;
import dev.assay.api.CaseResult;
import dev.assay.api.Evaluation;
import dev.assay.cases.Case;
import dev.assay.cases.DatasetMapping;
import dev.assay.cases.SuiteLoad;
import dev.assay.cases.SuiteLoader;
import dev.assay.check.CheckerRegistry;
import dev.assay.result.RunStatus;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parquet datasets, written here with the same library the reader uses (no binary fixture): their rows become cases by
 * a mapping, lists included, and such a dataset runs end to end with a mapping only.
 */
class ParquetDatasetTest {
    /** The shape Hugging Face's multiple-choice datasets have: a question, a list of options, the answer's index. */
    private static final MessageType SCHEMA = MessageTypeParser.parseMessageType("""
            message row {
              required binary question (STRING);
              optional group choices (LIST) {
                repeated group list {
                  optional binary element (STRING);
                }
              }
              required int64 answer;
              optional binary subject (STRING);
            }
            """);

    @TempDir
    Path dir;

    private Path write(String name, int rows) throws IOException {
        Path file = dir.resolve(name);
        var groups = new SimpleGroupFactory(SCHEMA);
        try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(file))
                .withConf(new PlainParquetConfiguration())
                .withType(SCHEMA)
                .withRowGroupSize(64L * 1024)
                .build()) {
            for (int i = 0; i < rows; i++) {
                Group row = groups.newGroup().append("question", "What is " + i + " + 1?");
                Group list = row.addGroup("choices");
                for (int option = 0; option < 4; option++) {
                    list.addGroup("list").append("element", String.valueOf(i + option));
                }
                row.append("answer", 1L);
                if (i % 2 == 0) {
                    row.append("subject", "maths");
                }
                writer.write(row);
            }
        }
        return file;
    }

    @Test
    void a_parquet_files_rows_become_cases_with_their_lists_and_nulls_read() throws Exception {
        Path file = write("mmlu.parquet", 3);

        SuiteLoad load = new SuiteLoader(CheckerRegistry.builtins())
                .load(List.of(file), DatasetMapping.of("question", "answer").withChoices(List.of("choices")));

        assertThat(load.problems()).isEmpty();
        assertThat(load.suite().cases())
                .extracting(
                        Case::id, Case::dimension, Case::prompt, c -> c.source().line())
                .containsExactly(
                        tuple("1", "mmlu", "What is 0 + 1?\n\nA. 0\nB. 1\nC. 2\nD. 3", 1),
                        tuple("2", "mmlu", "What is 1 + 1?\n\nA. 1\nB. 2\nC. 3\nD. 4", 2),
                        tuple("3", "mmlu", "What is 2 + 1?\n\nA. 2\nB. 3\nC. 4\nD. 5", 3));
        assertThat(load.suite().cases().get(1).checks().getFirst().expected())
                .isEqualTo(Json.object().put("answer", "B").put("letters", "ABCD"));
        assertThat(load.suite().cases())
                .extracting(c -> c.attributes().path("subject").isNull())
                .containsExactly(false, true, false);
    }

    @Test
    void a_parquet_dataset_of_many_row_groups_runs_end_to_end_with_a_mapping_only() throws Exception {
        int rows = 2_000;
        Path file = write("many.parquet", rows);

        Evaluation evaluation = Assay.suite(file)
                .model("mock")
                .dataset(DatasetMapping.of("question", "answer").withChoices(List.of("choices")))
                .concurrency(8)
                .run();

        assertThat(evaluation.status()).isEqualTo(RunStatus.FINISHED);
        assertThat(evaluation.counts().total()).isEqualTo(rows);
        assertThat(evaluation.cases()).hasSize(rows);
        assertThat(evaluation.cases()).extracting(CaseResult::dimension).containsOnly("many");
    }
}
