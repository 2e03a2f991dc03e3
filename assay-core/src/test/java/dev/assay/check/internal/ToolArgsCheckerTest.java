package dev.assay.check.internal;

import static dev.assay.check.Judge.call;
import static dev.assay.check.Judge.judge;
import static dev.assay.check.Judge.transcript;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.check.CheckContext;
import dev.assay.check.CheckerRegistry;
import dev.assay.check.Judge;
import dev.assay.check.Verdict;
import dev.assay.transcript.Transcript;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ToolArgsCheckerTest {
    private static final String WRITE_A = """
            {"tool": "write_file", "args": {"path": ["a.txt", "./a.txt"], "content": ["x"]}}""";

    @TempDir
    Path workspace;

    private Verdict toolArgs(String expected, Transcript transcript) {
        return judge("tool_args", expected, transcript, workspace);
    }

    @Test
    void a_call_with_acceptable_arguments_passes() {
        Verdict verdict =
                toolArgs(WRITE_A, transcript(call("c1", "write_file", "{\"path\": \"a.txt\", \"content\": \"x\"}")));

        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(verdict.score()).isEqualTo(1.0);
    }

    @Test
    void any_acceptable_value_of_the_list_passes() {
        assertThat(toolArgs(
                                WRITE_A,
                                transcript(call("c1", "write_file", "{\"path\": \"./a.txt\", \"content\": \"x\"}")))
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void detail_carries_the_matched_arguments() {
        Verdict verdict =
                toolArgs(WRITE_A, transcript(call("c1", "write_file", "{\"path\": \"a.txt\", \"content\": \"x\"}")));

        assertThat(verdict.detail().get("matched_args").get("path").asText()).isEqualTo("a.txt");
    }

    @Test
    void the_tool_never_called_scores_zero() {
        Verdict verdict = toolArgs(WRITE_A, transcript(call("c1", "read_file", "{\"path\": \"a.txt\"}")));

        assertThat(verdict.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(verdict.score()).isZero();
        assertThat(verdict.errorType()).isEqualTo("tool_args.tool_not_called");
    }

    @Test
    void right_tool_with_a_wrong_value_gets_partial_credit() {
        Verdict verdict =
                toolArgs(WRITE_A, transcript(call("c1", "write_file", "{\"path\": \"b.txt\", \"content\": \"x\"}")));

        assertThat(verdict.status()).isEqualTo(Verdict.Status.PARTIAL);
        assertThat(verdict.score()).isEqualTo(0.5);
        assertThat(verdict.errorType()).isEqualTo("tool_args.value_error");
    }

    @Test
    void a_missing_argument_is_missing_required() {
        assertThat(toolArgs(WRITE_A, transcript(call("c1", "write_file", "{\"path\": \"a.txt\"}")))
                        .errorType())
                .isEqualTo("tool_args.missing_required");
    }

    @Test
    void an_argument_listing_empty_string_may_be_omitted() {
        String expected = """
                {"tool": "read_file", "args": {"path": ["a.txt"], "encoding": ["", "utf-8"]}}""";

        assertThat(toolArgs(expected, transcript(call("c1", "read_file", "{\"path\": \"a.txt\"}")))
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void an_optional_argument_when_given_must_be_acceptable() {
        String expected = """
                {"tool": "read_file", "args": {"path": ["a.txt"], "encoding": ["", "utf-8"]}}""";
        var transcript = transcript(call("c1", "read_file", "{\"path\": \"a.txt\", \"encoding\": \"latin-1\"}"));

        assertThat(toolArgs(expected, transcript).errorType()).isEqualTo("tool_args.value_error");
    }

    @Test
    void an_argument_the_expectation_does_not_name_is_unexpected() {
        var transcript =
                transcript(call("c1", "write_file", "{\"path\": \"a.txt\", \"content\": \"x\", \"mode\": \"w\"}"));

        assertThat(toolArgs(WRITE_A, transcript).errorType()).isEqualTo("tool_args.unexpected_param");
    }

    @Test
    void allow_extra_accepts_unnamed_arguments() {
        String expected = """
                {"tool": "write_file", "args": {"path": ["a.txt"]}, "allow_extra": true}""";
        var transcript = transcript(call("c1", "write_file", "{\"path\": \"a.txt\", \"content\": \"x\"}"));

        assertThat(toolArgs(expected, transcript).status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void a_string_where_a_number_is_expected_is_a_type_error() {
        String expected = """
                {"tool": "math.hypot", "args": {"x": [4], "y": [5]}}""";
        var transcript = transcript(call("c1", "math.hypot", "{\"x\": \"4\", \"y\": 5}"));

        assertThat(toolArgs(expected, transcript).errorType()).isEqualTo("tool_args.type_error");
    }

    @Test
    void an_integer_is_promoted_where_a_float_is_expected() {
        String expected = """
                {"tool": "scale", "args": {"factor": [2.0]}}""";

        assertThat(toolArgs(expected, transcript(call("c1", "scale", "{\"factor\": 2}")))
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void a_float_where_an_integer_is_expected_is_a_type_error() {
        String expected = """
                {"tool": "repeat", "args": {"times": [3]}}""";

        assertThat(toolArgs(expected, transcript(call("c1", "repeat", "{\"times\": 3.5}")))
                        .errorType())
                .isEqualTo("tool_args.type_error");
    }

    @Test
    void strings_are_compared_after_normalisation_by_default() {
        String expected = """
                {"tool": "search", "args": {"query": ["New York"]}}""";

        assertThat(toolArgs(expected, transcript(call("c1", "search_files", "{\"query\": \" new york \"}")))
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void exact_strings_option_compares_character_for_character() {
        String expected = """
                {"tool": "search_files", "args": {"query": ["New York"]}, "strings": "exact"}""";

        assertThat(toolArgs(expected, transcript(call("c1", "search_files", "{\"query\": \"new york\"}")))
                        .errorType())
                .isEqualTo("tool_args.value_error");
    }

    @Test
    void bfcl_strings_option_ignores_punctuation() {
        String expected = """
                {"tool": "search_files", "args": {"query": ["new-york"]}, "strings": "bfcl"}""";

        assertThat(toolArgs(expected, transcript(call("c1", "search_files", "{\"query\": \"New York\"}")))
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void a_list_value_is_compared_element_by_element() {
        String expected = """
                {"tool": "sum", "args": {"numbers": [[1, 2, 3]]}}""";

        assertThat(toolArgs(expected, transcript(call("c1", "sum", "{\"numbers\": [1, 2, 4]}")))
                        .errorType())
                .isEqualTo("tool_args.value_error");
    }

    @Test
    void a_nested_object_is_matched_as_a_parameter_map() {
        String expected = """
                {"tool": "configure", "args": {"options": {"mode": ["fast", "quick"], "level": [1]}}}""";
        var transcript = transcript(call("c1", "configure", "{\"options\": {\"mode\": \"quick\", \"level\": 1}}"));

        assertThat(toolArgs(expected, transcript).status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void a_nested_error_names_the_nested_parameter() {
        String expected = """
                {"tool": "configure", "args": {"options": {"mode": ["fast"], "level": [1]}}}""";
        var transcript = transcript(call("c1", "configure", "{\"options\": {\"mode\": \"fast\"}}"));
        Verdict verdict = toolArgs(expected, transcript);

        assertThat(verdict.errorType()).isEqualTo("tool_args.missing_required");
        assertThat(verdict.detail()
                        .get("attempts")
                        .get(0)
                        .get("errors")
                        .get(0)
                        .get("param")
                        .asText())
                .isEqualTo("options.level");
    }

    @Test
    void a_later_correct_retry_passes() {
        var transcript = transcript(
                call("c1", "write_file", "{\"path\": \"b.txt\", \"content\": \"x\"}"),
                call("c2", "write_file", "{\"path\": \"a.txt\", \"content\": \"x\"}"));

        assertThat(toolArgs(WRITE_A, transcript).status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void detail_records_every_attempt_with_its_errors() {
        var transcript = transcript(
                call("c1", "write_file", "{\"path\": \"b.txt\", \"content\": \"x\"}"),
                call("c2", "write_file", "{\"path\": \"c.txt\"}"));
        Verdict verdict = toolArgs(WRITE_A, transcript);

        assertThat(verdict.detail().get("attempts")).hasSize(2);
        assertThat(verdict.detail().get("attempts").get(1).get("errors")).hasSize(2);
    }

    @Test
    void arguments_encoded_as_a_raw_json_string_are_decoded() {
        var transcript = transcript(
                call("c1", "write_file", "{\"raw\": \"{\\\"path\\\": \\\"a.txt\\\", \\\"content\\\": \\\"x\\\"}\"}"));

        assertThat(toolArgs(WRITE_A, transcript).status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void reference_required_form_is_a_subset_match() {
        String expected = """
                {"tool": "write_file", "required": {"path": "a.txt"}}""";
        var transcript = transcript(call("c1", "写入文件", "{\"path\": \"a.txt\", \"content\": \"anything\"}"));

        assertThat(toolArgs(expected, transcript).status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void reference_required_form_reports_a_missing_key() {
        String expected = """
                {"tool": "write_file", "required": {"path": "a.txt", "content": "x"}}""";
        var transcript = transcript(call("c1", "write_file", "{\"path\": \"a.txt\"}"));
        Verdict verdict = toolArgs(expected, transcript);

        assertThat(verdict.status()).isEqualTo(Verdict.Status.PARTIAL);
        assertThat(verdict.errorType()).isEqualTo("tool_args.missing_required");
    }

    @Test
    void parallel_calls_match_in_any_order() {
        String expected = """
                [{"tool": "read_file", "args": {"path": ["a.txt"]}},
                 {"tool": "read_file", "args": {"path": ["b.txt"]}}]""";
        var transcript = transcript(
                call("c1", "read_file", "{\"path\": \"b.txt\"}"), call("c2", "read_file", "{\"path\": \"a.txt\"}"));
        Verdict verdict = toolArgs(expected, transcript);

        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(verdict.detail()
                        .get("pairings")
                        .get(0)
                        .get("matched_call_id")
                        .asText())
                .isEqualTo("c2");
    }

    @Test
    void parallel_calls_of_different_tools_all_match() {
        String expected = """
                [{"tool": "write_file", "args": {"path": ["a.txt"], "content": ["x"]}},
                 {"tool": "read_file", "args": {"path": ["a.txt"]}}]""";
        var transcript = transcript(
                call("c1", "read_file", "{\"path\": \"a.txt\"}"),
                call("c2", "write_file", "{\"path\": \"a.txt\", \"content\": \"x\"}"),
                call("c3", "list_files", "{}"));

        assertThat(toolArgs(expected, transcript).status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void parallel_calls_with_one_wrong_argument_get_partial_credit() {
        String expected = """
                [{"tool": "read_file", "args": {"path": ["a.txt"]}},
                 {"tool": "read_file", "args": {"path": ["b.txt"]}}]""";
        var transcript = transcript(
                call("c1", "read_file", "{\"path\": \"a.txt\"}"), call("c2", "read_file", "{\"path\": \"c.txt\"}"));
        Verdict verdict = toolArgs(expected, transcript);

        assertThat(verdict.score()).isEqualTo(0.5);
        assertThat(verdict.errorType()).isEqualTo("tool_args.value_error");
    }

    @Test
    void parallel_calls_with_too_few_calls_are_wrong_count() {
        String expected = """
                [{"tool": "read_file", "args": {"path": ["a.txt"]}},
                 {"tool": "read_file", "args": {"path": ["b.txt"]}}]""";
        Verdict verdict = toolArgs(expected, transcript(call("c1", "read_file", "{\"path\": \"a.txt\"}")));

        assertThat(verdict.errorType()).isEqualTo("tool_args.wrong_count");
        assertThat(verdict.score()).isEqualTo(0.5);
    }

    @Test
    void parallel_calls_with_an_extra_call_are_wrong_count() {
        String expected = """
                [{"tool": "read_file", "args": {"path": ["a.txt"]}}]""";
        var transcript = transcript(
                call("c1", "read_file", "{\"path\": \"a.txt\"}"), call("c2", "read_file", "{\"path\": \"a.txt\"}"));

        assertThat(toolArgs(expected, transcript).errorType()).isEqualTo("tool_args.wrong_count");
    }

    @Test
    void parallel_calls_with_a_tool_never_called_score_zero() {
        String expected = """
                [{"tool": "read_file", "args": {"path": ["a.txt"]}},
                 {"tool": "write_file", "args": {"path": ["a.txt"]}}]""";
        Verdict verdict = toolArgs(expected, transcript(call("c1", "read_file", "{\"path\": \"a.txt\"}")));

        assertThat(verdict.errorType()).isEqualTo("tool_args.tool_not_called");
        assertThat(verdict.score()).isZero();
    }

    @Test
    void expected_with_both_args_and_required_is_rejected_at_create_time() {
        assertThatThrownBy(
                        () -> Judge.checker("tool_args", "{\"tool\": \"write_file\", \"args\": {}, \"required\": {}}"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("check.invalid_expected"));
    }

    @Test
    void expected_without_a_tool_is_rejected_at_create_time() {
        assertThatThrownBy(() -> Judge.checker("tool_args", "{\"args\": {\"path\": [\"a\"]}}"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().details()).containsEntry("field", "tool"));
    }

    @Test
    void an_argument_with_no_acceptable_value_is_rejected_at_create_time() {
        assertThatThrownBy(() -> Judge.checker("tool_args", "{\"tool\": \"read_file\", \"args\": {\"path\": []}}"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().details()).containsEntry("field", "args.path"));
    }

    @Test
    void unknown_strings_mode_is_rejected_at_create_time() {
        assertThatThrownBy(() -> Judge.checker(
                        "tool_args",
                        "{\"tool\": \"read_file\", \"args\": {\"path\": [\"a\"]}, \"strings\": \"fuzzy\"}"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().details()).containsEntry("field", "strings"));
    }

    /**
     * Judges with a case that declares {@code geometry.area(radius: integer required, units: string)} and
     * {@code search}.
     */
    private Verdict withDeclared(String expected, Transcript transcript) throws InterruptedException {
        var attributes = (com.fasterxml.jackson.databind.node.ObjectNode) dev.assay.Json.parse("""
                {"tools": [{"name": "geometry.area", "parameters": {"type": "dict", "properties": {
                              "radius": {"type": "integer"}, "units": {"type": "string"}}, "required": ["radius"]}},
                           {"name": "search", "parameters": {"type": "dict", "properties": {"q": {"type": "string"}}}}]}""");
        var check = dev.assay.cases.Check.of("tool_args", dev.assay.Json.parse(expected));
        var evalCase = new dev.assay.cases.Case(
                "c",
                "tool",
                "",
                "p",
                1.0,
                null,
                java.util.List.of(check),
                java.util.List.of(),
                java.util.List.of(),
                java.util.Map.of(),
                attributes,
                null);
        return CheckerRegistry.builtins()
                .create(check)
                .check(CheckContext.of(evalCase, transcript, new dev.assay.tools.Workspace(workspace)));
    }

    @Test
    void the_declared_schema_rejects_a_type_the_acceptable_values_would_let_through() throws Exception {
        String expected = "{\"tool\": \"geometry.area\", \"args\": {\"radius\": [5, \"5\"]}}";

        assertThat(withDeclared(expected, transcript(call("c1", "geometry.area", "{\"radius\": 5}")))
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
        Verdict verdict = withDeclared(expected, transcript(call("c1", "geometry.area", "{\"radius\": \"5\"}")));
        assertThat(verdict.status()).isEqualTo(Verdict.Status.PARTIAL);
        assertThat(verdict.errorType()).isEqualTo("tool_args.type_error");
    }

    @Test
    void a_schema_required_parameter_must_be_given_even_when_the_expectation_lets_it_be_left_out() throws Exception {
        String expected = "{\"tool\": \"geometry.area\", \"args\": {\"radius\": [\"\", 5], \"units\": [\"cm\"]}}";

        Verdict verdict = withDeclared(expected, transcript(call("c1", "geometry.area", "{\"units\": \"cm\"}")));

        assertThat(verdict.errorType()).isEqualTo("tool_args.missing_required");
        assertThat(verdict.detail().at("/attempts/0/errors/0/param").asText()).isEqualTo("radius");
    }

    @Test
    void a_declared_function_keeps_its_name_instead_of_the_alias_table() throws Exception {
        String expected = "{\"tool\": \"search\", \"args\": {\"q\": [\"x\"]}}";

        // grep is an alias of search_files, and so is search; a declared `search` is neither.
        Verdict verdict = withDeclared(expected, transcript(call("c1", "grep", "{\"q\": \"x\"}")));
        assertThat(verdict.errorType()).isEqualTo("tool_args.tool_not_called");
        assertThat(withDeclared(expected, transcript(call("c1", "search", "{\"q\": \"x\"}")))
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void match_bfcl_takes_no_assay_options_and_a_list_takes_one_match() {
        assertThatThrownBy(() -> Judge.checker(
                        "tool_args", "{\"tool\": \"f\", \"args\": {}, \"match\": \"bfcl\", \"strings\": \"exact\"}"))
                .isInstanceOf(AssayException.class)
                .hasMessageContaining("strings");
        assertThatThrownBy(() -> Judge.checker(
                        "tool_args",
                        "[{\"tool\": \"f\", \"args\": {}, \"match\": \"bfcl\"}," + " {\"tool\": \"g\", \"args\": {}}]"))
                .isInstanceOf(AssayException.class)
                .hasMessageContaining("match");
        assertThatThrownBy(() -> Judge.checker("tool_args", "{\"tool\": \"f\", \"args\": {}, \"match\": \"ast\"}"))
                .isInstanceOf(AssayException.class);
    }

    @Test
    void match_bfcl_counts_every_call_and_fails_without_partial_credit() throws Exception {
        String expected =
                "{\"tool\": \"geometry.area\", \"args\": {\"radius\": [5], \"units\": [\"\"]}, \"match\": \"bfcl\"}";

        Verdict extra = withDeclared(
                expected,
                transcript(call("c1", "geometry.area", "{\"radius\": 5}"), call("c2", "search", "{\"q\": \"x\"}")));
        assertThat(extra.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(extra.errorType()).isEqualTo("tool_args.wrong_count");
        Verdict wrong = withDeclared(expected, transcript(call("c1", "geometry.area", "{\"radius\": 6}")));
        assertThat(wrong.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(wrong.score()).isZero();
        assertThat(wrong.errorType()).isEqualTo("tool_args.value_error");
    }
}
