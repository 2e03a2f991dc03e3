package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.testing.ScriptedOpenAiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dialog example the README and docs/dialog.md use ({@code examples/dialog/advisor-dialogs.jsonl}) runs as they
 * say: offline against {@code mock}, and against an OpenAI-compatible endpoint (a scripted one here); {@code runs show}
 * then shows the metrics M1–M5 of the run and of each dialog.
 */
class DialogExampleTest {
    private static final Path DATASET = Path.of("..", "examples", "dialog", "advisor-dialogs.jsonl");

    @TempDir
    Path home;

    @Test
    void the_example_dialogs_run_offline_against_mock_and_runs_show_gives_their_five_metrics() throws Exception {
        var run = new CliRunner(home)
                .run(
                        "dialog",
                        "run",
                        DATASET.toString(),
                        "--model",
                        "mock",
                        "--run-id",
                        "example-mock",
                        "--out",
                        out());

        assertThat(run.code()).as(run.err()).isZero();
        JsonNode counters = summary("example-mock").path("counters");
        assertThat(counters.path("valid_dialogs").asInt()).isEqualTo(4);
        assertThat(counters.path("skipped_dialogs").asInt()).isZero();
        assertThat(counters.path("total_turn_pairs").asInt()).isEqualTo(9);

        var shown = new CliRunner(home).run("runs", "show", "example-mock");

        assertThat(shown.code()).as(shown.err()).isZero();
        List<String> lines = shown.out().lines().toList();
        for (String metric : List.of(
                "m1_context_continuity key_coverage",
                "m2_profile_accuracy profile_score",
                "m3_risk_coverage risk_coverage",
                "m4_compliance compliance_label_acc",
                "m5_explainability rubric_hit_rate")) {
            assertThat(lines).anyMatch(line -> line.contains(metric));
        }
        assertThat(lines).noneMatch(line -> line.startsWith("dialog "));
        List<String> items = lines.stream()
                .filter(line -> line.contains("example-steady-saver")
                        || line.contains("example-cautious-retiree")
                        || line.contains("example-growth-investor")
                        || line.contains("example-guarantee-request"))
                .toList();
        assertThat(items)
                .hasSize(4)
                .allSatisfy(line -> assertThat(line).contains(" m1 ", " m2 ", " m3 ", " m4 ", " m5 "));
    }

    @Test
    void the_example_dialogs_run_against_an_openai_compatible_endpoint_and_score_its_advice() throws Exception {
        String advice = "根据您的风险偏好，建议先对比两种方案再分批配置。投资有风险，市场存在不确定性，不保证收益，仅供参考。";
        try (var server = ScriptedOpenAiServer.start(request -> ScriptedOpenAiServer.text(advice))) {
            var run = new CliRunner(home)
                    .run(
                            "dialog",
                            "run",
                            DATASET.toString(),
                            "--model",
                            "openai:scripted",
                            "--base-url",
                            server.baseUrl(),
                            "--api-key-env",
                            "NO_KEY_NEEDED",
                            "--run-id",
                            "example-scripted",
                            "--out",
                            out());

            assertThat(run.code()).as(run.err()).isZero();
            assertThat(server.requests()).hasSize(9);
        }
        JsonNode metrics = summary("example-scripted").path("metrics");
        assertThat(metrics.at("/m4_compliance/micro/compliance_label_acc").asDouble())
                .isEqualTo(1.0);
        assertThat(metrics.at("/m3_risk_coverage/micro/risk_coverage").asDouble())
                .isPositive();
        assertThat(metrics.at("/m5_explainability/micro/rubric_hit_rate").asDouble())
                .isPositive();
        // Each later turn was asked with the earlier exchanges, which M1 finds the dialog's facts in.
        assertThat(metrics.at("/m1_context_continuity/micro/key_coverage").asDouble())
                .isPositive();
    }

    private String out() {
        return home.resolve("runs").toString();
    }

    private JsonNode summary(String runId) throws Exception {
        return Json.parse(Files.readString(home.resolve("runs").resolve(runId).resolve("metrics_summary.json")));
    }
}
