package dev.assay.check.internal;

import static dev.assay.check.Judge.call;
import static dev.assay.check.Judge.judge;
import static dev.assay.check.Judge.output;
import static dev.assay.check.Judge.transcript;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.check.Judge;
import dev.assay.check.Verdict;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

    /** docs/checkers.md, difference T2: the reference server's aliases at becbe543, each against its Chinese name. */
    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({
        "skill_call, 技能调用",
        "skill_get, 技能调用",
        "update_plan, 计划面板",
        "question_panel, 问询面板",
        "ask_panel, 问询面板",
        "schedule_task, 定时任务",
        "user_world, 用户世界工具",
        "memory_manager, 记忆管理",
        "memory_manage, 记忆管理",
        "a2a_observe, a2a观察",
        "a2a_wait, a2a等待",
        "lsp, LSP查询",
        "subagent_control, 子智能体控制",
        "agent_swarm, 智能体蜂群",
        "swarm_control, 智能体蜂群",
        "node.invoke, 节点调用",
        "node_invoke, 节点调用",
        "ask_panel, question_panel",
        "node.invoke, node_invoke"
    })
    void a_reference_alias_in_expected_matches_a_call_under_its_other_name(String expected, String called) {
        var transcript = transcript(call("c1", called, "{}"));

        assertThat(judge("tool_called", "\"" + expected + "\"", transcript, workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
        assertThat(judge("tool_called", "\"" + called + "\"", transcript(call("c1", expected, "{}")), workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    /**
     * docs/checkers.md, difference T2: the reference dropped these by becbe543; its earlier 8-tool case files use them.
     */
    @Test
    void the_chinese_names_the_reference_dropped_still_match() {
        assertThat(judge("tool_called", "\"替换文本\"", transcript(call("c1", "replace_text", "{}")), workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
        assertThat(judge("tool_called", "\"编辑文件\"", transcript(call("c1", "edit_file", "{}")), workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void a_reference_alias_does_not_match_another_tool() {
        var transcript = transcript(call("c1", "技能调用", "{}"));

        assertThat(judge("tool_called", "\"update_plan\"", transcript, workspace)
                        .errorType())
                .isEqualTo("tool_called.not_called");
    }

    @Test
    void alias_used_by_the_model_matches_the_canonical_expectation() {
        var transcript = transcript(call("c1", "执行命令", "{\"command\": \"ls\"}"));

        assertThat(judge("tool_called", "\"execute_command\"", transcript, workspace)
                        .status())
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
        Verdict verdict =
                judge("tool_called", "{\"tool\": \"read_file\", \"require_success\": true}", transcript, workspace);

        assertThat(verdict.errorType()).isEqualTo("tool_called.only_failed");
    }

    @Test
    void require_success_passes_on_a_successful_retry() {
        var transcript = transcript(
                call("c1", "read_file", "{}"),
                output("c1", "read_file", false),
                call("c2", "read_file", "{}"),
                output("c2", "read_file", true));

        assertThat(judge("tool_called", "{\"tool\": \"read_file\", \"require_success\": true}", transcript, workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void mcp_style_names_are_compared_verbatim() {
        var transcript = transcript(call("c1", "weather@forecast", "{}"));

        assertThat(judge("tool_called", "\"weather@forecast\"", transcript, workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void expected_number_is_rejected_at_create_time() {
        assertThatThrownBy(() -> Judge.checker("tool_called", "7"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("check.invalid_expected"));
    }
}
