package dev.assay.code.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.check.CheckContext;
import dev.assay.check.Verdict;
import dev.assay.code.CodeGrader;
import dev.assay.sandbox.BubblewrapSandbox;
import dev.assay.sandbox.Sandbox;
import dev.assay.transcript.Transcript;
import dev.assay.transcript.TranscriptEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class CodeCheckerTest {
    private static Sandbox sandbox;

    @BeforeAll
    static void sandbox() throws InterruptedException {
        sandbox = BubblewrapSandbox.find().orElse(null);
        Assumptions.assumeTrue(sandbox != null, "bubblewrap is not usable on this machine");
    }

    private static Case codeCase(String prompt, String attributes) {
        return new Case(
                "c1",
                "code",
                "",
                prompt,
                1,
                null,
                List.of(Check.of("code", null)),
                List.of(),
                List.of(),
                Map.of(),
                (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(attributes),
                null);
    }

    private static Verdict check(Case evalCase, String answer) throws InterruptedException {
        var factory = new CodeCheckerFactory(sandbox, CodeGrader.Options.defaults());
        var transcript = new Transcript(List.of(new TranscriptEvent.FinalAnswer(Instant.EPOCH, answer)));
        return factory.create(evalCase.checks().get(0).expected()).check(CheckContext.of(evalCase, transcript, null));
    }

    private static final String PROMPT = """
            Example 1:
            Input: a = 1, b = 2
            Output: 3
            Example 2:
            Input: a = 5, b = 5
            Output: 10
            """;

    @Test
    void half_right_answer_scores_the_pass_ratio_with_per_case_detail() throws InterruptedException {
        var verdict =
                check(codeCase(PROMPT, "{\"entry_point\": \"add\"}"), "```python\ndef add(a, b):\n    return 3\n```");

        assertThat(verdict.status()).isEqualTo(Verdict.Status.PARTIAL);
        assertThat(verdict.score()).isEqualTo(0.5);
        assertThat(verdict.detail().get("all_passed").asBoolean()).isFalse();
        assertThat(verdict.detail().get("sandbox").asText()).isEqualTo("bubblewrap");
        assertThat(verdict.detail().at("/cases/1/status").asText()).isEqualTo("wrong_answer");
        assertThat(verdict.detail().at("/cases/1/actual").asInt()).isEqualTo(3);
        assertThat(verdict.detail().get("parse_status").asText()).isEqualTo("ok");
    }

    @Test
    void right_answer_passes() throws InterruptedException {
        var verdict = check(codeCase(PROMPT, "{\"entry_point\": \"add\"}"), "def add(a, b):\n    return a + b\n");

        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(verdict.detail().get("all_passed").asBoolean()).isTrue();
    }

    @Test
    void question_without_usable_examples_or_tests_is_an_error_with_the_reason() throws InterruptedException {
        var verdict = check(codeCase("Example 1:\nInput: x = ?\nOutput: 1\n", "{}"), "def f(x):\n    return 1\n");

        assertThat(verdict.status()).isEqualTo(Verdict.Status.ERROR);
        assertThat(verdict.errorType()).isEqualTo("code.no_tests");
        assertThat(verdict.detail().at("/cases/0/status").asText()).isEqualTo("unsupported");
    }

    @Test
    void grader_level_test_cases_are_used_when_the_case_has_none() throws InterruptedException {
        var factory = new CodeCheckerFactory(sandbox, CodeGrader.Options.defaults());
        var checker = factory.create(Json.parse("{\"test_cases\": [{\"input\": [[3,1,2]], \"expected\": [1,2,3]}]}"));
        var transcript = new Transcript(
                List.of(new TranscriptEvent.FinalAnswer(Instant.EPOCH, "def solution(xs):\n    return sorted(xs)\n")));

        var verdict = checker.check(CheckContext.of(codeCase("Sort.", "{}"), transcript, null));

        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(verdict.detail().get("source").asText()).isEqualTo("test_cases");
    }

    @Test
    void factory_rejects_a_scalar_expected() {
        var factory = new CodeCheckerFactory(sandbox, CodeGrader.Options.defaults());

        assertThatThrownBy(() -> factory.create(Json.parse("42")))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("check.invalid_expected"));
    }

    @Test
    void factory_is_named_code() {
        assertThat(new CodeCheckerFactory().name()).isEqualTo("code");
    }
}
