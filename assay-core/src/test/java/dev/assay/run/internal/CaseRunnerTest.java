package dev.assay.run.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.check.CheckerRegistry;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CaseRunnerTest {
    private static final CheckerRegistry CHECKERS = CheckerRegistry.builtins();

    private static Set<String> missing(String checker, String expectedJson, Set<String> offered) {
        var evalCase = Case.of("c", "tool", "p", Check.of(checker, Json.parse(expectedJson)));
        return CaseRunner.missingTools(CHECKERS, evalCase, offered);
    }

    @Test
    void a_tool_called_check_in_object_form_names_a_required_tool() {
        assertThat(missing(
                        "tool_called", "{\"tool\": \"get_weather\", \"require_success\": true}", Set.of("read_file")))
                .containsExactly("get_weather");
    }

    @Test
    void a_tool_called_list_requires_each_tool_it_names() {
        assertThat(missing("tool_called", "[\"read_file\", \"get_weather\"]", Set.of("read_file")))
                .containsExactly("get_weather");
    }

    @Test
    void a_tool_args_list_requires_the_tool_of_each_expected_call() {
        assertThat(missing(
                        "tool_args",
                        "[{\"tool\": \"read_file\", \"required\": {}}, "
                                + "{\"tool\": \"get_weather\", \"required\": {}}]",
                        Set.of("read_file")))
                .containsExactly("get_weather");
    }

    @Test
    void other_checks_name_no_tool() {
        assertThat(missing("contains", "\"get_weather\"", Set.of())).isEmpty();
    }
}
