package dev.assay.api;

import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.assay.cases.DatasetMapping;
import dev.assay.result.ItemStatus;
import dev.assay.result.RunStatus;
import dev.assay.testing.ScriptedOpenAiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plain datasets run end to end with a mapping only, against a scripted model on loopback. */
class DatasetRunTest {
    /** Answers "Paris" to a question about France, "B" to a lettered one, "7" otherwise. */
    private static ScriptedOpenAiServer model;

    @TempDir
    static Path directory;

    @BeforeAll
    static void start() {
        model = ScriptedOpenAiServer.start(request -> text(
                request.firstUserText().contains("France")
                        ? "Paris"
                        : request.firstUserText().contains("\nB. ") ? "The answer is B" : "7"));
    }

    @AfterAll
    static void stop() {
        model.close();
    }

    private static Assay scripted(Path dataset, DatasetMapping mapping) {
        return Assay.suite(dataset)
                .model("openai:scripted")
                .baseUrl(model.baseUrl())
                .dataset(mapping);
    }

    @Test
    void a_jsonl_dataset_runs_with_a_mapping_and_its_bad_rows_are_left_out_of_the_counts() throws Exception {
        Path dataset = Files.writeString(directory.resolve("capitals.jsonl"), """
                {"question": "Capital of France?", "answer": "Paris"}
                {"question": "3 + 4?", "answer": 7}
                {"question": "no answer here"}
                {"question": "2 + 2?", "answer": "4"}
                """);

        Evaluation evaluation =
                scripted(dataset, DatasetMapping.of("question", "answer")).run();

        assertThat(evaluation.status()).isEqualTo(RunStatus.FINISHED);
        assertThat(evaluation.counts().total()).isEqualTo(3);
        assertThat(evaluation.cases())
                .extracting(CaseResult::id, CaseResult::dimension, CaseResult::status)
                .containsExactly(
                        tuple("1", "capitals", ItemStatus.PASSED),
                        tuple("2", "capitals", ItemStatus.PASSED),
                        tuple("4", "capitals", ItemStatus.FAILED));
    }

    @Test
    void a_csv_dataset_with_choices_and_an_id_field_is_graded_by_the_choice_checker() throws Exception {
        Path dataset = Files.writeString(directory.resolve("quiz.csv"), """
                qid,question,A,B,C,answer
                q-1,"Which is even?",3,4,5,B
                q-2,"Which is odd?
                (one line more)",2,4,5,C
                """);

        Evaluation evaluation = scripted(
                        dataset,
                        DatasetMapping.of(null, "answer")
                                .withTemplate("Q: {{question}}")
                                .withChoices(List.of("A", "B", "C"))
                                .withIdField("qid"))
                .run();

        assertThat(evaluation.cases())
                .extracting(CaseResult::id, CaseResult::status)
                .containsExactly(tuple("q-1", ItemStatus.PASSED), tuple("q-2", ItemStatus.FAILED));
        assertThat(evaluation.cases().get(1).reasons())
                .singleElement()
                .asString()
                .contains("choice");
    }
}
