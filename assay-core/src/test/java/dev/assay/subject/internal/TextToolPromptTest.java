package dev.assay.subject.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.Json;
import dev.assay.model.ToolCallRequest;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.SandboxRequest;
import dev.assay.sandbox.SandboxResult;
import dev.assay.tools.BuiltinTools;
import dev.assay.tools.ToolNames;
import dev.assay.tools.ToolSpec;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class TextToolPromptTest {
    private static final List<ToolSpec> TOOLS = List.of(
            new ToolSpec("read_file", "Read a file.", Json.parse("""
                    {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}""")),
            new ToolSpec("execute_command", "Run a command.", Json.parse("""
                    {"type": "object", "properties": {"command": {"type": "string"}, "timeout_s": {"type": "number"}},
                     "required": ["command"]}""")),
            new ToolSpec("final_answer", "Answer.", Json.parse("""
                    {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}""")));

    @Test
    void example_in_the_prompt_is_read_back_by_the_parser() {
        for (String language : List.of("en", "zh-CN")) {
            String prompt = TextToolPrompt.systemPrompt(TOOLS, language);

            List<ToolCallRequest> calls = TextToolCalls.parse(prompt);

            assertThat(calls).as(language).hasSize(1);
            assertThat(calls.getFirst().name()).isEqualTo("read_file");
            assertThat(calls.getFirst().arguments().has("path")).isTrue();
        }
    }

    @Test
    void every_tool_is_listed_with_its_schema() {
        String prompt = TextToolPrompt.systemPrompt(TOOLS, "en");

        for (ToolSpec tool : TOOLS) {
            assertThat(prompt)
                    .contains("## " + tool.name() + "\n" + tool.description() + "\n")
                    .contains(Json.write(tool.parameters()));
        }
    }

    @Test
    void chinese_prompt_for_zh_tags_and_english_otherwise() {
        Pattern han = Pattern.compile("\\p{IsHan}");

        assertThat(han.matcher(TextToolPrompt.systemPrompt(TOOLS, "zh-CN")).find())
                .isTrue();
        assertThat(han.matcher(TextToolPrompt.systemPrompt(TOOLS, "zh")).find()).isTrue();
        assertThat(han.matcher(TextToolPrompt.systemPrompt(TOOLS, "en")).find()).isFalse();
        assertThat(han.matcher(TextToolPrompt.systemPrompt(TOOLS, null)).find()).isFalse();
    }

    @Test
    void final_answer_tool_is_named_as_the_way_to_finish() {
        assertThat(TextToolPrompt.systemPrompt(TOOLS, "en")).contains("call final_answer with");
    }

    @Test
    void finish_by_a_chinese_named_final_tool_uses_that_name() {
        var tools =
                List.of(TOOLS.get(0), new ToolSpec("最终回复", "回复。", TOOLS.get(2).parameters()));

        assertThat(TextToolPrompt.systemPrompt(tools, "zh-CN")).contains("调用 最终回复");
    }

    @Test
    void without_a_final_answer_tool_the_model_is_told_to_answer_in_plain_text() {
        String prompt = TextToolPrompt.systemPrompt(TOOLS.subList(0, 2), "en");

        assertThat(prompt).contains("plain text").doesNotContain("call final_answer");
    }

    @Test
    void example_placeholders_follow_the_argument_types() {
        String prompt = TextToolPrompt.systemPrompt(List.of(new ToolSpec("wait", "Wait.", Json.parse("""
                {"type": "object", "properties": {"seconds": {"type": "integer"}}, "required": ["seconds"]}"""))), "en");

        assertThat(TextToolCalls.parse(prompt)
                        .getFirst()
                        .arguments()
                        .get("seconds")
                        .isNumber())
                .isTrue();
    }

    @Test
    void built_in_tool_specs_make_a_prompt_the_parser_understands() {
        var specs = BuiltinTools.specs(BuiltinTools.all(new Sandbox() {
            @Override
            public String kind() {
                return "none";
            }

            @Override
            public SandboxResult run(SandboxRequest request) {
                throw new UnsupportedOperationException("not run in this test");
            }
        }));

        String prompt = TextToolPrompt.systemPrompt(specs, "zh-CN");

        assertThat(TextToolCalls.parse(prompt))
                .extracting(ToolCallRequest::name)
                .containsExactly(ToolNames.READ_FILE);
    }

    @Test
    void no_tools_is_a_programming_error() {
        assertThatThrownBy(() -> TextToolPrompt.systemPrompt(List.of(), "en"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
