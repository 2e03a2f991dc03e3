package dev.assay.dialog;

import static dev.assay.dialog.Dialogs.answered;
import static dev.assay.dialog.Dialogs.assistant;
import static dev.assay.dialog.Dialogs.dialog;
import static dev.assay.dialog.Dialogs.user;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.check.judge.Judge;
import dev.assay.check.judge.JudgeCache;
import dev.assay.check.judge.JudgeCheckerFactory;
import dev.assay.check.judge.JudgeModel;
import dev.assay.model.RetryPolicy;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.model.openai.OpenAiSettings;
import dev.assay.run.ScoreOptions;
import dev.assay.testing.ScriptedOpenAiServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The optional LLM-judge metric against a scripted OpenAI-compatible judge on loopback. */
class ExplainabilityJudgeTest {
    private static final List<String> RUBRIC = List.of("信息依据", "边界声明");

    @TempDir
    Path temp;

    private ScriptedOpenAiServer server;

    @BeforeEach
    void start() {
        // The judge's user message holds the reply it grades: replies are scripted by their text.
        server = ScriptedOpenAiServer.start(request -> {
            String prompt = request.firstUserText();
            if (prompt.contains("GOOD")) {
                return text("{\"reasoning\": \"explains basis and limits\", \"score\": 5}");
            }
            if (prompt.contains("FAIR")) {
                return text("```json\n{\"reasoning\": \"some reasons\", \"score\": 3}\n```");
            }
            if (prompt.contains("DOWN")) {
                return ScriptedOpenAiServer.failure(500);
            }
            return text("I would give it a four.");
        });
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private ExplainabilityJudge judge(JudgeCache cache) {
        var model = new OpenAiChatModel(
                new OpenAiSettings(
                        "judge-1",
                        server.baseUrl(),
                        "",
                        false,
                        Duration.ofSeconds(10),
                        new RetryPolicy(1, Duration.ofMillis(10), Duration.ofMillis(10), Duration.ofSeconds(1))),
                line -> {});
        return new ExplainabilityJudge(new Judge(new JudgeModel("default", model, server.baseUrl(), null), cache), 2);
    }

    /** d1: two rubric turns answered {@code first} and {@code second}, and one turn without rubric. */
    private static DialogTrace trace(String id, String first, String second) {
        Dialog dialog = Dialogs.only(dialog(
                id,
                user("我想稳健理财"),
                assistant("a1", List.of(), List.of(), RUBRIC),
                user("指数基金怎么样"),
                assistant("a2", List.of(), List.of(), RUBRIC),
                user("谢谢"),
                assistant("a3")));
        return Dialogs.trace(
                dialog,
                answered(dialog.pairs().get(0), first, null),
                answered(dialog.pairs().get(1), second, null),
                answered(dialog.pairs().get(2), "GOOD 不客气", null));
    }

    private Scoring.Result score(ExplainabilityJudge judge, DialogTrace... traces) {
        return Scoring.score(
                List.of(traces), Optional.empty(), "r1", "test.jsonl", ScoreOptions.defaults(), Optional.of(judge));
    }

    private static MetricResult metric(Scoring.Result result) {
        return result.judge().orElseThrow().metric();
    }

    @Test
    void grades_are_averaged_over_turns_for_micro_and_over_dialogs_for_macro() {
        Scoring.Result result = score(
                judge(JudgeCache.disabled()),
                trace("d1", "GOOD 依据", "GOOD 仅供参考"),
                trace("d2", "FAIR 一", "FAIR 二"),
                trace("d3", "GOOD 三", "FAIR 四"));

        MetricResult metric = metric(result);
        assertThat(metric.metricName()).isEqualTo(ExplainabilityJudge.METRIC);
        assertThat(metric.micro()).containsEntry("judge_score_mean", 4.0).containsEntry("judge_normalized_mean", 0.75);
        assertThat(metric.byDialog().get("d1")).containsEntry("judge_score_mean", 5.0);
        assertThat(metric.byDialog().get("d2")).containsEntry("judge_normalized_mean", 0.5);
        assertThat(metric.macro()).containsEntry("judge_score_mean", 4.0);
        assertThat(metric.counts())
                .containsEntry("eligible_count", 6)
                .containsEntry("skipped_count", 3)
                .containsEntry("judge_scored_turns", 6)
                .containsEntry("judge_error_count", 0);
    }

    @Test
    void turns_outside_m5_eligibility_are_not_sent_to_the_judge() {
        score(judge(JudgeCache.disabled()), trace("d1", "GOOD 一", "GOOD 二"));

        assertThat(server.requests()).hasSize(2);
    }

    @Test
    void a_malformed_judge_answer_is_counted_as_an_error_and_left_out_of_the_means() {
        Scoring.Result result = score(judge(JudgeCache.disabled()), trace("d1", "GOOD 一", "chatter"));

        MetricResult metric = metric(result);
        assertThat(metric.counts())
                .containsEntry("judge_error_count", 1)
                .containsEntry("failed_count", 1)
                .containsEntry("judge_scored_turns", 1);
        assertThat(metric.micro()).containsEntry("judge_score_mean", 5.0);
        JudgeScores.JudgedTurn failed = result.judge().orElseThrow().turns().get(1);
        assertThat(failed.toJson().path("error_type").asText()).isEqualTo("judge.unparsable");
    }

    @Test
    void a_judge_server_failure_is_counted_and_the_other_turns_are_still_graded() {
        Scoring.Result result = score(judge(JudgeCache.disabled()), trace("d1", "DOWN 一", "FAIR 二"));

        MetricResult metric = metric(result);
        assertThat(metric.counts()).containsEntry("judge_error_count", 1).containsEntry("judge_scored_turns", 1);
        assertThat(result.judge()
                        .orElseThrow()
                        .turns()
                        .getFirst()
                        .toJson()
                        .path("error_type")
                        .asText())
                .startsWith("target.");
        assertThat(metric.micro()).containsEntry("judge_score_mean", 3.0);
    }

    @Test
    void a_dialog_whose_every_grade_failed_has_no_by_dialog_values() {
        Scoring.Result result =
                score(judge(JudgeCache.disabled()), trace("d1", "chatter", "chatter"), trace("d2", "GOOD 一", "GOOD 二"));

        assertThat(metric(result).byDialog()).containsOnlyKeys("d2");
        assertThat(metric(result).macro()).containsEntry("judge_score_mean", 5.0);
    }

    @Test
    void rescoring_with_the_cache_makes_no_second_request() {
        ExplainabilityJudge judge = judge(JudgeCache.in(temp.resolve("cache")));
        score(judge, trace("d1", "GOOD 一", "FAIR 二"));

        Scoring.Result again = score(judge, trace("d1", "GOOD 一", "FAIR 二"));

        assertThat(server.requests()).hasSize(2);
        assertThat(metric(again).counts()).containsEntry("judge_cached_count", 2);
        assertThat(metric(again).micro()).containsEntry("judge_score_mean", 4.0);
    }

    @Test
    void judge_requests_pin_temperature_and_seed_and_name_the_turns_rubric_items() {
        score(judge(JudgeCache.disabled()), trace("d1", "GOOD 一", "GOOD 二"));

        JsonNode body = server.requests().getFirst();
        assertThat(body.path("temperature").asDouble()).isEqualTo(0.0);
        assertThat(body.path("seed").asLong()).isEqualTo(JudgeCheckerFactory.SEED);
        String user =
                ScriptedOpenAiServer.contentText(body.path("messages").get(1).path("content"));
        assertThat(user).contains("Elements expected in this turn: 信息依据, 边界声明", "稳健");
    }

    @Test
    void writing_with_a_judge_adds_its_files_and_report_section_and_leaves_the_reference_files_unchanged()
            throws IOException {
        DialogTrace trace = trace("d1", "GOOD 一", "FAIR 二");
        Path plain = temp.resolve("plain");
        Path judged = temp.resolve("judged");
        Scoring.write(
                plain, Scoring.score(List.of(trace), Optional.empty(), "r1", "test.jsonl", ScoreOptions.defaults()));

        Scoring.write(judged, score(judge(JudgeCache.disabled()), trace));

        for (String file : List.of(Scoring.SUMMARY_FILE, Scoring.TURN_EVAL_FILE)) {
            assertThat(judged.resolve(file)).hasSameBinaryContentAs(plain.resolve(file));
        }
        assertThat(plain.resolve(JudgeScores.SUMMARY_FILE)).doesNotExist();
        assertThat(plain.resolve(JudgeScores.TURN_FILE)).doesNotExist();
        JsonNode summary = Json.parse(Files.readString(judged.resolve(JudgeScores.SUMMARY_FILE)));
        assertThat(summary.at("/metrics/judge_explainability/micro/judge_score_mean")
                        .asDouble())
                .isEqualTo(4.0);
        assertThat(summary.at("/judge/rubric_version").asText()).isEqualTo(ExplainabilityJudge.RUBRIC_VERSION);
        assertThat(Files.readAllLines(judged.resolve(JudgeScores.TURN_FILE), StandardCharsets.UTF_8))
                .hasSize(2);
        String report = Files.readString(judged.resolve(Scoring.REPORT_FILE));
        assertThat(report)
                .startsWith(Files.readString(plain.resolve(Scoring.REPORT_FILE)))
                .contains("## judge_explainability");
    }

    @Test
    void a_run_with_a_judge_records_it_in_the_manifest_and_as_dimension_m5_judge() throws IOException {
        Dataset dataset = Dialogs.dataset(dialog("d1", user("我想稳健理财"), assistant("a1", List.of(), List.of(), RUBRIC))
                .toString());
        var config = new DialogRunConfig(
                "r1", "test.jsonl", "scripted", "", 1, Duration.ofSeconds(5), 0, ScoreOptions.defaults(), null);
        // ScriptedChatModel answers "答复(1): 我想稳健理财", which the judge script cannot read: one judge error.
        DialogEngine.Result outcome = DialogEngine.run(
                dataset,
                new ChatModelSubject(ScriptedChatModel.answering(), "", null, null),
                config,
                temp.resolve("run"),
                Optional.of(judge(JudgeCache.disabled())));

        JsonNode manifest = Json.parse(Files.readString(temp.resolve("run").resolve(RunManifest.FILE)));
        assertThat(manifest.at("/judge/judge_model").asText()).isEqualTo("openai:judge-1");
        assertThat(manifest.at("/judge/base_url").asText()).isEqualTo(server.baseUrl());
        assertThat(manifest.at("/judge/temperature").asDouble()).isEqualTo(0.0);
        assertThat(manifest.at("/judge/seed").asLong()).isEqualTo(JudgeCheckerFactory.SEED);
        assertThat(manifest.at("/judge/prompt_hash").asText()).isEqualTo(Judge.PROMPT_HASH);
        assertThat(manifest.path("workers_judge").asInt()).isEqualTo(2);
        var run = outcome.run();
        assertThat(run.dimensionScores())
                .containsKey(DialogRunRecords.JUDGE_DIMENSION)
                .hasSize(6);
        assertThat(run.config()
                        .at("/judge_summary/metric/counts/judge_error_count")
                        .asInt())
                .isEqualTo(1);
    }

    @Test
    void stored_items_carry_the_judges_by_dialog_values_and_each_judged_turn() {
        Dataset dataset = Dialogs.dataset(dialog(
                        "d1",
                        user("GOOD 我想稳健理财"),
                        assistant("a1", List.of(), List.of(), RUBRIC),
                        user("谢谢"),
                        assistant("a2"))
                .toString());
        var config = new DialogRunConfig(
                "r1", "test.jsonl", "scripted", "", 1, Duration.ofSeconds(5), 0, ScoreOptions.defaults(), null);
        // ScriptedChatModel echoes the user message, so the judge sees GOOD in the reply and gives 5.
        DialogEngine.Result outcome = DialogEngine.run(
                dataset,
                new ChatModelSubject(ScriptedChatModel.answering(), "", null, null),
                config,
                temp.resolve("run"),
                Optional.of(judge(JudgeCache.disabled())));

        JsonNode detail = outcome.items().getFirst().checkerDetail();
        assertThat(detail.at("/metrics/m5_judge/judge_score_mean").asDouble()).isEqualTo(5.0);
        assertThat(detail.at("/turns/0/judge/status").asText()).isEqualTo("graded");
        assertThat(detail.at("/turns/1").has("judge")).isFalse();
        assertThat(outcome.run().dimensionScores()).containsEntry(DialogRunRecords.JUDGE_DIMENSION, 1.0);
    }

    @Test
    void a_run_without_a_judge_has_no_judge_in_its_manifest_or_records() throws IOException {
        Dataset dataset = Dialogs.dataset(dialog("d1", user("我想稳健理财"), assistant("a1", List.of(), List.of(), RUBRIC))
                .toString());
        var config = new DialogRunConfig(
                "r1", "test.jsonl", "scripted", "", 1, Duration.ofSeconds(5), 0, ScoreOptions.defaults(), null);

        DialogEngine.Result outcome = DialogEngine.run(
                dataset,
                new ChatModelSubject(ScriptedChatModel.answering(), "", null, null),
                config,
                temp.resolve("run"));

        JsonNode manifest = Json.parse(Files.readString(temp.resolve("run").resolve(RunManifest.FILE)));
        assertThat(manifest.has("judge")).isFalse();
        assertThat(manifest.path("workers_judge").asInt()).isEqualTo(1);
        assertThat(outcome.run().dimensionScores()).doesNotContainKey(DialogRunRecords.JUDGE_DIMENSION);
        assertThat(server.requests()).isEmpty();
    }
}
