package dev.assay.subject.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.DeclaredTools.DeclaredFunction;
import dev.assay.tools.ToolResult;
import dev.assay.tools.Workspace;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeclaredFunctionToolTest {
    private static final DeclaredFunction QUOTE = new DeclaredFunction("stocks.quote", "A quote.", (ObjectNode)
            Json.parse("{\"type\": \"object\", \"properties\": {\"symbol\": {\"type\": \"string\"}}}"));

    @TempDir
    Path temp;

    private String call(String resultJson, String argumentsJson) {
        var tool = new DeclaredFunctionTool(QUOTE, resultJson == null ? null : Json.parse(resultJson));
        ToolResult result = tool.call(Json.parse(argumentsJson), new Workspace(temp));
        assertThat(result.ok()).isTrue();
        return result.output();
    }

    @Test
    void a_single_result_answers_every_call_text_as_is_and_json_as_json() {
        assertThat(call("\"42 USD\"", "{\"symbol\": \"X\"}")).isEqualTo("42 USD");
        assertThat(call("{\"price\": 42}", "{}")).isEqualTo("{\"price\":42}");
    }

    @Test
    void listed_results_answer_the_first_entry_whose_args_the_call_contains() {
        String results = """
                [{"args": {"symbol": "ACME", "days": 2}, "result": "two days"},
                 {"args": {"symbol": "ACME"}, "result": "acme"},
                 {"result": "anything else"}]""";

        assertThat(call(results, "{\"symbol\": \"ACME\", \"days\": 2.0}")).isEqualTo("two days");
        assertThat(call(results, "{\"symbol\": \"ACME\", \"days\": 3}")).isEqualTo("acme");
        assertThat(call(results, "{\"symbol\": \"OTHER\"}")).isEqualTo("anything else");
    }

    @Test
    void without_a_matching_result_the_call_is_acknowledged() {
        assertThat(call(null, "{}")).isEqualTo(DeclaredFunctionTool.ACKNOWLEDGEMENT);
        assertThat(call("[{\"args\": {\"symbol\": \"A\"}, \"result\": 1}]", "{\"symbol\": \"B\"}"))
                .isEqualTo(DeclaredFunctionTool.ACKNOWLEDGEMENT);
    }

    @Test
    void a_plain_list_is_one_result_not_a_table() {
        assertThat(call("[1, 2, 3]", "{}")).isEqualTo("[1,2,3]");
    }
}
