package dev.assay.cases;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.tools.ToolNames;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** examples/capability, validated against test factories for the documented expected shapes. */
class ExampleSuiteTest {
    private static final List<String> CHECKERS = List.of(
            "choice",
            "exact",
            "regex",
            "contains",
            "tool_called",
            "tool_args",
            "file_exists",
            "file_contains",
            "json_schema");

    private final SuiteLoad load = new SuiteLoader(TestCheckers.registry()).load(TestCheckers.exampleSuite());

    @Test
    void example_suite_loads_without_problems() {
        assertThat(load.problems()).isEmpty();
    }

    @Test
    void example_suite_has_at_least_sixty_cases() {
        assertThat(load.suite().cases()).hasSizeGreaterThanOrEqualTo(60);
    }

    @Test
    void example_suite_covers_every_dimension_in_both_languages() {
        Set<String> pairs = load.suite().cases().stream()
                .map(c -> c.dimension() + "/" + c.language())
                .collect(Collectors.toSet());

        for (String dimension : List.of("tool", "logic", "common", "complex")) {
            assertThat(pairs).contains(dimension + "/zh-CN", dimension + "/en-US");
        }
    }

    @Test
    void example_suite_uses_every_checker() {
        Set<String> used = load.suite().cases().stream()
                .flatMap(c -> c.checks().stream())
                .map(Check::checker)
                .collect(Collectors.toSet());

        assertThat(used).containsAll(CHECKERS);
    }

    @Test
    void example_suite_needs_and_checks_every_builtin_tool() {
        Set<String> tools = new HashSet<>();
        for (Case evalCase : load.suite().cases()) {
            evalCase.prerequisites().forEach(tool -> tools.add(ToolNames.canonical(tool)));
            for (Check check : evalCase.checks()) {
                if (check.checker().equals("tool_called")) {
                    JsonNode expected = check.expected();
                    (expected.isArray() ? expected : List.of(expected)).forEach(name -> tools.add(name.textValue()));
                } else if (check.checker().equals("tool_args")) {
                    tools.add(check.expected().path("tool").textValue());
                }
            }
        }

        assertThat(tools).containsAll(ToolNames.BUILTIN);
    }

    @Test
    void example_suite_uses_all_three_formats() {
        assertThat(load.suite().sources())
                .anyMatch(s -> s.endsWith(".json"))
                .anyMatch(s -> s.endsWith(".jsonl"))
                .anyMatch(s -> s.endsWith(".yaml"));
    }

    @Test
    void example_multiple_choice_answers_are_single_letters_offered_in_the_prompt() {
        load.suite().cases().stream()
                .flatMap(c -> c.checks().stream()
                        .filter(k -> k.checker().equals("choice"))
                        .map(k -> List.of(c.prompt(), k.expected().textValue())))
                .forEach(pair -> assertThat(pair.getFirst()).contains(pair.get(1) + ")"));
    }

    @Test
    void example_suite_is_named_after_its_case_set() {
        assertThat(load.suite().name()).isEqualTo("capability");
    }
}
