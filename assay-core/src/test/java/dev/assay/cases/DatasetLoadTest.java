package dev.assay.cases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.cases.internal.JsonArrayDataset;
import dev.assay.cases.internal.SpilledCases;
import dev.assay.check.CheckerRegistry;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plain datasets load as cases by a mapping: each format, choices, ids, bad rows, and a large file streamed. */
class DatasetLoadTest {
    @TempDir
    Path dir;

    private final SuiteLoader loader = new SuiteLoader(CheckerRegistry.builtins());

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void a_jsonl_rows_become_cases_numbered_by_row_with_their_other_fields_kept() throws Exception {
        Path file = write("gsm-mini.jsonl", """
                {"question": "2+2?", "answer": 4, "source": "a"}

                {"question": "3+3?", "answer": "6", "source": "b"}
                """);

        SuiteLoad load = loader.load(List.of(file), DatasetMapping.of("question", "answer"));

        assertThat(load.problems()).isEmpty();
        assertThat(load.suite().cases())
                .extracting(
                        Case::id,
                        Case::dimension,
                        Case::prompt,
                        c -> c.checks().getFirst().checker(),
                        c -> c.checks().getFirst().expected().asText())
                .containsExactly(
                        tuple("1", "gsm_mini", "2+2?", "exact", "4"), tuple("2", "gsm_mini", "3+3?", "exact", "6"));
        assertThat(load.suite().cases().get(1).attributes()).isEqualTo(Json.MAPPER.readTree("{\"source\": \"b\"}"));
        assertThat(load.suite().cases().get(1).source()).isEqualTo(new SourceRef(file.toString(), 3));
    }

    @Test
    void a_csv_with_a_quoted_multi_line_field_keeps_each_rows_line_and_fills_a_template() throws Exception {
        Path file = write("qa.csv", """
                id,question,answer
                q1,"What is
                the capital of France?",Paris
                q2,"Say ""hi""\",hi
                """);

        SuiteLoad load = loader.load(
                List.of(file),
                DatasetMapping.of(null, "answer")
                        .withTemplate("Q: {{question}}")
                        .withIdField("id")
                        .withDimension("geo"));

        assertThat(load.problems()).isEmpty();
        assertThat(load.suite().cases())
                .extracting(
                        Case::id, Case::prompt, Case::dimension, c -> c.source().line())
                .containsExactly(
                        tuple("q1", "Q: What is\nthe capital of France?", "geo", 2),
                        tuple("q2", "Q: Say \"hi\"", "geo", 4));
    }

    @Test
    void a_tsv_and_a_json_array_read_as_datasets_too() throws Exception {
        Path tsv = write("a.tsv", "question\tanswer\nWhy?\tBecause\n");
        Path json = write("b.json", "[{\"question\": \"Who?\", \"answer\": \"Me\"}]");

        SuiteLoad load = loader.load(List.of(tsv, json), DatasetMapping.of("question", "answer"));

        assertThat(load.problems()).isEmpty();
        // Two files: each row's id names its file, so the ids stay distinct.
        assertThat(load.suite().cases())
                .extracting(Case::id, Case::prompt)
                .containsExactly(tuple("a:1", "Why?"), tuple("b:1", "Who?"));
    }

    @Test
    void choices_are_shown_lettered_and_the_target_becomes_the_letter_the_choice_checker_grades() throws Exception {
        Path file = write("mc.jsonl", """
                {"question": "2+2?", "choices": ["3", "4", "5"], "answer": 1}
                {"question": "Capital of Italy?", "choices": ["Rome", "Oslo"], "answer": "Rome"}
                {"question": "Pick C", "choices": {"text": ["x", "y", "z"], "label": ["1", "2", "3"]}, "answer": "3"}
                """);

        SuiteLoad load = loader.load(
                List.of(file), DatasetMapping.of("question", "answer").withChoices(List.of("choices")));

        assertThat(load.problems()).isEmpty();
        Case first = load.suite().cases().getFirst();
        assertThat(first.prompt()).isEqualTo("2+2?\n\nA. 3\nB. 4\nC. 5");
        assertThat(first.checks().getFirst().checker()).isEqualTo("choice");
        assertThat(load.suite().cases())
                .extracting(c -> c.checks().getFirst().expected())
                .containsExactly(expected("B", "ABC"), expected("A", "AB"), expected("C", "ABC"));
    }

