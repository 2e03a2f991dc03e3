package dev.assay.cases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.assay.AssayException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SuiteLoaderProblemsTest {

    private final SuiteLoader loader = new SuiteLoader(TestCheckers.registry());

    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private static String good(String id) {
        return "{\"id\": \"%s\", \"dimension\": \"logic\", \"prompt\": \"p\", \"checker\": \"exact\", \"expected\": \"x\"}"
                .formatted(id);
    }

    private List<CaseProblem> problemsOf(String name, String text) throws IOException {
        return loader.load(write(name, text)).problems();
    }

    @Test
    void jsonl_problem_names_the_line() throws IOException {
        var problems = problemsOf(
                "c.jsonl",
                good("a") + "\n\n"
                        + "{\"id\": \"b\", \"prompt\": \"p\", \"checker\": \"exact\", \"expected\": \"x\"}\n");

        assertThat(problems)
                .extracting(CaseProblem::type, p -> p.source().line(), CaseProblem::field)
                .containsExactly(tuple("case.missing_field", 3, "dimension"));
    }

    @Test
    void json_problem_names_the_line_of_its_field() throws IOException {
        var problems = problemsOf("c.json", """
                [
                  %s,
                  {
                    "id": "b",
                    "dimension": "Logic",
                    "prompt": "p", "checker": "exact", "expected": "x"
                  }
                ]
                """.formatted(good("a")));

        assertThat(problems)
                .extracting(CaseProblem::type, p -> p.source().line(), CaseProblem::field)
                .containsExactly(tuple("case.invalid_field", 5, "dimension"));
    }

    @Test
    void yaml_billion_laughs_is_refused_naming_file_and_line() throws IOException {
        var problems = problemsOf("laughs.yaml", dev.assay.testing.HostileYaml.BILLION_LAUGHS);

        assertThat(problems).singleElement().satisfies(problem -> {
            assertThat(problem.type()).isEqualTo("case.parse_error");
            assertThat(problem.source().file()).endsWith("laughs.yaml");
            assertThat(problem.source().line()).isBetween(2, 10);
            assertThat(problem.message()).contains("billion laughs");
        });
    }

    @Test
    void yaml_problem_names_the_line_of_its_field() throws IOException {
        var problems = problemsOf("c.yaml", """
                cases:
                  - id: a
                    dimension: logic
                    prompt: p
                    checker: exact
                    expected: x
                  - id: b
                    dimension: logic
                    prompt: p
                    weight: -1
                    checker: exact
                    expected: x
                """);

        assertThat(problems)
                .extracting(CaseProblem::type, p -> p.source().line(), CaseProblem::field)
                .containsExactly(tuple("case.invalid_field", 10, "weight"));
    }

    @Test
    void a_nested_field_is_reported_at_the_line_of_its_case_field_and_the_loaded_case_at_its_first_line()
            throws IOException {
        Path file = write("c.yaml", """
                cases:
                  - id: a
                    dimension: logic
                    prompt: p
                    checks:
                      - checker: exact
                        expected: x
                      - checker: nope
                  - id: b
                    dimension: logic
                    prompt: p
                    checker: exact
                    expected: x
                """);

        var load = loader.load(file);

        assertThat(load.problems())
                .extracting(CaseProblem::type, p -> p.source().line(), CaseProblem::field)
                .containsExactly(tuple("plugin.unknown", 5, "checks[1].checker"));
        assertThat(load.suite().cases().getFirst().source().line()).isEqualTo(9);
    }

    @Test
    void a_misspelt_field_is_named_with_the_field_meant_at_its_own_line() throws IOException {
        var problems = problemsOf("c.yaml", """
                cases:
                  - id: a
                    dimension: logic
                    promt: What is 2+2?
                    chekcer: exact
                    expected: "4"
                """);

        assertThat(problems)
                .extracting(CaseProblem::type, p -> p.source().line(), CaseProblem::field, CaseProblem::message)
                .containsExactly(
                        tuple("case.missing_field", 4, "prompt", "unknown field 'promt'; did you mean 'prompt'?"),
                        tuple("case.missing_field", 5, "checker", "unknown field 'chekcer'; did you mean 'checker'?"));
    }

    @Test
    void every_problem_of_a_case_is_reported_at_once() throws IOException {
        var problems = problemsOf("c.json", """
                [{"id": "a", "dimension": 3, "language": "not a tag", "timeout_s": 0, "tags": "x",
                  "checks": [{"checker": "nope"}, {"checker": "regex", "expected": "("}, {"expected": "y"}]}]
                """);

        assertThat(problems)
                .extracting(CaseProblem::type, CaseProblem::field)
                .containsExactlyInAnyOrder(
                        tuple("case.invalid_field", "dimension"),
                        tuple("case.invalid_field", "language"),
                        tuple("case.missing_field", "prompt"),
                        tuple("case.invalid_field", "timeout_s"),
                        tuple("case.invalid_field", "tags"),
                        tuple("plugin.unknown", "checks[0].checker"),
                        tuple("check.invalid_expected", "checks[1].expected"),
                        tuple("case.missing_field", "checks[2].checker"));
        assertThat(problems).allSatisfy(problem -> assertThat(problem.caseId()).isEqualTo("a"));
    }

    @Test
    void problems_across_several_cases_and_files_are_all_reported() throws IOException {
        write("a.jsonl", "{\"id\": \"a\"}\n" + good("b") + "\n");
        write("b.json", "[{\"id\": \"c\", \"dimension\": \"logic\", \"prompt\": \"p\"}]");

        SuiteLoad load = loader.load(dir);

        assertThat(load.problems())
                .extracting(p -> p.source().file(), CaseProblem::caseId, CaseProblem::field)
                .containsExactly(
                        tuple(dir.resolve("a.jsonl").toString(), "a", "dimension"),
                        tuple(dir.resolve("a.jsonl").toString(), "a", "prompt"),
                        tuple(dir.resolve("a.jsonl").toString(), "a", "checker"),
                        tuple(dir.resolve("b.json").toString(), "c", "checker"));
        assertThat(load.suite().cases()).extracting(Case::id).containsExactly("b");
    }

    @Test
    void a_negative_version_is_named_as_given() throws IOException {
        var problems = problemsOf("v.json", "{\"version\": -1, \"cases\": [" + good("a") + "]}");

        assertThat(problems)
                .singleElement()
                .satisfies(problem -> assertThat(problem.message()).contains("`version` is -1"));
    }

    @Test
    void an_empty_jsonl_file_is_an_invalid_file_as_an_empty_json_file_is() throws IOException {
        assertThat(problemsOf("blank.jsonl", "\n  \n"))
                .extracting(CaseProblem::type, CaseProblem::message)
                .containsExactly(tuple("suite.invalid_file", "the file is empty"));
        assertThat(problemsOf("empty.json", ""))
                .extracting(CaseProblem::type, CaseProblem::message)
                .containsExactly(tuple("suite.invalid_file", "the file is empty"));
    }

    @Test
    void a_value_too_large_for_the_parser_is_named_without_the_parsers_internals() throws IOException {
        String huge = "x".repeat(20_000_001);
        var problems = problemsOf(
                "big.jsonl", good("a") + "\n{\"id\": \"b\", \"dimension\": \"logic\", \"prompt\": \"" + huge + "\"}\n");

        assertThat(problems).singleElement().satisfies(problem -> {
            assertThat(problem.source().line()).isEqualTo(2);
            assertThat(problem.message())
                    .startsWith("too large for the parser: ")
                    .doesNotContain("StreamReadConstraints");
        });
    }

    @Test
    void missing_id_is_a_missing_field() throws IOException {
        var problems = problemsOf(
                "c.jsonl",
                "{\"dimension\": \"logic\", \"prompt\": \"p\", \"checker\": \"exact\", \"expected\": \"x\"}\n");

        assertThat(problems)
                .extracting(CaseProblem::type, CaseProblem::field)
                .containsExactly(tuple("case.missing_field", "id"));
    }

    @Test
    void case_that_is_not_an_object_is_an_invalid_shape() throws IOException {
        var problems = problemsOf("c.json", "[\"just text\"]");

        assertThat(problems).extracting(CaseProblem::type).containsExactly("case.invalid_shape");
    }

    @Test
    void duplicate_id_keeps_the_first_and_names_the_second() throws IOException {
        Path file = write("c.jsonl", good("a") + "\n" + good("a") + "\n");

        SuiteLoad load = loader.load(file);

        assertThat(load.problems())
                .extracting(CaseProblem::type, p -> p.source().line())
                .containsExactly(tuple("case.duplicate_id", 2));
        assertThat(load.suite().cases()).extracting(c -> c.source().line()).containsExactly(1);
    }

    @Test
    void duplicate_ids_are_found_across_files() throws IOException {
        write("a.jsonl", good("same") + "\n");
        write("b.jsonl", good("same") + "\n");

        assertThat(loader.load(dir).problems())
                .extracting(CaseProblem::type, p -> p.source().file())
                .containsExactly(
                        tuple("case.duplicate_id", dir.resolve("b.jsonl").toString()));
    }

    @Test
    void unknown_checker_is_a_plugin_unknown_on_the_checker_field() throws IOException {
        var problems = problemsOf(
                "c.jsonl",
                "{\"id\": \"a\", \"dimension\": \"logic\", \"prompt\": \"p\", \"checker\": \"fuzzy\", \"expected\": \"x\"}\n");

        assertThat(problems)
                .extracting(CaseProblem::type, CaseProblem::field)
                .containsExactly(tuple("plugin.unknown", "checker"));
        assertThat(problems.getFirst().toString()).containsOnlyOnce("exact");
    }

    @Test
    void a_misspelt_checker_is_named_with_the_checker_meant_and_the_known_ones_listed_once() throws IOException {
        var problems = problemsOf(
                "c.jsonl",
                "{\"id\": \"a\", \"dimension\": \"logic\", \"prompt\": \"p\", \"checker\": \"contain\", \"expected\": \"x\"}\n");

        assertThat(problems).singleElement().satisfies(problem -> {
            assertThat(problem.type()).isEqualTo("plugin.unknown");
            assertThat(problem.message()).contains("unknown checker 'contain'; did you mean 'contains'?");
            assertThat(problem.toString()).containsOnlyOnce("tool_called");
        });
    }

    @Test
    void expected_refused_by_the_checker_is_an_invalid_expected() throws IOException {
        var problems = problemsOf(
                "c.jsonl",
                "{\"id\": \"a\", \"dimension\": \"logic\", \"prompt\": \"p\", \"checker\": \"choice\", \"expected\": 7}\n");

        assertThat(problems)
                .extracting(CaseProblem::type, CaseProblem::field, CaseProblem::expected)
                .containsExactly(tuple("check.invalid_expected", "expected", "a letter or a list of letters"));
    }

    @Test
    void checker_and_checks_together_are_refused() throws IOException {
        var problems = problemsOf(
                "c.jsonl",
                "{\"id\": \"a\", \"dimension\": \"logic\", \"prompt\": \"p\", \"checker\": \"exact\", \"expected\": \"x\", \"checks\": []}\n");

        assertThat(problems)
                .extracting(CaseProblem::type, CaseProblem::field)
                .containsExactly(tuple("case.invalid_field", "checks"));
    }

    @Test
    void seeded_file_outside_the_workspace_is_refused() throws IOException {
        var problems = problemsOf(
                "c.jsonl",
                "{\"id\": \"a\", \"dimension\": \"logic\", \"prompt\": \"p\", \"checker\": \"exact\", \"expected\": \"x\", \"files\": {\"../up.txt\": \"x\", \"/abs.txt\": \"y\"}}\n");

        assertThat(problems)
                .extracting(CaseProblem::type, CaseProblem::field)
                .containsExactly(
                        tuple("case.invalid_field", "files.../up.txt"), tuple("case.invalid_field", "files./abs.txt"));
    }

    @Test
    void seeded_file_paths_the_case_could_not_write_when_it_runs_are_refused_at_load() throws IOException {
        String longName = "n".repeat(5000);
        var problems = problemsOf(
                "c.jsonl",
                "{\"id\": \"a\", \"dimension\": \"logic\", \"prompt\": \"p\", \"checker\": \"exact\", "
                        + "\"expected\": \"x\", \"files\": {\"nul\\u0000.txt\": \"x\", \".\": \"x\", \"~/x\": \"x\", "
                        + "\"" + longName + "\": \"x\", \"a\": \"x\", \"a/b\": \"x\", \"ok/c.txt\": \"x\"}}\n");

        assertThat(problems)
                .extracting(CaseProblem::type, CaseProblem::caseId, CaseProblem::field)
                .containsExactlyInAnyOrder(
                        tuple("case.invalid_field", "a", "files.nul\u0000.txt"),
                        tuple("case.invalid_field", "a", "files.."),
                        tuple("case.invalid_field", "a", "files.~/x"),
                        tuple("case.invalid_field", "a", "files." + longName),
                        tuple("case.invalid_field", "a", "files.a"));
        assertThat(problems)
                .allSatisfy(problem -> assertThat(problem.source().line()).isEqualTo(1));
    }

    @Test
    void an_expected_value_larger_than_the_cap_is_refused_at_load_naming_its_case_and_field() throws IOException {
        String item = "\"" + "x".repeat(1000) + "\"";
        String large = String.join(", ", java.util.Collections.nCopies(1100, item));
        var problems = problemsOf(
                "c.jsonl",
                "{\"id\": \"big\", \"dimension\": \"logic\", \"prompt\": \"p\", \"checks\": ["
                        + "{\"checker\": \"exact\", \"expected\": \"x\"}, "
                        + "{\"checker\": \"contains\", \"expected\": [" + large + "]}]}\n");

        assertThat(problems)
                .extracting(CaseProblem::type, CaseProblem::caseId, CaseProblem::field)
                .containsExactly(tuple("suite.expected_too_large", "big", "checks[1].expected"));
    }

    @Test
    void unparsable_json_file_gives_one_problem_with_its_line_and_the_others_still_load() throws IOException {
        write("a.json", "[\n  " + good("a") + ",\n  {\"id\": \"b\",,}\n]\n");
        write("b.jsonl", good("c") + "\n");

        SuiteLoad load = loader.load(dir);

        assertThat(load.problems())
                .extracting(
                        CaseProblem::type,
                        p -> p.source().file(),
                        p -> p.source().line())
                .containsExactly(tuple("case.parse_error", dir.resolve("a.json").toString(), 3));
        assertThat(load.suite().cases()).extracting(Case::id).containsExactly("c");
    }

    @Test
    void unparsable_yaml_file_gives_a_parse_error_with_its_line() throws IOException {
        var problems = problemsOf("c.yaml", "- id: a\n  dimension: logic\n  prompt: [unclosed\n");

        assertThat(problems).extracting(CaseProblem::type).containsExactly("case.parse_error");
        assertThat(problems.getFirst().source().line()).isPositive();
    }

    @Test
    void bad_jsonl_line_costs_only_that_line() throws IOException {
        Path file = write("c.jsonl", good("a") + "\n{oops\n" + good("b") + "\n");

        SuiteLoad load = loader.load(file);

        assertThat(load.problems())
                .extracting(CaseProblem::type, p -> p.source().line())
                .containsExactly(tuple("case.parse_error", 2));
        assertThat(load.suite().cases()).extracting(Case::id).containsExactly("a", "b");
    }

    @Test
    void duplicate_keys_are_a_parse_error() throws IOException {
        var problems = problemsOf("c.json", "[{\"id\": \"a\", \"id\": \"b\"}]");

        assertThat(problems).extracting(CaseProblem::type).containsExactly("case.parse_error");
    }

    @Test
    void object_without_cases_is_a_missing_field() throws IOException {
        var problems = problemsOf("c.json", "{\"case_set\": \"x\"}");

        assertThat(problems)
                .extracting(CaseProblem::type, CaseProblem::field)
                .containsExactly(tuple("case.missing_field", "cases"));
    }

    @Test
    void scalar_file_is_an_invalid_file() throws IOException {
        var problems = problemsOf("c.yaml", "just words\n");

        assertThat(problems).extracting(CaseProblem::type).containsExactly("suite.invalid_file");
    }

    @Test
    void file_that_is_not_utf8_is_unreadable_and_the_others_still_load() throws IOException {
        Files.write(dir.resolve("a.json"), new byte[] {'[', (byte) 0xC3, '(', ']'});
        write("b.jsonl", good("b") + "\n");

        SuiteLoad load = loader.load(dir);

        assertThat(load.problems()).extracting(CaseProblem::type).containsExactly("suite.unreadable");
        assertThat(load.suite().cases()).extracting(Case::id).containsExactly("b");
    }

    @Test
    void a_document_that_is_not_utf8_is_refused_naming_the_line_and_byte() throws IOException {
        Path json = writeBytes("a.json", "[\n" + good("a") + ",\n{\"id\": \"caf", "\"}\n]\n");
        // The byte-order mark is no column.
        Path yaml = writeBytes("a.yaml", "\uFEFF- id: caf", "\n");

        assertThat(loader.load(json, yaml).problems())
                .extracting(
                        CaseProblem::type,
                        p -> p.source().file(),
                        p -> p.source().line(),
                        CaseProblem::message)
                .containsExactly(
                        tuple(
                                "suite.unreadable",
                                json.toString(),
                                3,
                                "the file is not valid UTF-8: byte 0xE9 at column 12"),
                        tuple(
                                "suite.unreadable",
                                yaml.toString(),
                                1,
                                "the file is not valid UTF-8: byte 0xE9 at column 10"));
    }

    /** A file of {@code before}, the byte 0xE9 (é in Latin-1, never alone in UTF-8), and {@code after}. */
    private Path writeBytes(String name, String before, String after) throws IOException {
        var bytes = new java.io.ByteArrayOutputStream();
        bytes.writeBytes(before.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        bytes.write(0xE9);
        bytes.writeBytes(after.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return Files.write(dir.resolve(name), bytes.toByteArray());
    }

    @Test
    void a_jsonl_line_that_is_not_utf8_is_dropped_alone_naming_its_line() throws IOException {
        writeBytes(
                "a.jsonl",
                good("a") + "\n" + good("b") + "\n{\"id\": \"caf",
                "\", \"dimension\": \"logic\"}\n" + good("d") + "\n");

        SuiteLoad load = loader.load(dir);

        assertThat(load.suite().cases()).extracting(Case::id).containsExactly("a", "b", "d");
        assertThat(load.suite().cases()).extracting(c -> c.source().line()).containsExactly(1, 2, 4);
        assertThat(load.problems())
                .extracting(
                        CaseProblem::type,
                        p -> p.source().file(),
                        p -> p.source().line(),
                        CaseProblem::message)
                .containsExactly(tuple(
                        "case.parse_error",
                        dir.resolve("a.jsonl").toString(),
                        3,
                        "the line is not valid UTF-8: byte 0xE9 at column 12"));
    }

    @Test
    void jsonl_read_a_line_at_a_time_keeps_line_numbers_across_crlf_a_byte_order_mark_and_a_last_line_without_end()
            throws IOException {
        write("c.jsonl", "\uFEFF" + good("a") + "\r\n\r\n{\"id\": \"b\"}\r\n" + good("c"));

        SuiteLoad load = loader.load(dir);

        assertThat(load.suite().cases()).extracting(Case::id).containsExactly("a", "c");
        assertThat(load.suite().cases()).extracting(c -> c.source().line()).containsExactly(1, 4);
        assertThat(load.problems())
                .extracting(CaseProblem::type, p -> p.source().line())
                .containsOnly(tuple("case.missing_field", 3));
    }

    @Test
    void jsonl_lines_longer_than_the_read_buffer_are_read_whole() throws IOException {
        String longPrompt = "p".repeat(200_000);
        write(
                "c.jsonl",
                good("a") + "\n" + good("b").replace("\"prompt\": \"p\"", "\"prompt\": \"" + longPrompt + "\"") + "\n"
                        + good("c") + "\n");

        SuiteLoad load = loader.load(dir);

        assertThat(load.problems()).isEmpty();
        assertThat(load.suite().cases()).extracting(Case::id).containsExactly("a", "b", "c");
        assertThat(load.suite().cases().get(1).prompt()).isEqualTo(longPrompt);
        assertThat(load.suite().cases().get(2).source().line()).isEqualTo(3);
    }

    @Test
    void jsonl_lines_past_the_first_read_that_are_not_utf8_cost_only_their_line() throws IOException {
        var bytes = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < 5_000; i++) {
            bytes.writeBytes((good("a" + i) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        // A character cut short by the line's end, then one whose continuation byte is missing.
        bytes.writeBytes(new byte[] {'{', '"', (byte) 0xC3, '\r', '\n', '"', (byte) 0xC3, '(', '}', '\n'});
        bytes.writeBytes((good("z") + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Files.write(dir.resolve("a.jsonl"), bytes.toByteArray());

        SuiteLoad load = loader.load(dir);

        assertThat(load.problems())
                .extracting(CaseProblem::type, p -> p.source().line(), CaseProblem::message)
                .containsExactly(
                        tuple("case.parse_error", 5_001, "the line is not valid UTF-8: byte 0xC3 at column 3"),
                        tuple("case.parse_error", 5_002, "the line is not valid UTF-8: byte 0xC3 at column 2"));
        assertThat(load.suite().cases()).hasSize(5_001);
        assertThat(load.suite().cases().getLast().source().line()).isEqualTo(5_003);
    }

    @Test
    void jsonl_characters_split_between_two_reads_are_decoded_whole() throws IOException {
        // Three bytes a character, so some character straddles the end of the 64 KiB read.
        String longPrompt = "\u4f60\u597d".repeat(40_000);
        write(
                "c.jsonl",
                good("a").replace("\"prompt\": \"p\"", "\"prompt\": \"" + longPrompt + "\"") + "\n" + good("b"));

        SuiteLoad load = loader.load(dir);

        assertThat(load.problems()).isEmpty();
        assertThat(load.suite().cases()).extracting(Case::prompt).containsExactly(longPrompt, "p");
    }

    @Test
    void an_id_from_a_file_that_failed_half_way_is_free_for_the_next_file() throws IOException {
        var broken = new StringBuilder(good("x") + "\n");
        for (int i = 0; i < 2_000; i++) {
            broken.append(good("a" + i)).append('\n');
        }
        try (var suite = FailingHalfWay.write(dir, Map.of("b.jsonl", good("x") + "\n"), "a.jsonl", broken.toString())) {
            SuiteLoad load = loader.load(suite.directory());

            assertThat(load.problems())
                    .extracting(CaseProblem::type, p -> p.source().file())
                    .containsExactly(tuple(
                            "suite.unreadable",
                            suite.directory().resolve("a.jsonl").toString()));
            assertThat(load.problems().getFirst().message()).startsWith("cannot read the file: ");
            assertThat(load.suite().cases())
                    .extracting(c -> c.source().file())
                    .containsExactly(suite.directory().resolve("b.jsonl").toString());
        }
    }

    @Test
    void missing_path_is_not_found() {
        var problems = loader.load(dir.resolve("nowhere")).problems();

        assertThat(problems).extracting(CaseProblem::type).containsExactly("suite.not_found");
    }

    @Test
    void directory_without_case_files_is_empty() {
        var problems = loader.load(dir).problems();

        assertThat(problems).extracting(CaseProblem::type).containsExactly("suite.empty");
    }

    @Test
    void invalid_suite_is_refused_unless_invalid_cases_are_skipped() throws IOException {
        Path file = write("c.jsonl", good("a") + "\n{\"id\": \"b\"}\n");
        SuiteLoad load = loader.load(file);

        assertThatThrownBy(() -> load.suite(false))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("suite.invalid"));
        assertThat(load.suite(true).cases()).extracting(Case::id).containsExactly("a");
    }

    @Test
    void refusal_lists_every_problem_in_its_details() throws IOException {
        SuiteLoad load = loader.load(write("c.jsonl", "{\"id\": \"b\"}\n"));

        assertThatThrownBy(load::requireValid).isInstanceOfSatisfying(AssayException.class, e -> {
            List<?> listed = (List<?>) e.problem().details().get("problems");
            assertThat(listed).hasSize(3);
            Map<?, ?> first = (Map<?, ?>) listed.getFirst();
            assertThat(first.get("type")).isEqualTo("case.missing_field");
            assertThat(first.get("line")).isEqualTo(1);
        });
    }

    @Test
    void skipping_invalid_cases_still_refuses_when_none_is_left() throws IOException {
        SuiteLoad load = loader.load(write("c.jsonl", "{\"id\": \"b\"}\n"));

        assertThatThrownBy(() -> load.suite(true)).isInstanceOf(AssayException.class);
    }

    @Test
    void problem_converts_to_a_problem_with_file_line_and_field() throws IOException {
        var problem = problemsOf(
                        "c.jsonl",
                        "{\"id\": \"a\", \"dimension\": \"logic\", \"prompt\": \"p\", \"checker\": \"exact\"}\n")
                .getFirst()
                .toProblem();

        assertThat(problem.type()).isEqualTo("check.invalid_expected");
        assertThat(problem.details())
                .containsEntry("line", 1)
                .containsEntry("case_id", "a")
                .containsEntry("field", "expected")
                .containsKey("file");
    }
}
