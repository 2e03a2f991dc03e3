package dev.assay.dialog;

import static dev.assay.dialog.Dialogs.assistant;
import static dev.assay.dialog.Dialogs.dialog;
import static dev.assay.dialog.Dialogs.user;
import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import dev.assay.model.ChatMessage;
import dev.assay.result.Item;
import dev.assay.result.RunStatus;
import dev.assay.run.Metric;
import dev.assay.run.MetricContext;
import dev.assay.run.MetricsProfile;
import dev.assay.run.RunPlugins;
import dev.assay.run.ScoreOptions;
import dev.assay.score.Scores;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DialogWorkloadTest {
    @TempDir
    Path dir;

    private static Dataset dataset() {
        return Dialogs.dataset(
                dialog(
                                "d1",
                                user("一问"),
                                assistant("a", List.of("history_turn_index:1"), List.of("波动风险"), List.of("信息依据")),
                                user("二问"),
                                assistant("b", List.of("history_turn_index:1"), List.of(), List.of()))
                        .toString(),
                "not json",
                dialog("d3", user("三问"), assistant("c")).toString());
    }

    private static DialogRunConfig config(String runId, int workers, Duration timeout, int retries, boolean blank) {
        return new DialogRunConfig(
                runId,
                "test.jsonl",
                "scripted",
                "",
                workers,
                timeout,
                retries,
                new ScoreOptions(MetricsProfile.MEMFIN_V1, blank),
                null);
    }

    private DialogEngine.Result run(ScriptedChatModel model, DialogRunConfig config) {
        return DialogEngine.run(dataset(), new ChatModelSubject(model, "", null, null), config, dir);
    }

    @Test
    void a_dialog_runs_metric_is_its_profile_found_by_name_over_its_stored_dialogs() {
        var config = new DialogRunConfig(
                "r1",
                "test.jsonl",
                "scripted",
                "",
                1,
                Duration.ofSeconds(5),
                0,
                new ScoreOptions(MetricsProfile.CORRECTED, false),
                null);
        var subject = new ChatModelSubject(ScriptedChatModel.answering(), "", null, null);

        DialogEngine.Result outcome = DialogEngine.run(dataset(), subject, config, dir);

        assertThat(RunPlugins.discovered().metrics().names())
                .contains("weighted-score", "memfin-v1", "memfin-v1-corrected");
        Metric.Tally tally = RunPlugins.discovered()
                .metrics()
                .get("memfin-v1-corrected", null)
                .begin(new MetricContext(
                        outcome.run(),
                        new DialogWorkload(dataset(), subject, config, dir, Optional.empty(), "", null)));
        outcome.items().forEach(tally::accept);
        assertThat(tally.result())
                .isEqualTo(new Scores(
                        outcome.run().dimensionScores(), outcome.run().totalScore()));
        assertThat(outcome.scores().rows())
                .isEqualTo(
                        Scoring.score(outcome.scores().traces(), Optional.empty(), "r1", "test.jsonl", config.score())
                                .rows());
    }

    @Test
    void turns_are_sent_in_order_with_the_earlier_exchanges_as_context() {
        var model = ScriptedChatModel.answering();

        DialogEngine.Result outcome = run(model, config("r1", 1, Duration.ofSeconds(5), 0, false));

        List<ChatMessage> second = model.requests.stream()
                .filter(r -> r.messages().getLast().content().equals("二问"))
                .findFirst()
                .orElseThrow()
                .messages();
        assertThat(second)
                .extracting(message -> message.role().wireName())
                .containsExactly("user", "assistant", "user");
        assertThat(second.get(1).content()).isEqualTo("答复(1): 一问");
        TurnTrace turn2 = outcome.scores().traces().getFirst().turns().get(1);
        assertThat(turn2.predAssistantText()).isEqualTo("答复(3): 二问");
        assertThat(turn2.recall().path("short_term_context").asText()).isEqualTo("user: 一问\nassistant: 答复(1): 一问");
    }

    @Test
    void the_short_term_context_lets_m1_find_an_earlier_user_turn() {
        DialogEngine.Result outcome =
                run(ScriptedChatModel.answering(), config("r1", 1, Duration.ofSeconds(5), 0, false));

        List<TurnEvalRow> rows = outcome.scores().rows();
        assertThat(rows.get(0).keyHitFlags()).containsExactly(0);
        assertThat(rows.get(1).keyHitFlags()).containsExactly(1);
        assertThat(outcome.scores().summary().metric(Metrics.M1).micro()).containsEntry("key_coverage", 0.5);
    }

    @Test
    void invalid_lines_are_skipped_and_traces_are_written_in_dataset_order() throws IOException {
        run(ScriptedChatModel.answering(), config("r1", 3, Duration.ofSeconds(5), 0, false));

        List<String> lines = Files.readAllLines(dir.resolve(DialogWorkload.TRACE_FILE));
        assertThat(lines)
                .extracting(line -> Json.parse(line).path("dialog_id").asText())
                .containsExactly("d1", "invalid_json_line_2", "d3");
        assertThat(Json.parse(lines.get(1)).path("skip_reason").asText()).isEqualTo("invalid_json");
    }

    @Test
    void a_repeated_dialog_id_is_one_item_whose_replay_counts_for_each_of_its_lines() throws IOException {
        String repeated = dialog("d1", user("一问"), assistant("a")).toString();
        var dataset = Dialogs.dataset(
                repeated, dialog("d2", user("二问"), assistant("b")).toString(), repeated);

        DialogEngine.Result outcome = DialogEngine.run(
                dataset,
                new ChatModelSubject(ScriptedChatModel.answering(), "", null, null),
                config("r1", 2, Duration.ofSeconds(5), 0, false),
                dir);

        assertThat(outcome.run().status()).isEqualTo(RunStatus.FINISHED);
        assertThat(outcome.run().counts().total()).isEqualTo(2);
        assertThat(outcome.items()).extracting(Item::caseId).containsExactlyInAnyOrder("d1", "d2");
        assertThat(Files.readAllLines(dir.resolve(DialogWorkload.TRACE_FILE)))
                .extracting(line -> Json.parse(line).path("dialog_id").asText())
                .containsExactly("d1", "d2", "d1");
    }

    @Test
    void a_turn_over_the_time_limit_becomes_an_error_turn_and_the_dialog_goes_on() {
        var model = new ScriptedChatModel(null, 0, "一问", 2_000);

        DialogEngine.Result outcome = run(model, config("r1", 1, Duration.ofMillis(200), 0, false));

        DialogTrace trace = outcome.scores().traces().getFirst();
        assertThat(trace.dialogStatus()).isEqualTo(DialogStatus.PARTIAL);
        assertThat(trace.turns().get(0).turnStatus()).isEqualTo(TurnStatus.ERROR);
        assertThat(trace.turns().get(0).error()).startsWith("turn_timeout:");
        assertThat(trace.turns().get(1).ok()).isTrue();
    }

    @Test
    void a_failed_call_is_retried_up_to_the_limit() {
        var model = new ScriptedChatModel("一问", 1, null, 0);

        DialogEngine.Result outcome = run(model, config("r1", 1, Duration.ofSeconds(5), 1, false));

        assertThat(outcome.scores().traces().getFirst().turns().getFirst().ok()).isTrue();
    }

    @Test
    void a_call_failing_more_often_than_the_retries_records_the_error() {
        var model = new ScriptedChatModel("一问", 5, null, 0);

        DialogEngine.Result outcome = run(model, config("r1", 1, Duration.ofSeconds(5), 1, false));

        TurnTrace turn = outcome.scores().traces().getFirst().turns().getFirst();
        assertThat(turn.turnStatus()).isEqualTo(TurnStatus.ERROR);
        assertThat(turn.error()).startsWith("target.http_5xx");
    }

    @Test
    void a_subject_that_cannot_open_a_session_fails_the_dialog_only() {
        DialogSubject broken = new DialogSubject() {
            @Override
            public String name() {
                return "broken";
            }

            @Override
            public Session open(String sessionId, String userId) {
                throw new IllegalStateException("no agent");
            }
        };

        DialogEngine.Result outcome =
                DialogEngine.run(dataset(), broken, config("r1", 1, Duration.ofSeconds(1), 0, false), dir);

        assertThat(outcome.scores().traces())
                .extracting(DialogTrace::dialogStatus)
                .containsExactly(DialogStatus.FAILED, DialogStatus.SKIPPED, DialogStatus.FAILED);
        assertThat(outcome.scores().traces().getFirst().dialogError()).isEqualTo("create_agent_failed: no agent");
        assertThat(outcome.scores().summary().counters().failedDialogs()).isEqualTo(2);
    }

    @Test
    void resuming_a_run_skips_the_dialogs_already_complete() {
        run(new ScriptedChatModel("三问", 9, null, 0), config("r1", 1, Duration.ofSeconds(5), 0, false));
        var second = ScriptedChatModel.answering();

        DialogEngine.Result outcome = run(second, config("r1", 1, Duration.ofSeconds(5), 0, false));

        assertThat(second.requests)
                .extracting(r -> r.messages().getLast().content())
                .containsExactly("三问");
        assertThat(outcome.manifest().resumedDialogs()).isEqualTo(2);
        assertThat(outcome.scores().traces())
                .extracting(DialogTrace::dialogStatus)
                .containsExactly(DialogStatus.OK, DialogStatus.SKIPPED, DialogStatus.OK);
    }

    @Test
    void the_run_directory_holds_all_five_files() {
        run(ScriptedChatModel.answering(), config("r1", 2, Duration.ofSeconds(5), 0, false));

        assertThat(dir.resolve(RunManifest.FILE)).exists();
        assertThat(dir.resolve(DialogWorkload.TRACE_FILE)).exists();
        assertThat(dir.resolve(Scoring.TURN_EVAL_FILE)).exists();
        assertThat(dir.resolve(Scoring.SUMMARY_FILE)).exists();
        assertThat(dir.resolve(Scoring.REPORT_FILE)).exists();
    }

    @Test
    void the_manifest_records_the_fingerprint_and_the_memory_blanking_option() throws IOException {
        run(ScriptedChatModel.answering(), config("r1", 1, Duration.ofSeconds(5), 0, true));

        var manifest = Json.parse(Files.readString(dir.resolve(RunManifest.FILE), StandardCharsets.UTF_8));
        assertThat(manifest.path("m1_handling").asText()).isEqualTo("ignored_memory_required_keys");
        assertThat(manifest.path("config_fingerprint").asText()).hasSize(64);
        assertThat(manifest.path("target").asText()).isEqualTo("chat:scripted");
    }

    @Test
    void the_fingerprint_changes_with_the_metrics_profile_but_not_with_the_run_id() {
        DialogRunConfig base = config("r1", 1, Duration.ofSeconds(5), 0, false);
        DialogRunConfig otherId = config("r2", 4, Duration.ofSeconds(9), 2, false);
        DialogRunConfig corrected = new DialogRunConfig(
                "r1",
                "test.jsonl",
                "scripted",
                "",
                1,
                null,
                0,
                new ScoreOptions(MetricsProfile.CORRECTED, false),
                null);

        assertThat(base.fingerprint("chat:m"))
                .isEqualTo(otherId.fingerprint("chat:m"))
                .isNotEqualTo(corrected.fingerprint("chat:m"));
    }

    @Test
    void the_same_traces_give_byte_identical_metric_files() throws IOException {
        run(ScriptedChatModel.answering(), config("r1", 2, Duration.ofSeconds(5), 0, false));
        String summary = Files.readString(dir.resolve(Scoring.SUMMARY_FILE));
        String rows = Files.readString(dir.resolve(Scoring.TURN_EVAL_FILE));
        Path again = dir.resolve("again");

        Scoring.write(
                again,
                Scoring.score(
                        TraceFile.read(dir.resolve(DialogWorkload.TRACE_FILE)).traces(),
                        java.util.Optional.empty(),
                        "r1",
                        "test.jsonl",
                        ScoreOptions.defaults()));

        assertThat(Files.readString(again.resolve(Scoring.SUMMARY_FILE))).isEqualTo(summary);
        assertThat(Files.readString(again.resolve(Scoring.TURN_EVAL_FILE))).isEqualTo(rows);
    }
}
