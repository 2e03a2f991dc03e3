package dev.assay.check.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.NullNode;
import dev.assay.AssayException;
import dev.assay.cases.Check;
import dev.assay.check.CheckerFactory;
import dev.assay.check.CheckerRegistry;
import org.junit.jupiter.api.Test;

class BuiltinCheckersTest {
    @Test
    void every_builtin_checker_is_registered_by_name() {
        assertThat(CheckerRegistry.builtins().names())
                .contains(
                        "choice",
                        "exact",
                        "regex",
                        "contains",
                        "tool_called",
                        "tool_args",
                        "file_exists",
                        "file_contains",
                        "json_schema",
                        "json_contains",
                        "command",
                        "code");
    }

    @Test
    void every_builtin_checker_but_code_rejects_a_missing_expectation() {
        var registry = CheckerRegistry.builtins();
        for (CheckerFactory factory : BuiltinCheckers.all()) {
            if (factory.name().equals("code")) {
                // A code question's tests come from the case (its examples or test_cases), not from expected.
                assertThat(registry.create(new Check("code", NullNode.getInstance(), 1.0)))
                        .isNotNull();
                continue;
            }
            assertThatThrownBy(() -> registry.create(new Check(factory.name(), NullNode.getInstance(), 1.0)))
                    .as(factory.name())
                    .isInstanceOfSatisfying(
                            AssayException.class,
                            e -> assertThat(e.problem().type()).isEqualTo("check.invalid_expected"));
        }
    }

    @Test
    void invalid_expectation_names_the_checker_in_its_details() {
        assertThatThrownBy(() -> CheckerRegistry.builtins().create(Check.of("regex", NullNode.getInstance())))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().details()).containsEntry("checker", "regex"));
    }
}
