package dev.assay.check;

import static dev.assay.check.Judge.judge;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.transcript.Transcript;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code json_contains} and {@code json_schema}. */
class JsonCheckersTest {
    private static final String REPORT_SCHEMA = """
            {"type": "object", "required": ["status", "count"],
             "properties": {"status": {"const": "ok"}, "count": {"type": "integer", "minimum": 0}}}""";

    @TempDir
    Path workspace;

    private void write(String relative, String content) throws IOException {
        Path file = workspace.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    private Verdict onFile(String checker, String expected) {
        return judge(checker, expected, Transcript.EMPTY, workspace);
    }

    private Verdict onAnswer(String checker, String expected, String answer) {
        return judge(checker, expected, Judge.answer(answer), workspace);
    }

    @Test
    void json_contains_passes_when_the_file_holds_the_required_subset() throws IOException {
        write("out/report.json", "{\"status\": \"ok\", \"count\": 3, \"extra\": true}");

        assertThat(onFile(
                                "json_contains",
                                "{\"path\": \"out/report.json\", \"required\": {\"status\": \"ok\", \"count\": 3}}")
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void json_contains_matches_an_integer_with_an_equal_float() throws IOException {
        write("r.json", "{\"count\": 3.0}");

        assertThat(onFile("json_contains", "{\"path\": \"r.json\", \"required\": {\"count\": 3}}")
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void json_contains_reports_where_the_document_differs() throws IOException {
        write("r.json", "{\"status\": \"ok\", \"count\": 4}");
        Verdict verdict =
                onFile("json_contains", "{\"path\": \"r.json\", \"required\": {\"status\": \"ok\", \"count\": 3}}");

        assertThat(verdict.errorType()).isEqualTo("json_contains.mismatch");
        assertThat(verdict.detail().get("mismatch").get("path").asText()).isEqualTo("/count");
    }

    @Test
    void json_contains_treats_arrays_as_ordered_prefixes() throws IOException {
        write("r.json", "{\"items\": [2, 1, 3]}");

        assertThat(onFile("json_contains", "{\"path\": \"r.json\", \"required\": {\"items\": [1, 2]}}")
                        .errorType())
                .isEqualTo("json_contains.mismatch");
    }

    @Test
    void json_contains_accepts_a_longer_array_with_the_required_prefix() throws IOException {
        write("r.json", "{\"items\": [1, 2, 3]}");

        assertThat(onFile("json_contains", "{\"path\": \"r.json\", \"required\": {\"items\": [1, 2]}}")
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void json_contains_fails_on_a_file_that_is_not_json() throws IOException {
        write("r.json", "status: ok");

        assertThat(onFile("json_contains", "{\"path\": \"r.json\", \"required\": {}}")
                        .errorType())
                .isEqualTo("json.invalid");
    }

    @Test
    void json_contains_fails_on_trailing_garbage() throws IOException {
        write("r.json", "{\"status\": \"ok\"} and more");

        assertThat(onFile("json_contains", "{\"path\": \"r.json\", \"required\": {}}")
                        .errorType())
                .isEqualTo("json.invalid");
    }

    @Test
    void json_contains_refuses_a_path_leaving_the_workspace() {
        assertThat(onFile("json_contains", "{\"path\": \"../r.json\", \"required\": {}}")
                        .errorType())
                .isEqualTo("workspace.escape");
    }

    @Test
    void json_contains_without_required_is_rejected_at_create_time() {
        assertThatThrownBy(() -> Judge.checker("json_contains", "{\"path\": \"r.json\"}"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().details()).containsEntry("field", "required"));
    }

    @Test
    void json_schema_passes_for_a_valid_file() throws IOException {
        write("out/report.json", "{\"status\": \"ok\", \"count\": 3}");

        assertThat(onFile("json_schema", "{\"path\": \"out/report.json\", \"schema\": " + REPORT_SCHEMA + "}")
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void json_schema_fails_for_an_invalid_file_and_lists_the_errors() throws IOException {
        write("out/report.json", "{\"status\": \"ok\", \"count\": -1}");
        Verdict verdict = onFile("json_schema", "{\"path\": \"out/report.json\", \"schema\": " + REPORT_SCHEMA + "}");

        assertThat(verdict.errorType()).isEqualTo("json_schema.invalid");
        assertThat(verdict.detail().get("errors").get(0).get("keyword").asText())
                .isEqualTo("minimum");
    }

    @Test
    void json_schema_validates_the_final_answer_when_no_path_is_given() {
        assertThat(onAnswer("json_schema", "{\"schema\": " + REPORT_SCHEMA + "}", "{\"status\": \"ok\", \"count\": 1}")
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void json_schema_takes_a_fenced_json_block_from_the_answer() {
        String answer = "Here is the report:\n```json\n{\"status\": \"ok\", \"count\": 2}\n```\nDone.";

        assertThat(onAnswer("json_schema", "{\"schema\": " + REPORT_SCHEMA + "}", answer)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void json_schema_fails_when_the_answer_is_not_json() {
        assertThat(onAnswer("json_schema", "{\"schema\": " + REPORT_SCHEMA + "}", "status is ok")
                        .errorType())
                .isEqualTo("json.invalid");
    }

    @Test
    void json_schema_uses_draft_2020_12_by_default() {
        // prefixItems exists only from 2020-12 on; under draft 7 it would be ignored and this would pass.
        String schema = "{\"schema\": {\"type\": \"array\", \"prefixItems\": [{\"type\": \"string\"}]}}";

        assertThat(onAnswer("json_schema", schema, "[1]").errorType()).isEqualTo("json_schema.invalid");
    }

    @Test
    void json_schema_honours_an_explicit_dialect() {
        String schema = "{\"schema\": {\"$schema\": \"http://json-schema.org/draft-07/schema#\","
                + " \"type\": \"array\", \"prefixItems\": [{\"type\": \"string\"}]}}";

        assertThat(onAnswer("json_schema", schema, "[1]").status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void json_schema_with_an_invalid_schema_is_rejected_at_create_time() {
        assertThatThrownBy(() -> Judge.checker("json_schema", "{\"schema\": {\"type\": \"strnig\"}}"))
                .isInstanceOfSatisfying(AssayException.class, e -> {
                    assertThat(e.problem().type()).isEqualTo("check.invalid_expected");
                    assertThat(e.problem().details()).containsEntry("field", "schema");
                });
    }

    @Test
    void json_schema_with_an_unknown_dialect_is_rejected_at_create_time() {
        assertThatThrownBy(() -> Judge.checker(
                        "json_schema",
                        "{\"schema\": {\"$schema\": \"https://example.com/my-dialect\", \"type\": \"object\"}}"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("check.invalid_expected"));
    }

    @Test
    void json_schema_without_schema_is_rejected_at_create_time() {
        assertThatThrownBy(() -> Judge.checker("json_schema", "{\"path\": \"a.json\"}"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().details()).containsEntry("field", "schema"));
    }
}
