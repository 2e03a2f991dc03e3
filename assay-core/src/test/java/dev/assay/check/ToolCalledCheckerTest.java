package dev.assay.check;

import static dev.assay.check.Judge.call;
import static dev.assay.check.Judge.judge;
import static dev.assay.check.Judge.output;
import static dev.assay.check.Judge.transcript;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ToolCalledCheckerTest {
    @TempDir
    Path workspace;

    @Test
    void a_call_of_the_tool_passes() {
        var transcript = transcript(call("c1", "read_file", "{\"path\": \"a.txt\"}"));

        assertThat(judge("tool_called", "\"read_file\"", transcript, workspace).status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void no_call_of_the_tool_fails_as_not_called() {
        var transcript = transcript(call("c1", "list_files", "{}"));
        Verdict verdict = judge("tool_called", "\"read_file\"", transcript, workspace);

        assertThat(verdict.errorType()).isEqualTo("tool_called.not_called");
        assertThat(verdict.detail().get("missing").get(0).asText()).isEqualTo("read_file");
    }

    @Test
    void detail_lists_the_called_tools() {
        var transcript = transcript(call("c1", "list_files", "{}"), call("c2", "read_file", "{}"));
        Verdict verdict = judge("tool_called", "\"read_file\"", transcript, workspace);

        assertThat(verdict.detail().get("called").findValuesAsText("tool")).containsExactly("list_files", "read_file");
    }

    @Test
    void chinese_alias_in_expected_matches_the_canonical_call() {
        var transcript = transcript(call("c1", "read_file", "{}"));

        assertThat(judge("tool_called", "\"读取文件\"", transcript, workspace).status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void alias_used_by_the_model_matches_the_canonical_expectation() {
        var transcript = transcript(call("c1", "执行命令", "{\"command\": \"ls\"}"));

        assertThat(judge("tool_called", "\"execute_command\"", transcript, workspace).status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void every_tool_of_a_list_is_required() {
        var transcript = transcript(call("c1", "read_file", "{}"));
        Verdict verdict = judge("tool_called", "[\"read_file\", \"write_file\"]", transcript, workspace);

        assertThat(verdict.errorType()).isEqualTo("tool_called.not_called");
        assertThat(verdict.detail().get("missing").get(0).asText()).isEqualTo("write_file");
    }

    @Test
    void a_failed_call_still_counts_and_its_outcome_is_recorded() {
        var transcript = transcript(call("c1", "read_file", "{}"), output("c1", "read_file", false));
        Verdict verdict = judge("tool_called", "\"read_file\"", transcript, workspace);

        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(verdict.detail().get("called").get(0).get("ok").asBoolean()).isFalse();
    }

    @Test
    void require_success_ignores_failed_calls() {
        var transcript = transcript(call("c1", "read_file", "{}"), output("c1", "read_file", false));
        Verdict verdict = judge("tool_called", "{\"tool\": \"read_file\", \"require_success\": true}", transcript,
                workspace);

        assertThat(verdict.errorType()).isEqualTo("tool_called.only_failed");
    }

    @Test
    void require_success_passes_on_a_successful_retry() {
        var transcript = transcript(call("c1", "read_file", "{}"), output("c1", "read_file", false),
                call("c2", "read_file", "{}"), output("c2", "read_file", true));

        assertThat(judge("tool_called", "{\"tool\": \"read_file\", \"require_success\": true}", transcript, workspace)
                .status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void mcp_style_names_are_compared_verbatim() {
        var transcript = transcript(call("c1", "weather@forecast", "{}"));

        assertThat(judge("tool_called", "\"weather@forecast\"", transcript, workspace).status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void expected_number_is_rejected_at_create_time() {
        assertThatThrownBy(() -> Judge.checker("tool_called", "7"))
                .isInstanceOfSatisfying(AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("check.invalid_expected"));
    }
}
