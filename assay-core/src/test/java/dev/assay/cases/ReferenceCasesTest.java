package dev.assay.cases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.assay.Json;
import dev.assay.check.CheckContext;
import dev.assay.check.CheckerRegistry;
import dev.assay.check.Verdict;
import dev.assay.tools.ToolNames;
import dev.assay.tools.Workspace;
import dev.assay.transcript.Transcript;
import dev.assay.transcript.TranscriptEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The reference server's case shape, inline and with its real files (skipped when shared/data is absent). */
class ReferenceCasesTest {
    private final SuiteLoader loader = new SuiteLoader(TestCheckers.registry());

    @TempDir
    Path dir;

    private Check converted(String checker) throws IOException {
        Path file = Files.writeString(dir.resolve("ref.json"), """
                {"version": 1, "case_set": "default", "language": "en-US", "cases": [
                  {"id": "x", "dimension": "tool", "prompt": "p", "checker": %s}
                ]}
                """.formatted(checker));
        SuiteLoad load = loader.load(file);
        assertThat(load.problems()).isEmpty();
        return load.suite().cases().getFirst().checks().getFirst();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"type\": \"choice\", \"answer\": \"B\"}|choice|\"B\"",
                "{\"type\": \"exact\", \"answer\": \"42\"}|exact|\"42\"",
                "{\"type\": \"contains\", \"text\": \"beta\"}|contains|\"beta\"",
                "{\"type\": \"regex\", \"pattern\": \"^a+$\"}|regex|{\"pattern\": \"^a+$\", \"on_invalid\": \"fail\"}",
                "{\"type\": \"tool_called\", \"tool\": \"读取文件\"}|tool_called|\"读取文件\"",
                "{\"type\": \"tool_args\", \"tool\": \"write_file\", \"required\": {\"path\": \"a.txt\"}}|tool_args|{\"tool\": \"write_file\", \"required\": {\"path\": \"a.txt\"}}",
                "{\"type\": \"file_exists\", \"path\": \"eval/{run_id}/a.png\"}|file_exists|{\"path\": \"eval/{run_id}/a.png\", \"type\": \"any\"}",
                "{\"type\": \"file_contains\", \"path\": \"o.txt\", \"text\": \"beta\"}|file_contains|{\"path\": \"o.txt\", \"contains\": \"beta\"}",
                "{\"type\": \"json_contains\", \"path\": \"r.json\", \"required\": {\"count\": 3}}|json_contains|{\"path\": \"r.json\", \"required\": {\"count\": 3}}",
            })
    void tagged_checker_becomes_a_check(String checker, String name, String expected) throws IOException {
        Check check = converted(checker);

        assertThat(check.checker()).isEqualTo(name);
        assertThat(check.expected()).isEqualTo(Json.parse(expected));
    }

    @Test
    void reference_file_brings_the_reference_fixtures() throws IOException {
        Path file = Files.writeString(dir.resolve("ref.json"), """
                {"cases": [{"id": "x", "dimension": "tool", "prompt": "p", "checker": {"type": "tool_called", "tool": "read_file"}}]}
                """);

        Suite suite = loader.load(file).suite();

        assertThat(suite.fixtures())
                .containsEntry("eval/{run_id}/fixtures/alpha.txt", "alpha beta gamma\n")
                .containsEntry("eval/{run_id}/fixtures/list/a.txt", "alpha\n")
                .containsEntry("eval/{run_id}/fixtures/list/b.txt", "beta\n")
                .containsEntry("eval/{run_id}/outputs/replace.txt", "hello world\n")
                .containsEntry("eval/{run_id}/outputs/edit.txt", "line1\nline2\n");
    }

    @Test
    void native_file_has_no_fixtures() throws IOException {
        Path file = Files.writeString(
                dir.resolve("n.jsonl"),
                "{\"id\": \"a\", \"dimension\": \"logic\", \"prompt\": \"p\", \"checker\": \"exact\", \"expected\": \"x\"}\n");

        assertThat(loader.load(file).suite().fixtures()).isEmpty();
    }

    @Test
    void tagged_checker_problems_name_the_inner_field() throws IOException {
        Path file = Files.writeString(dir.resolve("ref.json"), """
                {"cases": [
                  {"id": "a", "dimension": "tool", "prompt": "p", "checker": {"type": "choice"}},
                  {"id": "b", "dimension": "tool", "prompt": "p", "checker": {"type": "telepathy"}},
                  {"id": "c", "dimension": "tool", "prompt": "p", "checker": {"answer": "A"}},
                  {"id": "d", "dimension": "tool", "prompt": "p", "checker": {"type": "file_contains", "path": 3}},
                  {"id": "e", "dimension": "tool", "prompt": "p", "checker": {"type": "exact", "answer": "A"}, "expected": "A"}
                ]}
                """);

        assertThat(loader.load(file).problems())
                .extracting(CaseProblem::caseId, CaseProblem::type, CaseProblem::field)
                .containsExactly(
                        tuple("a", "case.missing_field", "checker.answer"),
                        tuple("b", "plugin.unknown", "checker.type"),
                        tuple("c", "case.missing_field", "checker.type"),
                        tuple("d", "case.invalid_field", "checker.path"),
                        tuple("d", "case.missing_field", "checker.text"),
                        tuple("e", "case.invalid_field", "expected"));
    }

    private static Path referenceCases(String commit, String file) {
        return dev.assay.testing.SharedData.require("wunder/" + commit + "/config/evaluation/cases/" + file);
    }

    @ParameterizedTest
    @CsvSource({"default.zh-CN.json,zh-CN", "default.en-US.json,en-US"})
    void final_reference_default_set_loads_without_problems(String file, String language) {
        SuiteLoad load = loader.load(referenceCases("becbe543", file));

        assertThat(load.problems()).isEmpty();
        Suite suite = load.suite();
        assertThat(suite.name()).isEqualTo("default");
        assertThat(suite.cases())
                .hasSize(21)
                .allSatisfy(c -> assertThat(c.language()).isEqualTo(language));
        assertThat(suite.cases()).extracting(Case::dimension).containsOnly("tool", "logic", "common", "complex");
        assertThat(suite.cases().stream()
                        .filter(c -> c.dimension().equals("tool"))
                        .count())
                .isEqualTo(7);
        assertThat(suite.fixtures()).hasSize(5);
    }

    @Test
    void final_reference_cases_convert_to_the_documented_checks() {
        Suite suite =
                loader.load(referenceCases("becbe543", "default.en-US.json")).suite();

        assertThat(check(suite, "logic_5")).isEqualTo(new Check("choice", Json.parse("\"C\""), 1.0));
        assertThat(check(suite, "tool_search_content").checker()).isEqualTo("tool_called");
        assertThat(ToolNames.canonical(
                        check(suite, "tool_search_content").expected().textValue()))
                .isEqualTo(ToolNames.SEARCH_FILES);
        assertThat(check(suite, "complex_report_json"))
                .isEqualTo(new Check(
                        "json_contains",
                        Json.parse(
                                "{\"path\": \"eval/{run_id}/outputs/report.json\", \"required\": {\"status\": \"ok\", \"count\": 3}}"),
                        1.0));
        assertThat(check(suite, "complex_summary"))
                .isEqualTo(new Check(
                        "file_contains",
                        Json.parse("{\"path\": \"eval/{run_id}/outputs/complex_summary.txt\", \"contains\": \"beta\"}"),
                        1.0));
        assertThat(check(suite, "complex_heart_png").expected().path("path").textValue())
                .isEqualTo("eval/{run_id}/outputs/heart.png");
        assertThat(suite.cases().getFirst().prerequisites()).containsExactly("list_files");
        assertThat(suite.cases().getFirst().tags()).containsExactly("builtin");
    }

    @Test
    void chinese_reference_tool_names_resolve_to_canonical_names() {
        Suite suite =
                loader.load(referenceCases("becbe543", "default.zh-CN.json")).suite();

        List<String> tools = suite.cases().stream()
                .filter(c -> c.dimension().equals("tool"))
                .map(c -> ToolNames.canonical(c.checks().getFirst().expected().textValue()))
                .toList();

        assertThat(tools).contains(ToolNames.READ_FILE, ToolNames.LIST_FILES, ToolNames.EXECUTE_COMMAND);
    }

    @Test
    void reference_office_set_loads_with_its_regex_writing_items() {
        SuiteLoad load = loader.load(referenceCases("95e3e7fe", "office.zh-CN.json"));

        assertThat(load.problems()).isEmpty();
        assertThat(load.suite().name()).isEqualTo("office");
        assertThat(load.suite().cases()).hasSize(14);
        assertThat(load.suite().cases())
                .extracting(c -> c.checks().getFirst().checker())
                .containsOnly("choice", "regex")
                .filteredOn("regex"::equals)
                .hasSize(4);
    }

    /**
     * docs/checkers.md, difference F1: the reference's file_exists passes on a directory; Assay's own shape does not.
     */
    @Test
    void a_reference_file_exists_passes_on_a_directory_and_a_native_one_does_not() throws Exception {
        Path workspace = Files.createDirectories(dir.resolve("ws/eval/outputs/heart.png"));
        Check reference = converted("{\"type\": \"file_exists\", \"path\": \"eval/outputs/heart.png\"}");
        Check nativeShape = Check.of("file_exists", Json.parse("\"eval/outputs/heart.png\""));

        assertThat(judge(reference, "", dir.resolve("ws")).status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(judge(nativeShape, "", dir.resolve("ws")).errorType()).isEqualTo("file.not_regular");
        assertThat(workspace).isDirectory();
    }

    /** docs/checkers.md, difference R2: a pattern Java rejects fails its own case instead of refusing the suite. */
    @Test
    void a_reference_regex_that_does_not_compile_fails_only_its_case() throws Exception {
        Path file = Files.writeString(dir.resolve("bad.json"), """
                {"version": 1, "case_set": "office", "language": "zh-CN", "cases": [
                  {"id": "bad", "dimension": "complex", "prompt": "p", "checker": {"type": "regex", "pattern": "(unclosed"}},
                  {"id": "good", "dimension": "complex", "prompt": "p", "checker": {"type": "regex", "pattern": "^ok$"}}
                ]}
                """);
        SuiteLoad load = new SuiteLoader(CheckerRegistry.builtins()).load(file);

        assertThat(load.problems()).isEmpty();
        assertThat(judge(check(load.suite(), "bad"), "(unclosed", dir).errorType())
                .isEqualTo("regex.invalid_pattern");
        assertThat(judge(check(load.suite(), "good"), "ok", dir).status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void a_native_regex_that_does_not_compile_is_still_reported_at_load() throws IOException {
        Path file = Files.writeString(
                dir.resolve("bad.jsonl"),
                "{\"id\": \"bad\", \"dimension\": \"complex\", \"prompt\": \"p\", \"checker\": \"regex\", "
                        + "\"expected\": \"(unclosed\"}\n");

        assertThat(new SuiteLoader(CheckerRegistry.builtins()).load(file).problems())
                .extracting(CaseProblem::type)
                .containsExactly("check.invalid_expected");
    }

    /** Judges one check; file_exists and regex read only the answer and the workspace, so no case is needed. */
    private static Verdict judge(Check check, String answer, Path workspace) throws InterruptedException {
        return CheckerRegistry.builtins()
                .create(check)
                .check(new CheckContext(
                        null,
                        new Transcript(List.of(new TranscriptEvent.FinalAnswer(Instant.EPOCH, answer))),
                        answer,
                        new Workspace(workspace)));
    }

    private static Check check(Suite suite, String id) {
        return suite.cases().stream()
                .filter(c -> c.id().equals(id))
                .findFirst()
                .orElseThrow()
                .checks()
                .getFirst();
    }

    @Test
    void reference_line_numbers_point_at_each_case() {
        Suite suite =
                loader.load(referenceCases("becbe543", "default.en-US.json")).suite();

        assertThat(suite.cases().getFirst().source().line()).isEqualTo(6);
        assertThat(suite.cases()).extracting(c -> c.source().line()).isSorted().doesNotHaveDuplicates();
    }
}
