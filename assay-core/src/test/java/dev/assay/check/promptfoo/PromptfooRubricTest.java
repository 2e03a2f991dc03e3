package dev.assay.check.promptfoo;

import static dev.assay.check.promptfoo.PromptfooChecks.judge;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.check.Verdict;
import dev.assay.check.judge.JudgeCache;
import dev.assay.check.judge.JudgeModel;
import dev.assay.check.promptfoo.internal.PromptfooCheckerFactory;
import dev.assay.model.RetryPolicy;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.model.openai.OpenAiSettings;
import dev.assay.sandbox.Sandboxes;
import dev.assay.testing.ScriptedOpenAiServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code llm-rubric} and {@code model-graded-closedqa} asked of Assay's judge, a scripted OpenAI-compatible model on
 * loopback, its replies read as promptfoo reads them (src/matchers/llmGrading.ts: runJsonGradingPrompt and
 * matchesClosedQa; src/assertions/llmRubric.ts, modelGradedClosedQa.ts).
 */
class PromptfooRubricTest {
    private ScriptedOpenAiServer server;
    private final AtomicReference<ScriptedOpenAiServer.Reply> reply = new AtomicReference<>(text(""));
    private PromptfooCheckerFactory factory;

    @BeforeEach
    void start() {
        server = ScriptedOpenAiServer.start(request -> reply.get());
        var model = new OpenAiChatModel(
                new OpenAiSettings(
                        "judge-1",
                        server.baseUrl(),
                        "",
                        false,
                        Duration.ofSeconds(10),
                        new RetryPolicy(1, Duration.ofMillis(10), Duration.ofMillis(10), Duration.ofSeconds(1))),
                line -> {});
        factory = new PromptfooCheckerFactory(
                List.of(new JudgeModel("default", model, server.baseUrl(), Duration.ofSeconds(10))),
                JudgeCache.disabled(),
                Sandboxes.ISOLATING);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private Verdict graded(String assertion, String output) throws InterruptedException {
        ObjectNode attributes = Json.object();
        attributes.put("prompt_rendered", "Name the capital of France.");
        return judge(factory, assertion, output, attributes, null, List.of());
    }

    @Test
    void llm_rubric_passes_and_scores_as_the_judge_says_and_the_judge_sees_output_and_rubric()
            throws InterruptedException {
        reply.set(text("```json\n{\"reason\": \"Names Paris.\", \"pass\": true, \"score\": 0.8}\n```"));
        Verdict verdict = graded("{\"type\": \"llm-rubric\", \"value\": \"Names the capital\"}", "Paris");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(verdict.score()).isEqualTo(0.8);
        assertThat(verdict.message()).isEqualTo("Names Paris.");
        String user = ScriptedOpenAiServer.contentText(
                server.requests().getFirst().path("messages").get(1).path("content"));
        assertThat(user).contains("Paris", "Names the capital");
    }

    @Test
    void llm_rubric_fails_below_its_threshold_though_the_judge_passed_it() throws InterruptedException {
        reply.set(text("{\"reason\": \"Partly.\", \"pass\": true, \"score\": 0.4}"));
        Verdict verdict = graded("{\"type\": \"llm-rubric\", \"value\": \"r\", \"threshold\": 0.5}", "x");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(verdict.detail().path("score").asDouble()).isEqualTo(0.4);
    }

    @Test
    void llm_rubric_without_a_score_scores_its_pass_and_without_pass_passes() throws InterruptedException {
        reply.set(text("{\"reason\": \"No.\", \"pass\": false}"));
        assertThat(graded("{\"type\": \"llm-rubric\", \"value\": \"r\"}", "x")
                        .detail()
                        .path("score")
                        .asDouble())
                .isZero();
        reply.set(text("{\"reason\": \"Fine.\", \"score\": 0.9}"));
        assertThat(graded("{\"type\": \"llm-rubric\", \"value\": \"r\"}", "x").status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void not_llm_rubric_inverts_the_pass_and_the_score() throws InterruptedException {
        reply.set(text("{\"reason\": \"Pirate talk.\", \"pass\": true, \"score\": 0.7}"));
        Verdict verdict = graded("{\"type\": \"not-llm-rubric\", \"value\": \"Speaks like a pirate\"}", "Arr");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(verdict.detail().path("score").asDouble()).isCloseTo(0.3, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void an_unreadable_grade_fails_even_in_the_not_form() throws InterruptedException {
        reply.set(text("I think it is fine."));
        Verdict verdict = graded("{\"type\": \"not-llm-rubric\", \"value\": \"r\"}", "x");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(verdict.detail().path("pass").asBoolean()).isFalse();
    }

    @Test
    void closedqa_passes_on_a_final_y_and_sees_the_rendered_prompt() throws InterruptedException {
        reply.set(text("The submission names Paris.\nY\nY"));
        Verdict verdict = graded("{\"type\": \"model-graded-closedqa\", \"value\": \"names Paris\"}", "Paris");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(ScriptedOpenAiServer.contentText(
                        server.requests().getFirst().path("messages").get(0).path("content")))
                .contains("Name the capital of France.", "names Paris", "Paris");
        reply.set(text("It does not.\nN\nN"));
        assertThat(graded("{\"type\": \"model-graded-closedqa\", \"value\": \"names Paris\"}", "Lyon")
                        .status())
                .isEqualTo(Verdict.Status.FAILED);
    }

    @Test
    void not_closedqa_is_judged_as_the_plain_form_as_promptfoos_handler_ignores_it() throws InterruptedException {
        reply.set(text("Fine.\nY\nY"));
        assertThat(graded("{\"type\": \"not-model-graded-closedqa\", \"value\": \"c\"}", "x")
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void without_a_judge_model_the_graded_types_are_skipped() throws InterruptedException {
        Verdict verdict = judge(new PromptfooCheckerFactory(), "{\"type\": \"llm-rubric\", \"value\": \"r\"}", "x");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.SKIPPED);
        assertThat(verdict.errorType()).isEqualTo("judge.not_configured");
    }

    @Test
    void a_judge_that_cannot_be_reached_is_an_error() throws InterruptedException {
        reply.set(ScriptedOpenAiServer.failure(500));
        Verdict verdict = graded("{\"type\": \"llm-rubric\", \"value\": \"r\"}", "x");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.ERROR);
        assertThat(verdict.errorType()).startsWith("target.");
    }
}
