package dev.assay.promptfoo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.cases.Case;
import dev.assay.cases.CaseProblem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a promptfoo config becomes cases: the matrix's order, the rendered prompts, the checks' shape. */
class PromptfooCasesTest {
    @TempDir
    Path temp;

    private PromptfooConfig config(String yaml) throws Exception {
        Path file = Files.writeString(temp.resolve("promptfooconfig.yaml"), yaml);
        return PromptfooConfig.read(file);
    }

    @Test
    void tests_are_outermost_then_providers_then_prompts_as_promptfoo_orders_them() throws Exception {
        Files.writeString(temp.resolve("prompts.txt"), "Say {{ word | upper }}\n---\nRepeat {{word}}");
        PromptfooConfig config = config("""
                prompts:
                  - "Write {{word}}"
                  - file://prompts.txt
                providers:
                  - echo
                  - id: openai:chat:gpt-4o-mini
                    label: mini
                    config: {temperature: 0.2, max_tokens: 50, apiKeyEnvar: MY_KEY}
                tests:
                  - vars: {word: [alpha, beta]}
                  - vars: {word: gamma}
                """);
        assertThat(config.problems()).isEmpty();

        List<Case> cases = PromptfooCases.of(config).cases();

        // 3 prompts x 2 providers x (2 combinations + 1 test)
        assertThat(cases).hasSize(18);
        assertThat(cases.subList(0, 6))
                .extracting(Case::id, Case::subjectLabel, Case::prompt)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("t1-p1", "echo", "Write alpha"),
                        org.assertj.core.groups.Tuple.tuple("t1-p2", "echo", "Say ALPHA"),
                        org.assertj.core.groups.Tuple.tuple("t1-p3", "echo", "Repeat alpha"),
                        org.assertj.core.groups.Tuple.tuple("t1-p4", "mini", "Write alpha"),
                        org.assertj.core.groups.Tuple.tuple("t1-p5", "mini", "Say ALPHA"),
                        org.assertj.core.groups.Tuple.tuple("t1-p6", "mini", "Repeat alpha"));
        assertThat(cases.get(6).prompt()).isEqualTo("Write beta");
        assertThat(cases.get(12).attributes().path("vars").path("word").asText())
                .isEqualTo("gamma");
        assertThat(cases.get(3).dimension()).isEqualTo("[mini] Write {{word}}");
        assertThat(cases.get(4)
                        .attributes()
                        .path("promptfoo")
                        .path("prompt_label")
                        .asText())
                .isEqualTo("prompts.txt: Say {{ word | upper }}");
        assertThat(cases.get(4).attributes().path("prompt_rendered").asText()).isEqualTo("Say ALPHA");
        Provider mini = config.providers().get(1);
        assertThat(mini.modelOptions(name -> null).model()).isEqualTo("openai:gpt-4o-mini");
        assertThat(mini.modelOptions(name -> null).apiKeyEnv()).isEqualTo("MY_KEY");
        assertThat(mini.temperature()).isEqualTo(0.2);
        assertThat(mini.maxTokens()).isEqualTo(50);
    }

    @Test
    void each_assertion_is_a_promptfoo_check_with_its_value_rendered_and_its_weight() throws Exception {
        PromptfooConfig config = config("""
                prompts: ["Capital of {{country}}?"]
                providers: [echo]
                defaultTest:
                  assert:
                    - type: not-icontains
                      value: sorry
                tests:
                  - vars: {country: France, city: Paris}
                    assert:
                      - type: contains
                        value: "{{city}}"
                        weight: 3
                      - type: javascript
                        value: "output.includes('{{city}}')"
                  - vars: {country: Peru}
                    threshold: 0.5
                    assert:
                      - type: equals
                        value: Lima
                """);

        List<Case> cases = PromptfooCases.of(config).cases();

        Case first = cases.get(0);
        assertThat(first.checks()).extracting(check -> check.checker()).containsOnly("promptfoo");
        assertThat(first.checks())
                .extracting(
                        check -> check.expected().path("assertion").path("type").asText())
                .containsExactly("not-icontains", "contains", "javascript");
        assertThat(first.checks()
                        .get(1)
                        .expected()
                        .path("assertion")
                        .path("value")
                        .asText())
                .isEqualTo("Paris");
        assertThat(first.checks().get(1).weight()).isEqualTo(3.0);
        assertThat(first.checks()
                        .get(2)
                        .expected()
                        .path("assertion")
                        .path("value")
                        .asText())
                .as("code is never rendered")
                .isEqualTo("output.includes('{{city}}')");
        JsonNode set = cases.get(1).checks().getFirst().expected().path("assertion");
        assertThat(cases.get(1).checks()).hasSize(1);
        assertThat(set.path("type").asText()).isEqualTo("assert-set");
        assertThat(set.path("threshold").asDouble()).isEqualTo(0.5);
        assertThat(set.path("assert")).hasSize(2);
    }

    @Test
    void a_csv_of_tests_follows_promptfoos_conventions() throws Exception {
        Files.writeString(temp.resolve("tests.csv"), """
                question,__expected,__expected2,__description
                2+2,contains:4,"not-icontains-any:five, six",adds
                Name a colour,grade:names a colour,,
                Is it JSON,is-json,fn:output.length > 2,
                """);
        PromptfooConfig config = config("""
                prompts: ["{{question}}"]
                providers: [echo]
                tests: file://tests.csv
                """);

        List<Case> cases = PromptfooCases.of(config).cases();

        assertThat(cases).hasSize(3);
        assertThat(cases.get(0).attributes().path("vars").toString()).isEqualTo("{\"question\":\"2+2\"}");
        assertThat(cases.get(0)
                        .attributes()
                        .path("promptfoo")
                        .path("description")
                        .asText())
                .isEqualTo("adds");
        assertThat(cases.get(0).source().line()).isEqualTo(2);
        assertThat(cases.get(0).checks())
                .extracting(check -> check.expected().path("assertion").toString())
                .containsExactly(
                        "{\"type\":\"contains\",\"value\":\"4\"}",
                        "{\"type\":\"not-icontains-any\",\"value\":[\"five\",\"six\"]}");
        assertThat(cases.get(1).checks().getFirst().expected().path("assertion").toString())
                .isEqualTo("{\"type\":\"llm-rubric\",\"value\":\"names a colour\"}");
        assertThat(cases.get(2).checks())
                .extracting(check -> check.expected().path("assertion").toString())
                .containsExactly("{\"type\":\"is-json\"}", "{\"type\":\"javascript\",\"value\":\"output.length > 2\"}");
    }

    @Test
    void vars_and_tests_from_files_are_read_relative_to_the_config() throws Exception {
        Files.writeString(temp.resolve("doc.txt"), "the document");
        Files.writeString(temp.resolve("tests.yaml"), """
                - vars: {doc: file://doc.txt, meta: file://meta.json}
                  description: from yaml
                """);
        Files.writeString(temp.resolve("more.jsonl"), "{\"vars\": {\"doc\": \"inline\"}}\n");
        Files.writeString(temp.resolve("meta.json"), "{\"k\": [1, 2]}");
        Files.writeString(temp.resolve("chat.json"), """
                [{"role": "system", "content": "Be brief"}, {"role": "user", "content": "Summarise {{doc}}"}]
                """);
        PromptfooConfig config = config("""
                prompts: [file://chat.json]
                providers: [echo]
                tests: [file://tests.yaml, file://more.jsonl]
                """);

        List<Case> cases = PromptfooCases.of(config).cases();

        assertThat(cases).hasSize(2);
        assertThat(cases.get(0).prompt()).contains("Summarise the document");
        assertThat(cases.get(0).attributes().path("vars").path("meta").path("k"))
                .hasSize(2);
        assertThat(ProviderSubject.messages(cases.get(0).prompt()))
                .extracting(message -> message.role())
                .containsExactly(dev.assay.model.ChatMessage.Role.SYSTEM, dev.assay.model.ChatMessage.Role.USER);
        assertThat(cases.get(1).prompt()).contains("Summarise inline");
        assertThat(cases.get(1).source().file()).endsWith("more.jsonl");
    }

    @Test
    void a_test_with_an_assertion_assay_lacks_is_marked_unsupported_naming_the_type() throws Exception {
        PromptfooConfig config = config("""
                prompts: ["hi"]
                providers: [echo]
                tests:
                  - assert: [{type: contains, value: hi}]
                  - assert: [{type: moderation}, {type: not-webhook, value: "http://x"}]
                """);

        PromptfooCases.Built built = PromptfooCases.of(config);

        assertThat(built.unsupported()).containsOnlyKeys("t2-p1");
        assertThat(built.unsupported().get("t2-p1"))
                .hasSize(2)
                .anySatisfy(reason -> assertThat(reason).contains("(moderation)"))
                .anySatisfy(reason -> assertThat(reason).contains("(not-webhook)"));
    }

    @Test
    void bad_config_input_names_the_key_and_file() throws Exception {
        PromptfooConfig config = config("""
                prompts: ["hi"]
                providers: [bedrock:claude, {label: x}]
                tests:
                  - vars: [not, a, mapping]
                  - assert: [{value: no type}]
                colour: blue
                """);

        assertThat(config.problems())
                .extracting(CaseProblem::type, CaseProblem::field)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("promptfoo.unknown_key", "colour"),
                        org.assertj.core.groups.Tuple.tuple("promptfoo.unsupported_provider", "providers[0].id"),
                        org.assertj.core.groups.Tuple.tuple("promptfoo.invalid_provider", "providers[1]"),
                        org.assertj.core.groups.Tuple.tuple("promptfoo.invalid_test", "tests[0].vars"),
                        org.assertj.core.groups.Tuple.tuple("promptfoo.invalid_assertion", "tests[1].assert[0]"));
        assertThat(config.problems())
                .allSatisfy(problem -> assertThat(problem.source().file()).endsWith("promptfooconfig.yaml"));
    }

    @Test
    void the_example_config_reads_whole_into_its_matrix() {
        PromptfooConfig config =
                PromptfooConfig.read(PromptfooConfig.configFile(Path.of("..", "examples", "promptfoo")));

        assertThat(config.problems()).isEmpty();
        PromptfooCases.Built built = PromptfooCases.of(config);
        assertThat(built.problems()).isEmpty();
        // (1 inline test + 2 CSV rows) x 2 providers x 2 prompts
        assertThat(built.cases()).hasSize(12);
        assertThat(built.cases().get(1).prompt()).isEqualTo("Name the capital city of FRANCE.");
        assertThat(built.cases()
                        .get(4)
                        .attributes()
                        .path("promptfoo")
                        .path("description")
                        .asText())
                .isEqualTo("Peru");
    }
}