    @Test
    void choices_in_several_csv_columns_are_one_option_each() throws Exception {
        Path file = write("mmlu.csv", "question,A,B,C,D,answer\n\"1+1?\",1,2,3,4,B\n");

        SuiteLoad load = loader.load(
                List.of(file), DatasetMapping.of("question", "answer").withChoices(List.of("A", "B", "C", "D")));

        assertThat(load.problems()).isEmpty();
        assertThat(load.suite().cases().getFirst().prompt()).isEqualTo("1+1?\n\nA. 1\nB. 2\nC. 3\nD. 4");
        assertThat(load.suite().cases().getFirst().checks().getFirst().expected())
                .isEqualTo(expected("B", "ABCD"));
    }

    @Test
    void a_template_that_places_the_options_itself_gets_them_once() throws Exception {
        Path file = write("mc.jsonl", "{\"q\": \"2+2?\", \"c\": [\"3\", \"4\"], \"a\": \"B\"}\n");

        SuiteLoad load = loader.load(
                List.of(file),
                DatasetMapping.of(null, "a")
                        .withTemplate("{{q}}\nOptions:\n{{options}}\nAnswer with a letter.")
                        .withChoices(List.of("c")));

        assertThat(load.suite().cases().getFirst().prompt())
                .isEqualTo("2+2?\nOptions:\nA. 3\nB. 4\nAnswer with a letter.");
    }

    @Test
    void bad_rows_are_problems_naming_file_line_and_field_and_the_other_rows_still_load() throws Exception {
        Path jsonl = write("bad.jsonl", """
                {"question": "ok", "answer": "a"}
                {"question": "no answer"}
                {not json
                {"question": ["a list"], "answer": "b"}
                {"question": "ok too", "answer": "c"}
                """);
        Path csv = write("bad.csv", "question,answer\nfine,x\ntoo,many,values\n");

        SuiteLoad load = loader.load(List.of(jsonl, csv), DatasetMapping.of("question", "answer"));

        assertThat(load.suite().cases()).extracting(Case::id).containsExactly("bad:1", "bad:5", "bad:1");
        assertThat(load.problems())
                .extracting(
                        CaseProblem::type,
                        p -> p.source().file(),
                        p -> p.source().line(),
                        CaseProblem::field)
                .containsExactly(
                        tuple("case.missing_field", jsonl.toString(), 2, "answer"),
                        tuple("case.parse_error", jsonl.toString(), 3, ""),
                        tuple("case.invalid_field", jsonl.toString(), 4, "question"),
                        tuple("case.parse_error", csv.toString(), 3, ""));
    }

    @Test
    void an_id_field_gives_the_ids_and_a_repeated_one_is_a_problem_at_its_line() throws Exception {
        Path file = write("ids.jsonl", """
                {"qid": "x-1", "q": "a", "a": "a"}
                {"qid": 7, "q": "b", "a": "b"}
                {"qid": "x-1", "q": "c", "a": "c"}
                """);

        SuiteLoad load = loader.load(List.of(file), DatasetMapping.of("q", "a").withIdField("qid"));

        assertThat(load.suite().cases()).extracting(Case::id).containsExactly("x-1", "7");
        assertThat(load.problems())
                .extracting(CaseProblem::type, p -> p.source().line(), CaseProblem::caseId)
                .containsExactly(tuple("case.duplicate_id", 3, "x-1"));
    }

    @Test
    void a_target_the_checker_refuses_is_a_problem_of_its_row() throws Exception {
        Path file = write("mc.jsonl", "{\"q\": \"?\", \"c\": [\"x\", \"y\"], \"a\": \"Z\"}\n");

        SuiteLoad load = loader.load(List.of(file), DatasetMapping.of("q", "a").withChoices(List.of("c")));

        assertThat(load.problems())
                .extracting(
                        CaseProblem::type, CaseProblem::field, p -> p.source().line())
                .containsExactly(tuple("case.invalid_field", "a", 1));
    }

