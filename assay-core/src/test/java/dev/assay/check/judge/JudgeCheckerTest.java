package dev.assay.check.judge;

import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.check.CheckContext;
import dev.assay.check.CheckerRegistry;
import dev.assay.check.Verdict;
import dev.assay.model.RetryPolicy;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.model.openai.OpenAiSettings;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.tools.Workspace;
import dev.assay.transcript.Transcript;
import dev.assay.transcript.TranscriptEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The judge checker against a scripted OpenAI-compatible judge on loopback. */
class JudgeCheckerTest {
    private static final String PASS_FAIL = "{\"rubric\": \"Names the capital of France.\", \"scale\": \"pass_fail\"}";
    private static final String ONE_TO_FIVE = "{\"rubric\": \"Explains photosynthesis.\", \"scale\": [1, 5]}";

    @TempDir
    Path temp;

    private ScriptedOpenAiServer server;
    private final AtomicReference<ScriptedOpenAiServer.Reply> reply = new AtomicReference<>(text(""));

    @BeforeEach
    void start() {
        server = ScriptedOpenAiServer.start(request -> reply.get());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private CheckerRegistry registry(JudgeCache cache) {
        var model = new OpenAiChatModel(
                new OpenAiSettings(
                        "judge-1",
                        server.baseUrl(),
                        "",
                        false,
                        Duration.ofSeconds(10),
                        new RetryPolicy(1, Duration.ofMillis(10), Duration.ofMillis(10), Duration.ofSeconds(1))),
                line -> {});
        return CheckerRegistry.builtins()
                .with(new JudgeCheckerFactory(
                        List.of(new JudgeModel("default", model, server.baseUrl(), Duration.ofSeconds(10))), cache));
    }

    private Verdict judge(CheckerRegistry registry, String expected, String answer) throws InterruptedException {
        Check check = Check.of("judge", Json.parse(expected));
        Case evalCase = Case.of("c1", "common", "What is the capital of France?", check);
        Instant at = Instant.now();
        var transcript = new Transcript(List.of(new TranscriptEvent.FinalAnswer(at, answer)));
        return registry.create(check).check(CheckContext.of(evalCase, transcript, new Workspace(temp)));
    }

    private Verdict judge(String expected, String answer) throws InterruptedException {
        return judge(registry(JudgeCache.disabled()), expected, answer);
    }

    @Test
    void judge_that_passes_the_answer_gives_a_passed_verdict_with_its_reasoning() throws Exception {
        reply.set(text("{\"reasoning\": \"Paris is correct.\", \"pass\": true}"));
        Verdict verdict = judge(PASS_FAIL, "Paris");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(verdict.detail().path("reasoning").asText()).isEqualTo("Paris is correct.");
        assertThat(verdict.detail().path("prompt_version").asText()).isEqualTo("judge-v1");
        assertThat(verdict.detail().path("prompt_hash").asText()).hasSize(64);
    }

    @Test
    void judge_that_fails_the_answer_gives_a_failed_verdict() throws Exception {
        reply.set(text("{\"reasoning\": \"Lyon is not the capital.\", \"pass\": false}"));
        Verdict verdict = judge(PASS_FAIL, "Lyon");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(verdict.errorType()).isEqualTo("judge.failed");
    }

    @Test
    void judge_request_is_deterministic_and_carries_rubric_and_answer() throws Exception {
        reply.set(text("{\"reasoning\": \"ok\", \"pass\": true}"));
        judge(PASS_FAIL, "Paris");
        JsonNode body = server.requests().getFirst();
        assertThat(body.path("temperature").asDouble()).isEqualTo(0.0);
        assertThat(body.path("seed").asLong()).isEqualTo(JudgeCheckerFactory.SEED);
        assertThat(body.path("tools").isMissingNode() || body.path("tools").isEmpty())
                .isTrue();
        String user =
                ScriptedOpenAiServer.contentText(body.path("messages").get(1).path("content"));
        assertThat(user).contains("Names the capital of France.", "Paris", "What is the capital of France?");
    }

    @Test
    void judge_of_a_conversation_sees_both_sides_and_every_tool_call_not_only_the_last_message() throws Exception {
        reply.set(text("{\"reasoning\": \"ok\", \"pass\": true}"));
        Check check = Check.of(
                "judge",
                Json.parse("{\"rubric\": \"The agent refuses to cancel a shipped order.\", \"scale\": \"pass_fail\"}"));
        Case evalCase = Case.of("c1", "agent", "(conversation)", check);
        Instant at = Instant.now();
        var transcript = new Transcript(List.of(
                new TranscriptEvent.UserTurn(at, "Please cancel order O-7.", null),
                new TranscriptEvent.ModelTurn(at, "", "", null),
                new TranscriptEvent.ToolCall(at, "c1", "get_order", "get_order", Json.parse("{\"order_id\": \"O-7\"}")),
                new TranscriptEvent.ToolOutput(at, "c1", "get_order", true, "{\"status\": \"shipped\"}", null),
                new TranscriptEvent.ModelTurn(at, "O-7 has shipped, so it cannot be cancelled.", "", null),
                new TranscriptEvent.UserTurn(at, "Fine. ###STOP###", null),
                new TranscriptEvent.FinalAnswer(at, "Anything else?")));

        registry(JudgeCache.disabled()).create(check).check(CheckContext.of(evalCase, transcript, new Workspace(temp)));

        String user = ScriptedOpenAiServer.contentText(
                server.requests().getFirst().path("messages").get(1).path("content"));
        assertThat(user)
                .contains(
                        "user: Please cancel order O-7.",
                        "assistant calls get_order {\"order_id\":\"O-7\"}",
                        "tool get_order returns: {\"status\": \"shipped\"}",
                        "assistant: O-7 has shipped, so it cannot be cancelled.",
                        "user: Fine. ###STOP###",
                        "assistant: Anything else?",
                        "The agent refuses to cancel a shipped order.")
                .containsSubsequence(
                        "user: Please cancel", "assistant calls get_order", "tool get_order", "user: Fine.");
    }

    @Test
    void numeric_score_in_the_middle_of_the_scale_gives_partial_credit() throws Exception {
        reply.set(text("```json\n{\"reasoning\": \"Mostly right.\", \"score\": 4}\n```"));
        Verdict verdict = judge(ONE_TO_FIVE, "Plants make sugar from light.");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.PARTIAL);
        assertThat(verdict.score()).isEqualTo(0.75);
        assertThat(verdict.detail().path("score").asDouble()).isEqualTo(4.0);
    }

