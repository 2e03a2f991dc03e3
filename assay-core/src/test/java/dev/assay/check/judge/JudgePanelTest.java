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
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A judge check graded by a panel of three judges, each a model of a scripted OpenAI-compatible server. */
class JudgePanelTest {
    @TempDir
    Path temp;

    private ScriptedOpenAiServer server;
    /** Each judge model's reply, by the model's name. */
    private final Map<String, String> replies = new ConcurrentHashMap<>();

    @BeforeEach
    void start() {
        server = ScriptedOpenAiServer.start(
                request -> text(replies.get(request.body().path("model").asText())));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private CheckerRegistry registry() {
        var judges = List.of("a", "b", "c").stream()
                .map(name -> new JudgeModel(
                        name,
                        new OpenAiChatModel(
                                new OpenAiSettings(
                                        "model-" + name,
                                        server.baseUrl(),
                                        "",
                                        false,
                                        Duration.ofSeconds(10),
                                        new RetryPolicy(
                                                1,
                                                Duration.ofMillis(10),
                                                Duration.ofMillis(10),
                                                Duration.ofSeconds(1))),
                                line -> {}),
                        server.baseUrl(),
                        Duration.ofSeconds(10)))
                .toList();
        return CheckerRegistry.builtins().with(new JudgeCheckerFactory(judges, JudgeCache.disabled()));
    }

    private Verdict judge(String expected) throws InterruptedException {
        Check check = Check.of("judge", Json.parse(expected));
        Case evalCase = Case.of("c1", "common", "What is the capital of France?", check);
        var transcript = new Transcript(List.of(new TranscriptEvent.FinalAnswer(Instant.now(), "Paris")));
        return registry().create(check).check(CheckContext.of(evalCase, transcript, new Workspace(temp)));
    }

    private void votes(boolean a, boolean b, boolean c) {
        replies.put("model-a", "{\"reasoning\": \"a says " + a + "\", \"pass\": " + a + "}");
        replies.put("model-b", "{\"reasoning\": \"b says " + b + "\", \"pass\": " + b + "}");
        replies.put("model-c", "{\"reasoning\": \"c says " + c + "\", \"pass\": " + c + "}");
    }

    private static String panel(String aggregation) {
        return "{\"rubric\": \"Names Paris.\", \"scale\": \"pass_fail\", \"judges\": [\"a\", \"b\", \"c\"]"
                + (aggregation == null ? "" : ", \"aggregation\": \"" + aggregation + "\"") + "}";
    }

    @Test
    void majority_passes_with_two_of_three_and_keeps_every_judges_verdict_and_reason() throws Exception {
        votes(true, true, false);
        Verdict verdict = judge(panel(null));
        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
        JsonNode detail = verdict.detail();
        assertThat(detail.path("aggregation").asText()).isEqualTo("majority");
        assertThat(detail.path("disagreement").asBoolean()).isTrue();
        assertThat(detail.path("judges")).hasSize(3);
        assertThat(detail.path("judges").get(2).path("judge").asText()).isEqualTo("c");
        assertThat(detail.path("judges").get(2).path("judge_model").asText()).isEqualTo("openai:model-c");
        assertThat(detail.path("judges").get(2).path("status").asText()).isEqualTo("failed");
        assertThat(detail.path("judges").get(2).path("score").asDouble()).isEqualTo(0.0);
        assertThat(detail.path("judges").get(2).path("reasoning").asText()).isEqualTo("c says false");
        assertThat(detail.path("judges").get(0).path("status").asText()).isEqualTo("passed");
        assertThat(server.requests()).hasSize(3);
    }

    @Test
    void majority_fails_with_one_of_three() throws Exception {
        votes(true, false, false);
        Verdict verdict = judge(panel("majority"));
        assertThat(verdict.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(verdict.message()).isEqualTo("1 of 3 judges passed the answer");
    }

    @Test
    void all_fails_unless_every_judge_passes() throws Exception {
        votes(true, true, false);
        assertThat(judge(panel("all")).status()).isEqualTo(Verdict.Status.FAILED);
        votes(true, true, true);
        Verdict unanimous = judge(panel("all"));
        assertThat(unanimous.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(unanimous.detail().path("disagreement").asBoolean()).isFalse();
    }

    @Test
    void mean_of_a_split_pass_fail_panel_is_the_share_that_passed() throws Exception {
        votes(true, true, false);
        Verdict verdict = judge(panel("mean"));
        assertThat(verdict.status()).isEqualTo(Verdict.Status.PARTIAL);
        assertThat(verdict.score()).isCloseTo(2.0 / 3, org.assertj.core.data.Offset.offset(1e-12));
    }

    @Test
    void mean_score_is_held_to_the_threshold() throws Exception {
        replies.put("model-a", "{\"reasoning\": \"\", \"score\": 5}");
        replies.put("model-b", "{\"reasoning\": \"\", \"score\": 3}");
        replies.put("model-c", "{\"reasoning\": \"\", \"score\": 3}");
        String expected = "{\"rubric\": \"r\", \"scale\": [1, 5], \"threshold\": 4, \"judges\": [\"a\", \"b\", \"c\"],"
                + " \"aggregation\": \"mean\"}";
        Verdict verdict = judge(expected);
        assertThat(verdict.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(verdict.detail().path("score").asDouble())
                .isCloseTo(11.0 / 3, org.assertj.core.data.Offset.offset(1e-12));
        replies.put("model-c", "{\"reasoning\": \"\", \"score\": 4}");
        assertThat(judge(expected).status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void a_judge_that_cannot_be_read_makes_the_panel_an_error_naming_it() throws Exception {
        votes(true, true, true);
        replies.put("model-b", "no verdict here");
        Verdict verdict = judge(panel(null));
        assertThat(verdict.status()).isEqualTo(Verdict.Status.ERROR);
        assertThat(verdict.errorType()).isEqualTo("judge.unparsable");
        assertThat(verdict.message()).startsWith("judge b: ");
        assertThat(verdict.detail().path("judges")).hasSize(3);
    }

    @Test
    void a_panel_is_refused_when_it_names_an_unknown_judge_or_also_names_a_model() {
        for (String expected : List.of(
                "{\"rubric\": \"r\", \"scale\": \"pass_fail\", \"judges\": [\"a\", \"zzz\"]}",
                "{\"rubric\": \"r\", \"scale\": \"pass_fail\", \"judges\": [\"a\", \"b\"], \"model\": \"a\"}",
                "{\"rubric\": \"r\", \"scale\": \"pass_fail\", \"judges\": [\"a\"]}",
                "{\"rubric\": \"r\", \"scale\": \"pass_fail\", \"judges\": [\"a\", \"b\"], \"aggregation\": \"vote\"}",
                "{\"rubric\": \"r\", \"scale\": \"pass_fail\", \"aggregation\": \"mean\"}")) {
            assertThatThrownBy(() -> registry().create(Check.of("judge", Json.parse(expected))))
                    .as(expected)
                    .isInstanceOfSatisfying(
                            AssayException.class,
                            e -> assertThat(e.problem().type()).isEqualTo("check.invalid_expected"));
        }
    }
}