    @Test
    void a_mapping_without_a_prompt_or_with_an_unknown_checker_is_refused_before_any_row_is_read() {
        Path file = dir.resolve("none.jsonl");

        assertThatThrownBy(() -> loader.load(List.of(file), DatasetMapping.of(null, "a")))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("dataset.invalid_mapping"));
        assertThatThrownBy(() ->
                        loader.load(List.of(file), DatasetMapping.of("q", "a").withChecker("exactt")))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("plugin.unknown"));
    }

    @Test
    void checker_options_join_each_rows_target_under_the_checkers_key_and_the_checker_reads_them() throws Exception {
        Path file = write("capitals.jsonl", "{\"q\": \"Capital of France?\", \"a\": \"Paris\"}\n");
        var exact = DatasetMapping.of("q", "a")
                .withChecker("exact")
                .withCheckerOptions(Json.object().put("ignore_case", true));

        SuiteLoad load = loader.load(List.of(file), exact);

        assertThat(load.problems()).isEmpty();
        JsonNode expected = load.suite().cases().getFirst().checks().getFirst().expected();
        assertThat(expected).isEqualTo(Json.MAPPER.readTree("{\"ignore_case\": true, \"answer\": \"Paris\"}"));
        // A pattern that does not compile fails its case when judged, as asked, instead of refusing the row.
        assertThat(load("regex", Json.object().put("on_invalid", "fail"), "^(\\d+$")
                        .problems())
                .isEmpty();
        assertThat(load("regex", null, "^(\\d+$").problems())
                .extracting(CaseProblem::type)
                .containsExactly("check.invalid_expected");
        assertThat(load("contains", Json.object().put("fold_whitespace", true), "a  b")
                        .suite()
                        .cases()
                        .getFirst()
                        .checks()
                        .getFirst()
                        .expected())
                .isEqualTo(Json.MAPPER.readTree("{\"fold_whitespace\": true, \"text\": \"a  b\"}"));
    }

    private SuiteLoad load(String checker, com.fasterxml.jackson.databind.node.ObjectNode options, String target)
            throws IOException {
        Path file = Files.writeString(
                dir.resolve(checker + ".jsonl"),
                Json.object().put("q", "?").put("a", target).toString() + "\n");
        return loader.load(
                List.of(file), DatasetMapping.of("q", "a").withChecker(checker).withCheckerOptions(options));
    }

    @Test
    void checker_options_without_a_target_are_the_whole_expected_and_join_a_choice() throws Exception {
        Path file = write("nums.jsonl", """
                {"q": "Pick", "c": ["x", "y"], "a": 1}
                """);

        SuiteLoad fixed = loader.load(
                List.of(file),
                DatasetMapping.of("q", null)
                        .withChecker("regex")
                        .withCheckerOptions(Json.object().put("pattern", "^\\d+$")));
        SuiteLoad choice = loader.load(
                List.of(file),
                DatasetMapping.of("q", "a")
                        .withChoices(List.of("c"))
                        .withCheckerOptions(Json.object().put("letters", "ABC")));

        assertThat(fixed.problems()).isEmpty();
        assertThat(fixed.suite().cases().getFirst().checks().getFirst().expected())
                .isEqualTo(Json.MAPPER.readTree("{\"pattern\": \"^\\\\d+$\"}"));
        assertThat(choice.problems()).isEmpty();
        assertThat(choice.suite().cases().getFirst().checks().getFirst().expected())
                .isEqualTo(Json.MAPPER.readTree("{\"letters\": \"AB\", \"answer\": \"B\"}"));
    }

    @Test
    void checker_options_the_checker_refuses_are_refused_once_before_any_row_naming_the_option() {
        Path file = dir.resolve("none.jsonl");

        assertThat(refusal(
                        file,
                        DatasetMapping.of("q", "a")
                                .withChecker("exact")
                                .withCheckerOptions(Json.object().put("ignore_kase", true))))
                .isEqualTo("checker_options.ignore_kase");
        assertThat(refusal(
                        file,
                        DatasetMapping.of("q", "a")
                                .withChecker("exact")
                                .withCheckerOptions(Json.object().put("answer", "Paris"))))
                .isEqualTo("checker_options.answer");
        assertThat(refusal(
                        file,
                        DatasetMapping.of("q", "a")
                                .withChecker("json_contains")
                                .withCheckerOptions(Json.object().put("path", "out.json"))))
                .isEqualTo("checker_options");
        assertThat(refusal(
                        file,
                        DatasetMapping.of("q", null)
                                .withChecker("regex")
                                .withCheckerOptions(Json.object().put("on_invalid", "fail"))))
                .startsWith("checker_options");
    }

    private String refusal(Path file, DatasetMapping mapping) {
        try {
            loader.load(List.of(file), mapping);
        } catch (AssayException e) {
            assertThat(e.problem().type()).isEqualTo("dataset.invalid_mapping");
            return String.valueOf(e.problem().details().get("field"));
        }
        throw new AssertionError("the mapping was not refused: " + mapping);
    }

    @Test
    void checker_options_round_trip_through_json_and_a_higher_source_replaces_them_whole() {
        var options = Json.object().put("ignore_case", true);
        var mapping = DatasetMapping.of("q", "a").withChecker("exact").withCheckerOptions(options);

        assertThat(DatasetMapping.fromJson(mapping.toJson(), "dataset")).isEqualTo(mapping);
        assertThat(mapping.toJson().get("checker_options")).isEqualTo(options);
        var flags =
                DatasetMapping.of(null, null).withCheckerOptions(Json.object().put("fold_whitespace", true));
        assertThat(flags.over(mapping).checkerOptions()).isEqualTo(Json.object().put("fold_whitespace", true));
        assertThat(DatasetMapping.of(null, null).over(mapping).checkerOptions()).isEqualTo(options);
        assertThatThrownBy(() -> DatasetMapping.fromJson(
                        Json.object().put("input_field", "q").put("checker_options", "ignore_case"), "dataset"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().details()).containsEntry("field", "dataset.checker_options"));
    }

    @Test
    void a_parquet_file_without_its_module_names_the_module_and_a_csv_without_a_mapping_asks_for_one()
            throws Exception {
        Path parquet = write("data.parquet", "PAR1");
        Path csv = write("data.csv", "q,a\nx,y\n");

        SuiteLoad mapped = loader.load(List.of(parquet), DatasetMapping.of("q", "a"));
        SuiteLoad unmapped = loader.load(List.of(csv));

        assertThat(mapped.problems())
                .extracting(CaseProblem::type, CaseProblem::message)
                .singleElement()
                .satisfies(problem -> assertThat(problem.toList()).first().isEqualTo("dataset.missing_module"))
                .satisfies(problem ->
                        assertThat(problem.toList().get(1).toString()).contains("assay-parquet"));
        assertThat(unmapped.problems()).extracting(CaseProblem::type).containsExactly("dataset.missing_mapping");
    }

    @Test
    void a_json_array_is_read_as_a_stream_and_one_cut_short_gives_its_rows_back() throws Exception {
        Path file = write("cut.json", "[{\"q\": \"a\", \"a\": \"a\"},\n{\"q\": \"b\", \"a\": \"b\"},\n{\"q\": ");
        var seen = new ArrayList<Long>();

        assertThatThrownBy(() -> new JsonArrayDataset().read(file, new DatasetFormat.Rows() {
                    @Override
                    public void row(DatasetRow row) {
                        seen.add(row.number());
                    }

                    @Override
                    public void unreadable(long number, long line, String message) {}
                }))
                .isInstanceOf(IOException.class);
        SuiteLoad load = loader.load(List.of(file), DatasetMapping.of("q", "a"));

        // Both rows were handed on before the break was reached: the array is never held whole.
        assertThat(seen).containsExactly(1L, 2L);
        assertThat(load.suite().cases()).isEmpty();
        assertThat(load.problems())
                .extracting(CaseProblem::type, p -> p.source().line())
                .containsExactly(tuple("case.parse_error", 3));
    }

    @Test
    void a_large_dataset_is_streamed_to_the_scratch_file_not_held_in_memory() throws Exception {
        Path file = dir.resolve("large.jsonl");
        int rows = SpilledCases.Builder.IN_MEMORY_CASES + 500;
        try (BufferedWriter out = Files.newBufferedWriter(file)) {
            for (int i = 0; i < rows; i++) {
                out.write("{\"q\": \"question " + i + "\", \"a\": \"" + i + "\"}\n");
            }
        }

        SuiteLoad load = loader.load(List.of(file), DatasetMapping.of("q", "a"));

        assertThat(load.problems()).isEmpty();
        assertThat(load.suite().cases()).isInstanceOf(SpilledCases.class).hasSize(rows);
        assertThat(load.suite().cases().get(rows - 1).prompt()).isEqualTo("question " + (rows - 1));
    }

    private static JsonNode expected(String answer, String letters) {
        return Json.object().put("answer", answer).put("letters", letters);
    }
}
