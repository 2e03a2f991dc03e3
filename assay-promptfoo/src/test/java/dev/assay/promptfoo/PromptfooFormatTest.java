package dev.assay.promptfoo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.cases.CaseProblem;
import dev.assay.cases.SuiteFormat;
import dev.assay.cases.SuiteLoad;
import dev.assay.check.CheckerRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A promptfoo config is recognised by its keys under any file name, and a config Assay does not honour in full is
 * refused naming each key it would otherwise ignore, once per config.
 */
class PromptfooFormatTest {
    @TempDir
    Path temp;

    @Test
    void a_config_under_another_name_is_recognised_by_two_of_its_three_parts() throws Exception {
        Path whole = Files.writeString(temp.resolve("my-evals.yaml"), """
                prompts: ["Say {{word}}"]
                providers: [echo]
                tests:
                  - vars: {word: hi}
                    assert: [{type: contains, value: hi}]
                """);
        Path withoutProviders = Files.writeString(temp.resolve("evals.yml"), """
                prompts: ["Say {{word}}"]
                tests:
                  - vars: {word: hi}
                """);

        SuiteLoad read = SuiteFormat.of(whole).orElseThrow().load(whole, CheckerRegistry.builtins());
        SuiteLoad refused =
                SuiteFormat.of(withoutProviders).orElseThrow().load(withoutProviders, CheckerRegistry.builtins());

        assertThat(read.problems()).isEmpty();
        assertThat(read.suite().cases())
                .singleElement()
                .satisfies(evalCase -> assertThat(evalCase.prompt()).isEqualTo("Say hi"));
        assertThat(refused.problems())
                .as("a config missing one part says which, rather than reading as a case file with unknown keys")
                .extracting(CaseProblem::type)
                .contains("promptfoo.missing_providers");
    }

    @Test
    void keys_assay_does_not_honour_are_named_once_per_config_with_file_and_key() throws Exception {
        Path file = Files.writeString(temp.resolve("promptfooconfig.yaml"), """
                prompts: ["Say {{word}}"]
                providers:
                  - id: openai:chat:gpt-4o-mini
                    config: {temperature: 0, tools: []}
                evaluateOptions: {maxConcurrency: 2, repeat: 3}
                defaultTest:
                  options:
                    provider: openai:chat:gpt-4o
                tests:
                  - vars: {word: hi}
                    options: {transform: output.trim(), prefix: "> "}
                  - vars: {word: ho}
                    options: {transform: output.trim()}
                    metadata: {owner: me}
                    providerOutput: canned
                """);

        PromptfooConfig config = PromptfooConfig.read(file);

        assertThat(config.problems())
                .allSatisfy(problem -> {
                    assertThat(problem.type()).isEqualTo("promptfoo.unsupported_key");
                    assertThat(problem.source().file()).isEqualTo(file.toString());
                })
                .extracting(CaseProblem::field)
                .containsExactlyInAnyOrder(
                        "providers[0].config.tools",
                        "evaluateOptions.repeat",
                        "defaultTest.options.provider",
                        "tests[0].options.transform",
                        "tests[1].providerOutput");
    }

    @Test
    void an_assertion_key_assay_does_not_honour_skips_its_test_naming_the_key() throws Exception {
        Path file = Files.writeString(temp.resolve("promptfooconfig.yaml"), """
                prompts: ["Say {{word}}"]
                providers: [echo]
                tests:
                  - vars: {word: hi}
                    assert:
                      - type: llm-rubric
                        value: is polite
                        rubricPrompt: "Grade: {{output}}"
                """);

        PromptfooCases.Built built = PromptfooCases.of(PromptfooConfig.read(file));

        assertThat(built.unsupported().get("t1-p1")).singleElement().asString().contains("rubricPrompt", "llm-rubric");
    }
}
