package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.check.judge.JudgeCheckerFactory;
import dev.assay.testing.ScriptedOpenAiServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code assay dialog score|run --judge-model}: the optional LLM judge through the CLI. */
class DialogJudgeCommandTest {
    // Two pairs with rubric items (M5-eligible) and one without.
    private static final String DIALOG = """
            {"dialog_id": "d1", "scenario_type": "投资教育", "difficulty": "easy",
             "profile_gt": {"risk_level_gt": "稳健", "horizon_gt": "2年以上", "liquidity_need_gt": "中"},
             "turns": [
              {"role": "user", "text": "我想稳健理财"},
              {"role": "assistant", "text": "a1", "turn_tags": {"explainability_rubric_gt": ["信息依据", "边界声明"]}},
              {"role": "user", "text": "指数基金怎么样"},
              {"role": "assistant", "text": "a2", "turn_tags": {"explainability_rubric_gt": ["风险收益平衡"]}},
              {"role": "user", "text": "谢谢"},
              {"role": "assistant", "text": "a3", "turn_tags": {}}],
             "blueprint": {"forbidden_list": ["保本保收益"]}}""".replace("\n", "");

    @TempDir
    Path home;

    private ScriptedOpenAiServer judge;

    @BeforeEach
    void start() {
        judge = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(
                ScriptedOpenAiServer.text("{\"reasoning\": \"explains its basis\", \"score\": 4}")));
    }

    @AfterEach
    void stop() {
        judge.close();
    }

    /** {@return the run directory of {@code dialog run} with the mock model and no judge} */
    private Path recordedRun() throws IOException {
        Path dataset = home.resolve("dataset.jsonl");
        Files.writeString(dataset, DIALOG + "\n", StandardCharsets.UTF_8);
        var result = new CliRunner(home)
                .run(
                        "dialog",
                        "run",
                        dataset.toString(),
                        "--model",
                        "mock",
                        "--run-id",
                        "plain",
                        "--out",
                        home.resolve("runs").toString());
        assertThat(result.code()).as(result.err()).isZero();
        return home.resolve("runs/plain");
    }

    private CliRunner.Result score(Path runDir, Path out) {
        return new CliRunner(home)
                .run(
                        "dialog",
                        "score",
                        "--traces",
                        runDir.resolve("dialog_trace.jsonl").toString(),
                        "--dataset",
                        home.resolve("dataset.jsonl").toString(),
                        "--out",
                        out.toString(),
                        "--judge-model",
                        "openai:scripted",
                        "--judge-base-url",
                        judge.baseUrl(),
                        "--judge-api-key-env",
                        "NO_KEY_NEEDED");
    }

    @Test
    void score_with_a_judge_writes_the_judge_summary_beside_unchanged_reference_files() throws IOException {
        Path runDir = recordedRun();
        Path out = home.resolve("judged");

        CliRunner.Result result = score(runDir, out);

        assertThat(result.code()).as(result.err()).isZero();
        JsonNode summary = Json.parse(Files.readString(out.resolve("judge_summary.json")));
        assertThat(summary.at("/metrics/judge_explainability/micro/judge_score_mean")
                        .asDouble())
                .isEqualTo(4.0);
        assertThat(summary.at("/metrics/judge_explainability/counts/eligible_count")
                        .asInt())
                .isEqualTo(2);
        assertThat(summary.at("/judge/judge_model").asText()).isEqualTo("openai:scripted");
        assertThat(summary.at("/judge/seed").asLong()).isEqualTo(JudgeCheckerFactory.SEED);
        assertThat(out.resolve("metrics_summary.json")).hasSameBinaryContentAs(runDir.resolve("metrics_summary.json"));
        assertThat(out.resolve("turn_eval.jsonl")).hasSameBinaryContentAs(runDir.resolve("turn_eval.jsonl"));
        JsonNode request = judge.requests().getFirst();
        assertThat(request.path("temperature").asDouble()).isEqualTo(0.0);
        assertThat(request.path("seed").asLong()).isEqualTo(JudgeCheckerFactory.SEED);
    }

    @Test
    void rescoring_takes_the_judge_answers_from_the_cache_under_assay_home() throws IOException {
        Path runDir = recordedRun();
        score(runDir, home.resolve("first"));

        CliRunner.Result again = score(runDir, home.resolve("second"));

        assertThat(again.code()).as(again.err()).isZero();
        assertThat(judge.requests()).hasSize(2);
        assertThat(home.resolve("cache/judge")).isDirectoryContaining("glob:**.txt");
        JsonNode summary = Json.parse(Files.readString(home.resolve("second/judge_summary.json")));
        assertThat(summary.at("/metrics/judge_explainability/counts/judge_cached_count")
                        .asInt())
                .isEqualTo(2);
    }

    @Test
    void score_without_a_judge_writes_no_judge_file() throws IOException {
        Path runDir = recordedRun();

        var result = new CliRunner(home)
                .run(
                        "dialog",
                        "score",
                        "--traces",
                        runDir.resolve("dialog_trace.jsonl").toString(),
                        "--dataset",
                        home.resolve("dataset.jsonl").toString(),
                        "--out",
                        home.resolve("plain-score").toString());

        assertThat(result.code()).as(result.err()).isZero();
        assertThat(home.resolve("plain-score/judge_summary.json")).doesNotExist();
        assertThat(home.resolve("plain-score/metrics_summary.json"))
                .hasSameBinaryContentAs(runDir.resolve("metrics_summary.json"));
        assertThat(judge.requests()).isEmpty();
    }

    @Test
    void run_with_a_judge_records_it_in_the_manifest() throws IOException {
        Path dataset = home.resolve("dataset.jsonl");
        Files.writeString(dataset, DIALOG + "\n", StandardCharsets.UTF_8);

        var result = new CliRunner(home)
                .run(
                        "dialog",
                        "run",
                        dataset.toString(),
                        "--model",
                        "mock",
                        "--run-id",
                        "judged",
                        "--out",
                        home.resolve("runs").toString(),
                        "--judge-model",
                        "openai:scripted",
                        "--judge-base-url",
                        judge.baseUrl(),
                        "--judge-api-key-env",
                        "NO_KEY_NEEDED",
                        "--workers-judge",
                        "2");

        assertThat(result.code()).as(result.err()).isZero();
        Path runDir = home.resolve("runs/judged");
        JsonNode manifest = Json.parse(Files.readString(runDir.resolve("run_manifest.json")));
        assertThat(manifest.at("/judge/base_url").asText()).isEqualTo(judge.baseUrl());
        assertThat(manifest.at("/judge/temperature").asDouble()).isEqualTo(0.0);
        assertThat(manifest.path("workers_judge").asInt()).isEqualTo(2);
        assertThat(runDir.resolve("judge_eval.jsonl")).exists();
        assertThat(Files.readString(runDir.resolve("report.md"))).contains("## judge_explainability");
    }

    @Test
    void an_unknown_judge_provider_is_a_usage_error_reported_before_any_dialog_is_replayed() throws IOException {
        Path dataset = home.resolve("dataset.jsonl");
        Files.writeString(dataset, DIALOG + "\n", StandardCharsets.UTF_8);

        var result = new CliRunner(home)
                .run(
                        "dialog",
                        "run",
                        dataset.toString(),
                        "--model",
                        "mock",
                        "--run-id",
                        "bad",
                        "--out",
                        home.resolve("runs").toString(),
                        "--judge-model",
                        "nosuch:model");

        // As for 'assay run --model nosuch:model': an unknown provider (plugin.unknown) is a bad option value.
        assertThat(result.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).contains("plugin.unknown");
        assertThat(home.resolve("runs/bad")).doesNotExist();
    }
}
