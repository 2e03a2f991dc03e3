package dev.assay.subject.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.model.ToolCallRequest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class TextToolCallsTest {
    private static JsonNode json(String text) {
        return Json.parse(text);
    }

    @Test
    void reads_one_tool_call_block() {
        List<ToolCallRequest> calls = TextToolCalls.parse(
                "I will read it.\n<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.txt\"}}</tool_call>");

        assertThat(calls).containsExactly(new ToolCallRequest("call_1", "read_file", json("{\"path\": \"a.txt\"}")));
    }

    @Test
    void reads_several_blocks_in_order_with_numbered_ids() {
        List<ToolCallRequest> calls = TextToolCalls.parse("""
                <tool_call>{"name": "list_files", "arguments": {}}</tool_call>
                then
                <tool_call>{"name": "read_file", "arguments": {"path": "b.txt"}}</tool_call>
                """);

        assertThat(calls).extracting(ToolCallRequest::id).containsExactly("call_1", "call_2");
        assertThat(calls).extracting(ToolCallRequest::name).containsExactly("list_files", "read_file");
    }

    @Test
    void reads_tool_blocks_and_mixed_case_tags() {
        List<ToolCallRequest> calls = TextToolCalls.parse("""
                <tool>{"name": "list_files", "arguments": {}}</tool>
                <TOOL_CALL>{"name": "read_file", "arguments": {"path": "b.txt"}}</Tool_Call>
                """);

        assertThat(calls).extracting(ToolCallRequest::name).containsExactly("list_files", "read_file");
    }

    @Test
    void reads_a_dangling_opening_tag_to_the_end() {
        List<ToolCallRequest> calls =
                TextToolCalls.parse("<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.txt\"}}\n");

        assertThat(calls).extracting(ToolCallRequest::name).containsExactly("read_file");
    }

    @Test
    void reads_a_dangling_block_after_a_complete_one() {
        List<ToolCallRequest> calls = TextToolCalls.parse("""
                <tool_call>{"name": "list_files", "arguments": {}}</tool_call>
                <tool_call>{"name": "read_file", "arguments": {"path": "a.txt"}}""");

        assertThat(calls).extracting(ToolCallRequest::name).containsExactly("list_files", "read_file");
    }

    @Test
    void dangling_tag_ends_at_the_next_opening_tag() {
        List<ToolCallRequest> calls = TextToolCalls.parse("""
                <tool_call>{"name": "list_files", "arguments": {}}
                <tool_call>{"name": "read_file", "arguments": {"path": "a.txt"}}</tool_call>""");

        assertThat(calls).extracting(ToolCallRequest::name).containsExactly("list_files", "read_file");
    }

    @Test
    void reads_a_fenced_json_block_inside_a_tag() {
        List<ToolCallRequest> calls = TextToolCalls.parse("""
                <tool_call>
                ```json
                {"name": "write_file", "arguments": {"path": "out.txt", "content": "hi"}}
                ```
                </tool_call>""");

        assertThat(calls)
                .containsExactly(new ToolCallRequest(
                        "call_1", "write_file", json("{\"path\": \"out.txt\", \"content\": \"hi\"}")));
    }

    @Test
    void text_around_the_json_inside_a_block_is_skipped() {
        List<ToolCallRequest> calls =
                TextToolCalls.parse("<tool_call>call: {\"name\": \"list_files\", \"arguments\": {}} done</tool_call>");

        assertThat(calls).extracting(ToolCallRequest::name).containsExactly("list_files");
    }

    @Test
    void several_objects_in_one_block_are_several_calls() {
        List<ToolCallRequest> calls = TextToolCalls.parse("""
                <tool_call>
                {"name": "list_files", "arguments": {}}
                {"name": "read_file", "arguments": {"path": "a.txt"}}
                </tool_call>""");

        assertThat(calls).extracting(ToolCallRequest::name).containsExactly("list_files", "read_file");
    }

    @Test
    void an_array_of_calls_in_a_block_is_read_in_order() {
        List<ToolCallRequest> calls = TextToolCalls.parse("""
                <tool_call>[{"name": "list_files", "arguments": {}},
                 {"name": "read_file", "arguments": {"path": "a.txt"}}]</tool_call>""");

        assertThat(calls).extracting(ToolCallRequest::name).containsExactly("list_files", "read_file");
    }

    @Test
    void accepts_every_name_key() {
        for (String key : List.of("name", "tool", "tool_name", "function_name")) {
            List<ToolCallRequest> calls = TextToolCalls.parse(
                    "<tool_call>{\"" + key + "\": \"list_files\", \"arguments\": {\"path\": \"x\"}}</tool_call>");

            assertThat(calls).as(key).extracting(ToolCallRequest::name).containsExactly("list_files");
        }
    }

    @Test
    void accepts_every_arguments_key() {
        for (String key : List.of("arguments", "args", "parameters", "params", "input")) {
            List<ToolCallRequest> calls = TextToolCalls.parse(
                    "<tool_call>{\"name\": \"read_file\", \"" + key + "\": {\"path\": \"a.txt\"}}</tool_call>");

            assertThat(calls)
                    .as(key)
                    .extracting(ToolCallRequest::arguments)
                    .containsExactly(json("{\"path\": \"a.txt\"}"));
        }
    }

    @Test
    void call_without_arguments_inside_a_tag_gets_empty_arguments() {
        List<ToolCallRequest> calls = TextToolCalls.parse("<tool_call>{\"name\": \"list_files\"}</tool_call>");

        assertThat(calls).extracting(ToolCallRequest::arguments).containsExactly(json("{}"));
    }

    @Test
    void reads_the_openai_function_shape_with_arguments_as_json_text() {
        List<ToolCallRequest> calls = TextToolCalls.parse("""
                <tool_call>{"id": "x", "type": "function",
                  "function": {"name": "read_file", "arguments": "{\\"path\\": \\"a.txt\\"}"}}</tool_call>""");

        assertThat(calls).containsExactly(new ToolCallRequest("call_1", "read_file", json("{\"path\": \"a.txt\"}")));
    }

    @Test
    void reads_a_tool_calls_list() {
        List<ToolCallRequest> calls = TextToolCalls.parse("""
                <tool_call>{"tool_calls": [
                  {"function": {"name": "list_files", "arguments": "{}"}},
                  {"function": {"name": "read_file", "arguments": "{\\"path\\": \\"a.txt\\"}"}}]}</tool_call>""");

        assertThat(calls).extracting(ToolCallRequest::name).containsExactly("list_files", "read_file");
    }

    @Test
    void string_arguments_that_are_json_are_parsed() {
        List<ToolCallRequest> calls = TextToolCalls.parse(
                "<tool_call>{\"name\": \"read_file\", \"arguments\": \"{\\\"path\\\": \\\"a.txt\\\"}\"}</tool_call>");

        assertThat(calls.getFirst().arguments()).isEqualTo(json("{\"path\": \"a.txt\"}"));
    }

    @Test
    void string_arguments_that_are_not_json_are_wrapped_as_raw() {
        List<ToolCallRequest> calls = TextToolCalls.parse(
                "<tool_call>{\"name\": \"execute_command\", \"arguments\": \"ls -la\"}</tool_call>");

        assertThat(calls.getFirst().arguments()).isEqualTo(json("{\"raw\": \"ls -la\"}"));
    }

    @Test
    void non_object_arguments_are_wrapped_as_raw() {
        List<ToolCallRequest> calls =
                TextToolCalls.parse("<tool_call>{\"name\": \"read_file\", \"arguments\": [\"a.txt\"]}</tool_call>");

        assertThat(calls.getFirst().arguments()).isEqualTo(json("{\"raw\": [\"a.txt\"]}"));
    }

    @Test
    void json_cut_off_before_its_closing_braces_is_closed() {
        List<ToolCallRequest> calls =
                TextToolCalls.parse("<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.txt\"}");

        assertThat(calls).containsExactly(new ToolCallRequest("call_1", "read_file", json("{\"path\": \"a.txt\"}")));
    }

    @Test
    void json_cut_off_inside_a_string_is_closed() {
        List<ToolCallRequest> calls = TextToolCalls.parse(
                "<tool_call>{\"name\": \"write_file\", \"arguments\": {\"path\": \"a.txt\", \"content\": \"hel");

        assertThat(calls.getFirst().arguments().get("content").asText()).isEqualTo("hel");
    }

    @Test
    void raw_line_breaks_inside_strings_are_tolerated() {
        List<ToolCallRequest> calls = TextToolCalls.parse(
                "<tool_call>{\"name\": \"write_file\", \"arguments\": {\"path\": \"a.txt\", \"content\": \"l1\nl2\"}}"
                        + "</tool_call>");

        assertThat(calls.getFirst().arguments().get("content").asText()).isEqualTo("l1\nl2");
    }

    @Test
    void braces_inside_strings_do_not_confuse_the_bracket_matching() {
        List<ToolCallRequest> calls = TextToolCalls.parse("""
                <tool_call>{"name": "write_file", "arguments": {"path": "a.c", "content": "int f() { return \\"}\\"; "}}</tool_call>""");

        assertThat(calls.getFirst().arguments().get("content").asText()).isEqualTo("int f() { return \"}\"; ");
    }

    @Test
    void malformed_json_in_a_block_gives_no_call() {
        List<ToolCallRequest> calls = TextToolCalls.parse("<tool_call>{\"name\": read_file, arguments: }</tool_call>");

        assertThat(calls).isEmpty();
    }

    @Test
    void a_malformed_block_does_not_stop_the_next_one() {
        List<ToolCallRequest> calls = TextToolCalls.parse("""
                <tool_call>{name: oops}</tool_call>
                <tool_call>{"name": "list_files", "arguments": {}}</tool_call>""");

        assertThat(calls).extracting(ToolCallRequest::name).containsExactly("list_files");
    }

    @Test
    @Timeout(5)
    void long_broken_payload_full_of_braces_is_given_up_quickly() {
        String broken = "<tool_call>" + "{ x ".repeat(50_000) + "</tool_call>";

        List<ToolCallRequest> calls =
                TextToolCalls.parse(broken + "<tool_call>{\"name\": \"list_files\", \"arguments\": {}}</tool_call>");

        assertThat(calls).extracting(ToolCallRequest::name).containsExactly("list_files");
    }

    @Test
    void objects_that_look_like_tool_results_are_ignored() {
        List<ToolCallRequest> calls = TextToolCalls.parse(
                "<tool>{\"tool\": \"read_file\", \"ok\": true, \"data\": {\"content\": \"x\"}}</tool>");

        assertThat(calls).isEmpty();
    }

    @Test
    void repeated_calls_are_kept_once() {
        List<ToolCallRequest> calls = TextToolCalls.parse("""
                <tool_call>{"name": "read_file", "arguments": {"path": "a.txt", "x": 1}}</tool_call>
                <tool_call>{"name": "read_file", "arguments": {"x": 1, "path": "a.txt"}}</tool_call>
                <tool_call>{"name": "读取文件", "arguments": {"path": "a.txt", "x": 1}}</tool_call>""");

        assertThat(calls).hasSize(1);
    }

    @Test
    void same_tool_with_other_arguments_is_a_separate_call() {
        List<ToolCallRequest> calls = TextToolCalls.parse("""
                <tool_call>{"name": "read_file", "arguments": {"path": "a.txt"}}</tool_call>
                <tool_call>{"name": "read_file", "arguments": {"path": "b.txt"}}</tool_call>""");

        assertThat(calls).extracting(ToolCallRequest::id).containsExactly("call_1", "call_2");
    }

    @Test
    void chinese_tool_names_are_kept_as_written() {
        List<ToolCallRequest> calls = TextToolCalls.parse(
                "<tool_call>{\"name\": \"读取文件\", \"arguments\": {\"path\": \"说明.txt\"}}</tool_call>");

        assertThat(calls).containsExactly(new ToolCallRequest("call_1", "读取文件", json("{\"path\": \"说明.txt\"}")));
    }

    @Test
    void plain_answer_with_a_bare_json_object_is_not_a_call() {
        List<ToolCallRequest> calls =
                TextToolCalls.parse("The record is {\"name\": \"Alice\", \"arguments\": {\"age\": 3}} as requested.");

        assertThat(calls).isEmpty();
    }

    @Test
    void plain_answer_that_is_only_a_bare_json_call_object_is_not_a_call() {
        List<ToolCallRequest> calls =
                TextToolCalls.parse("{\"name\": \"read_file\", \"arguments\": {\"path\": \"a\"}}");

        assertThat(calls).isEmpty();
    }

    @Test
    void whole_message_fenced_call_with_name_and_arguments_is_a_call() {
        List<ToolCallRequest> calls = TextToolCalls.parse("""
                ```json
                {"name": "read_file", "arguments": {"path": "a.txt"}}
                ```
                """);

        assertThat(calls).containsExactly(new ToolCallRequest("call_1", "read_file", json("{\"path\": \"a.txt\"}")));
    }

    @Test
    void whole_message_fenced_object_without_arguments_key_is_not_a_call() {
        List<ToolCallRequest> calls = TextToolCalls.parse("```json\n{\"name\": \"Alice\", \"age\": 3}\n```");

        assertThat(calls).isEmpty();
    }

    @Test
    void fenced_call_with_prose_around_it_is_not_a_call() {
        List<ToolCallRequest> calls = TextToolCalls.parse("""
                Here is an example payload:
                ```json
                {"name": "read_file", "arguments": {"path": "a.txt"}}
                ```""");

        assertThat(calls).isEmpty();
    }

    @Test
    void message_without_tools_gives_no_calls() {
        assertThat(TextToolCalls.parse("答案：B")).isEmpty();
        assertThat(TextToolCalls.parse(null)).isEmpty();
    }

    @Test
    void other_tags_starting_with_tool_are_not_tool_blocks() {
        List<ToolCallRequest> calls =
                TextToolCalls.parse("<tool_result>{\"name\": \"read_file\", \"arguments\": {}}</tool_result>");

        assertThat(calls).isEmpty();
    }
}