    @Test
    void score_at_or_above_the_threshold_passes() throws Exception {
        reply.set(text("Here is my grade: {\"reasoning\": \"Good.\", \"score\": \"4\"}"));
        Verdict verdict = judge(
                "{\"rubric\": \"Explains photosynthesis.\", \"scale\": [1, 5], \"threshold\": 4}",
                "Plants make sugar from light.");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void score_below_the_threshold_fails() throws Exception {
        reply.set(text("{\"reasoning\": \"Thin.\", \"score\": 3}"));
        Verdict verdict = judge(
                "{\"rubric\": \"Explains photosynthesis.\", \"scale\": [1, 5], \"threshold\": 4}", "Plants are green.");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(verdict.errorType()).isEqualTo("judge.below_threshold");
    }

    @Test
    void score_outside_the_scale_is_clamped_and_flagged() throws Exception {
        reply.set(text("{\"reasoning\": \"Excellent.\", \"score\": 9}"));
        Verdict verdict = judge(ONE_TO_FIVE, "A full explanation.");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(verdict.detail().path("out_of_scale").asBoolean()).isTrue();
        assertThat(verdict.detail().path("normalized_score").asDouble()).isEqualTo(1.0);
    }

    @Test
    void malformed_judge_answer_is_an_error_verdict_keeping_the_answer() throws Exception {
        reply.set(text("I think it deserves a four."));
        Verdict verdict = judge(ONE_TO_FIVE, "Plants make sugar from light.");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.ERROR);
        assertThat(verdict.errorType()).isEqualTo("judge.unparsable");
        assertThat(verdict.detail().path("answer").asText()).isEqualTo("I think it deserves a four.");
    }

    @Test
    void judge_server_failure_is_an_error_verdict() throws Exception {
        reply.set(ScriptedOpenAiServer.failure(500));
        Verdict verdict = judge(PASS_FAIL, "Paris");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.ERROR);
        assertThat(verdict.errorType()).startsWith("target.");
    }

    @Test
    void cached_answer_makes_no_second_request() throws Exception {
        CheckerRegistry registry = registry(JudgeCache.in(temp.resolve("cache")));
        reply.set(text("{\"reasoning\": \"Paris is correct.\", \"pass\": true}"));
        Verdict first = judge(registry, PASS_FAIL, "Paris");
        Verdict second = judge(registry, PASS_FAIL, "Paris");
        assertThat(server.requests()).hasSize(1);
        assertThat(second.status()).isEqualTo(first.status());
        assertThat(first.detail().path("cached").asBoolean()).isFalse();
        assertThat(second.detail().path("cached").asBoolean()).isTrue();
        assertThat(second.detail().path("request_hash"))
                .isEqualTo(first.detail().path("request_hash"));
    }

    @Test
    void different_answer_is_not_served_from_the_cache() throws Exception {
        CheckerRegistry registry = registry(JudgeCache.in(temp.resolve("cache")));
        reply.set(text("{\"reasoning\": \"ok\", \"pass\": true}"));
        judge(registry, PASS_FAIL, "Paris");
        judge(registry, PASS_FAIL, "Paris, France");
        assertThat(server.requests()).hasSize(2);
    }

    @Test
    void unparsable_answers_are_not_cached() throws Exception {
        Path cache = temp.resolve("cache");
        CheckerRegistry registry = registry(JudgeCache.in(cache));
        reply.set(text("no idea"));
        judge(registry, PASS_FAIL, "Paris");
        reply.set(text("{\"reasoning\": \"ok\", \"pass\": true}"));
        Verdict retried = judge(registry, PASS_FAIL, "Paris");
        assertThat(server.requests()).hasSize(2);
        assertThat(retried.status()).isEqualTo(Verdict.Status.PASSED);
        try (var files = Files.list(cache)) {
            assertThat(files.count()).isEqualTo(1);
        }
    }

    @Test
    void builtin_registry_skips_judge_checks_when_no_judge_is_configured() throws Exception {
        Verdict verdict = judge(CheckerRegistry.builtins(), PASS_FAIL, "Paris");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.SKIPPED);
        assertThat(verdict.errorType()).isEqualTo("judge.not_configured");
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void malformed_expectation_is_rejected_when_the_suite_loads() {
        assertThatThrownBy(() -> CheckerRegistry.builtins()
                        .create(Check.of("judge", Json.parse("{\"rubric\": \"x\", \"scale\": [5, 1]}"))))
                .isInstanceOfSatisfying(AssayException.class, e -> {
                    assertThat(e.problem().type()).isEqualTo("check.invalid_expected");
                    assertThat(e.problem().details()).containsEntry("field", "scale");
                });
    }

    @Test
    void unknown_judge_name_is_rejected() {
        assertThatThrownBy(() -> registry(JudgeCache.disabled())
                        .create(Check.of(
                                "judge",
                                Json.parse("{\"rubric\": \"x\", \"scale\": \"pass_fail\", \"model\": \"nope\"}"))))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().details()).containsEntry("field", "model"));
    }
}
