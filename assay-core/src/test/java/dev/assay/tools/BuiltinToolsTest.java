package dev.assay.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BuiltinToolsTest {
    @TempDir
    Path root;

    @Test
    void tools_come_in_the_canonical_builtin_order() {
        assertThat(BuiltinTools.all(new ProcessSandbox()))
                .extracting(Tool::name)
                .isEqualTo(ToolNames.BUILTIN);
    }

    @Test
    void every_schema_is_a_closed_object_whose_required_names_are_properties() {
        for (Tool tool : BuiltinTools.all(new ProcessSandbox())) {
            JsonNode schema = tool.parameters();
            assertThat(schema.get("type").asText()).as(tool.name()).isEqualTo("object");
            assertThat(schema.get("additionalProperties").asBoolean(true))
                    .as(tool.name())
                    .isFalse();
            schema.get("required")
                    .forEach(name -> assertThat(schema.get("properties").has(name.asText()))
                            .as(tool.name())
                            .isTrue());
        }
    }

    @Test
    void parameters_cannot_be_changed_through_the_returned_schema() {
        Tool tool = BuiltinTools.all(new ProcessSandbox()).getFirst();

        ((ObjectNode) tool.parameters()).put("type", "string");

        assertThat(tool.parameters().get("type").asText()).isEqualTo("object");
    }

    @Test
    void required_arguments_match_the_fixed_tool_signatures() {
        var required = new ArrayList<String>();
        for (Tool tool : BuiltinTools.all(new ProcessSandbox())) {
            var names = new ArrayList<String>();
            tool.parameters().get("required").forEach(name -> names.add(name.asText()));
            required.add(tool.name() + names);
        }

        assertThat(required)
                .containsExactly(
                        "read_file[path]",
                        "write_file[path, content]",
                        "edit_file[path, old_text, new_text]",
                        "replace_text[path, pattern, replacement]",
                        "search_files[pattern]",
                        "list_files[]",
                        "execute_command[command]",
                        "final_answer[answer]");
    }

    @Test
    void specs_carry_name_description_and_parameters() {
        List<Tool> tools = BuiltinTools.all(new ProcessSandbox());

        List<ToolSpec> specs = BuiltinTools.specs(tools);

        assertThat(specs).extracting(ToolSpec::name).isEqualTo(ToolNames.BUILTIN);
        assertThat(specs.get(0).parameters()).isEqualTo(tools.get(0).parameters());
        assertThat(specs).allSatisfy(spec -> assertThat(spec.description()).isNotBlank());
    }

    @Test
    void final_answer_returns_the_answer() throws Exception {
        ToolResult result =
                ToolTesting.tool("final_answer").call(Json.object().put("answer", "答案：B"), new Workspace(root));

        assertThat(result.ok()).isTrue();
        assertThat(result.output()).isEqualTo("答案：B");
    }

    @Test
    void final_answer_without_answer_fails_naming_it() throws Exception {
        ToolResult result = ToolTesting.tool("final_answer").call(Json.object(), new Workspace(root));

        assertThat(result.error().type()).isEqualTo("tool.invalid_args");
        assertThat(result.error().details()).containsEntry("argument", "answer");
    }
}
