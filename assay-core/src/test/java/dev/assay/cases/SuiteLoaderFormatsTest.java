package dev.assay.cases;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.assay.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SuiteLoaderFormatsTest {
    private final SuiteLoader loader = new SuiteLoader(TestCheckers.registry());

    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }

    @Test
    void json_array_of_native_cases_loads() throws IOException {
        Path file = write("cases.json", """
                [
                  {"id": "a", "dimension": "logic", "prompt": "2+2?", "checker": "exact", "expected": "4"},
                  {"id": "b", "dimension": "common", "prompt": "Pick", "checker": "choice", "expected": "B"}
                ]
                """);

        SuiteLoad load = loader.load(file);

        assertThat(load.problems()).isEmpty();
        assertThat(load.suite().cases()).extracting(Case::id).containsExactly("a", "b");
        assertThat(load.suite().cases().get(1).checks()).containsExactly(Check.of("choice", TextNode.valueOf("B")));
    }

    @Test
    void json_object_gives_its_language_to_cases_without_one() throws IOException {
        Path file = write("set.json", """
                {"version": 2, "case_set": "mine", "language": "zh-CN", "cases": [
                  {"id": "a", "dimension": "logic", "prompt": "p", "checker": "exact", "expected": "x"},
                  {"id": "b", "dimension": "logic", "language": "en-US", "prompt": "p", "checker": "exact", "expected": "x"}
                ]}
                """);

        Suite suite = loader.load(file).suite();

        assertThat(suite.cases()).extracting(Case::language).containsExactly("zh-CN", "en-US");
    }

    @Test
    void a_suite_files_sandbox_is_every_cases_that_names_none_and_a_wrong_one_names_its_field() throws IOException {
        Path file = write("repo.json", """
                {"cases": [
                  {"id": "a", "dimension": "logic", "prompt": "p", "checker": "exact", "expected": "x"},
                  {"id": "b", "dimension": "logic", "prompt": "p", "checker": "exact", "expected": "x",
                   "sandbox": {"image": "other:2", "memory_mb": 64}},
                  {"id": "c", "dimension": "logic", "prompt": "p", "checker": "exact", "expected": "x",
                   "sandbox": {"image": "other:2", "network": "host"}}
                ], "sandbox": {"image": "local/repo-task:1", "workdir": "/repo"}}
                """);

        var load = loader.load(file);

        assertThat(load.suite(true).cases())
                .extracting(evalCase ->
                        evalCase.attributes().path("sandbox").path("image").asText())
                .containsExactly("local/repo-task:1", "other:2");
        assertThat(load.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.caseId()).isEqualTo("c");
            assertThat(problem.field()).isEqualTo("sandbox.network");
        });
    }

    @Test
    void blank_case_language_falls_back_to_the_file_language() throws IOException {
        Path file = write("set.yaml", """
                language: en-US
                cases:
                  - {id: a, dimension: logic, language: "", prompt: p, checker: exact, expected: x}
                """);

        assertThat(loader.load(file).suite().cases().getFirst().language()).isEqualTo("en-US");
    }

    @Test
    void suite_is_named_after_the_declared_case_set() throws IOException {
        Path file = write("set.json", """
                {"case_set": "mine", "cases": [{"id": "a", "dimension": "logic", "prompt": "p", "checker": "exact", "expected": "x"}]}
                """);

        assertThat(loader.load(file).suite().name()).isEqualTo("mine");
    }

    @Test
    void suite_without_case_set_is_named_after_the_directory() throws IOException {
        write("pack/a.jsonl", """
                {"id": "a", "dimension": "logic", "prompt": "p", "checker": "exact", "expected": "x"}
                """);

        assertThat(loader.load(dir.resolve("pack")).suite().name()).isEqualTo("pack");
    }

    @Test
    void jsonl_reads_one_case_per_line_and_ignores_blank_lines() throws IOException {
        Path file = write("cases.jsonl", """
                {"id": "a", "dimension": "logic", "prompt": "p", "checker": "exact", "expected": "x"}

                {"id": "b", "dimension": "logic", "prompt": "p", "checker": "exact", "expected": "y"}
                """);

        SuiteLoad load = loader.load(file);

        assertThat(load.problems()).isEmpty();
        assertThat(load.suite().cases()).extracting(c -> c.source().line()).containsExactly(1, 3);
    }

    @Test
    void yaml_list_loads() throws IOException {
        Path file = write("cases.yaml", """
                - id: a
                  dimension: tool
                  prompt: Read notes.txt
                  checker: tool_called
                  expected: read_file
                  prerequisites: [read_file]
                  tags: [builtin]
                """);

        Case loaded = loader.load(file).suite().cases().getFirst();

        assertThat(loaded.prerequisites()).containsExactly("read_file");
        assertThat(loaded.tags()).containsExactly("builtin");
    }

    @Test
    void yaml_alias_reads_as_the_anchored_value_not_its_name() throws IOException {
        Path file = write("cases.yaml", """
                answers:
                  sum: &ans "42"
                cases:
                  - id: a
                    dimension: logic
                    prompt: 40+2?
                    checker: exact
                    expected: *ans
                """);

        SuiteLoad load = loader.load(file);

        assertThat(load.problems()).isEmpty();
        assertThat(load.suite()
                        .cases()
                        .getFirst()
                        .checks()
                        .getFirst()
                        .expected()
                        .textValue())
                .isEqualTo("42");
    }

    @Test
    void yaml_object_with_cases_loads_with_file_language() throws IOException {
        Path file = write("cases.yml", """
                case_set: yamlset
                language: en-US
                cases:
                  - id: a
                    dimension: logic
                    prompt: p
                    checker: exact
                    expected: x
                """);

        Suite suite = loader.load(file).suite();

        assertThat(suite.name()).isEqualTo("yamlset");
        assertThat(suite.cases().getFirst().language()).isEqualTo("en-US");
    }

    @Test
    void directories_are_read_recursively_in_path_order() throws IOException {
        write(
                "b.json",
                "[{\"id\": \"b\", \"dimension\": \"logic\", \"prompt\": \"p\", \"checker\": \"exact\", \"expected\": \"x\"}]");
        write("a/z.yaml", "- {id: az, dimension: logic, prompt: p, checker: exact, expected: x}\n");
        write(
                "a/y.jsonl",
                "{\"id\": \"ay\", \"dimension\": \"logic\", \"prompt\": \"p\", \"checker\": \"exact\", \"expected\": \"x\"}\n");
        write("notes.txt", "not a case file");

        Suite suite = loader.load(dir).suite();

        assertThat(suite.cases()).extracting(Case::id).containsExactly("ay", "az", "b");
        assertThat(suite.sources()).hasSize(3);
    }

    @Test
    void omitted_optional_fields_take_their_defaults() throws IOException {
        Path file = write(
                "c.json",
                "[{\"id\": \"a\", \"dimension\": \"logic\", \"prompt\": \"p\", \"checker\": \"exact\", \"expected\": \"x\"}]");

        Case loaded = loader.load(file).suite().cases().getFirst();

        assertThat(loaded.weight()).isEqualTo(1.0);
        assertThat(loaded.timeout()).isNull();
        assertThat(loaded.language()).isEmpty();
        assertThat(loaded.files()).isEmpty();
    }

    @Test
    void weight_timeout_and_seeded_files_are_read() throws IOException {
        Path file = write("c.yaml", """
                - id: a
                  dimension: complex
                  prompt: p
                  weight: 2.5
                  timeout_s: 1.5
                  files:
                    data/in.txt: "hello\\n"
                  checker: file_exists
                  expected: out.txt
                """);

        Case loaded = loader.load(file).suite().cases().getFirst();

        assertThat(loaded.weight()).isEqualTo(2.5);
        assertThat(loaded.timeout()).isEqualTo(Duration.ofMillis(1500));
        assertThat(loaded.files()).containsEntry("data/in.txt", "hello\n");
    }

    @Test
    void several_checks_keep_their_weights() throws IOException {
        Path file = write("c.json", """
                [{"id": "a", "dimension": "complex", "prompt": "p", "checks": [
                  {"checker": "file_exists", "expected": "out.txt", "weight": 1},
                  {"checker": "file_contains", "expected": {"path": "out.txt", "contains": "ok"}, "weight": 3}
                ]}]
                """);

        Case loaded = loader.load(file).suite().cases().getFirst();

        assertThat(loaded.checks())
                .extracting(Check::checker, Check::weight)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("file_exists", 1.0),
                        org.assertj.core.groups.Tuple.tuple("file_contains", 3.0));
    }

    @Test
    void unknown_fields_are_kept_as_attributes() throws IOException {
        Path file = write("c.json", """
                [{"id": "a", "dimension": "code", "prompt": "p", "checker": "exact", "expected": "x",
                  "entry_point": "solve", "test_cases": [{"input": 1, "output": 2}]}]
                """);

        Case loaded = loader.load(file).suite().cases().getFirst();

        assertThat(loaded.attributes().path("entry_point").asText()).isEqualTo("solve");
        assertThat(loaded.attributes().path("test_cases")).isEqualTo(Json.parse("[{\"input\": 1, \"output\": 2}]"));
        assertThat(loaded.attributes().has("prompt")).isFalse();
    }

    @Test
    void user_defined_lowercase_dimension_is_accepted() throws IOException {
        Path file = write(
                "c.jsonl",
                "{\"id\": \"a\", \"dimension\": \"safety_v2\", \"prompt\": \"p\", \"checker\": \"exact\", \"expected\": \"x\"}\n");

        assertThat(loader.load(file).isValid()).isTrue();
    }
}
