package dev.assay.dialog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.assay.Json;
import dev.assay.check.judge.Judge;
import dev.assay.check.judge.JudgeCache;
import dev.assay.check.judge.JudgeModel;
import dev.assay.dialog.internal.Report;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.model.openai.OpenAiSettings;
import dev.assay.run.MetricsProfile;
import dev.assay.run.ScoreOptions;
import dev.assay.testing.ScriptedOpenAiServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * For every recorded run in shared/data/memfin/runs, scoring its trace reproduces its metrics summary and turn rows
 * exactly (docs/dialog-metrics.md §2.7), from the embedded ground truth and from the dataset joined in its place.
 */
class GoldenRunsTest {

    static Stream<String> runs() throws IOException {
        try (Stream<Path> dirs = Files.list(SharedData.memfin().resolve("runs"))) {
            return dirs.filter(Files::isDirectory).map(dir -> dir.getFileName().toString()).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("runs")
    void scoring_the_trace_reproduces_the_recorded_summary_values(String run) throws IOException {
        Recorded recorded = Recorded.of(run);
        Scoring.Result result = Scoring.score(
                recorded.traces(), Optional.empty(), null, recorded.datasetPath(), ScoreOptions.defaults());

        assertThat(result.summary().toJson()).isEqualTo(recorded.summary());
    }

    @ParameterizedTest
    @MethodSource("runs")
    void scoring_the_trace_reproduces_the_recorded_turn_rows(String run) throws IOException {
        Recorded recorded = Recorded.of(run);
        Scoring.Result result = Scoring.score(
                recorded.traces(), Optional.empty(), null, recorded.datasetPath(), ScoreOptions.defaults());

        assertThat(result.rows().stream()
                        .map(TurnEvalRow::toJson)
                        .map(JsonNode.class::cast)
                        .toList())
                .isEqualTo(recorded.rows());
    }

    @ParameterizedTest
    @MethodSource("runs")
    void written_files_are_byte_identical_to_the_recorded_ones(String run) throws IOException {
        Recorded recorded = Recorded.of(run);
        Scoring.Result result = Scoring.score(
                recorded.traces(), Optional.empty(), null, recorded.datasetPath(), ScoreOptions.defaults());

        assertThat(result.summary().toFileText()).isEqualTo(recorded.summaryText());
        assertThat(Scoring.turnEvalText(result.rows())).isEqualTo(recorded.rowsText());
    }

    @ParameterizedTest
    @MethodSource("runs")
    void files_written_without_a_judge_are_the_recorded_ones_and_no_judge_file_appears(String run, @TempDir Path out)
            throws IOException {
        Recorded recorded = Recorded.of(run);
        Scoring.Result result = Scoring.score(
                recorded.traces(), Optional.empty(), null, recorded.datasetPath(), ScoreOptions.defaults());

        Scoring.write(out, result);

        assertThat(Files.readString(out.resolve(Scoring.SUMMARY_FILE), StandardCharsets.UTF_8))
                .isEqualTo(recorded.summaryText());
        assertThat(Files.readString(out.resolve(Scoring.TURN_EVAL_FILE), StandardCharsets.UTF_8))
                .isEqualTo(recorded.rowsText());
        assertThat(Files.readString(out.resolve(Scoring.REPORT_FILE), StandardCharsets.UTF_8))
                .isEqualTo(Report.markdown(result.summary()));
        assertThat(out.resolve(JudgeScores.SUMMARY_FILE)).doesNotExist();
        assertThat(out.resolve(JudgeScores.TURN_FILE)).doesNotExist();
    }

    @ParameterizedTest
    @MethodSource("runs")
    void a_judge_leaves_the_recorded_summary_and_turn_rows_byte_identical(String run, @TempDir Path out)
            throws IOException {
        Recorded recorded = Recorded.of(run);
        try (var server = ScriptedOpenAiServer.start(
                ScriptedOpenAiServer.always(ScriptedOpenAiServer.text("{\"reasoning\": \"fine\", \"score\": 4}")))) {
            var model = new OpenAiChatModel(
                    new OpenAiSettings("judge-1", server.baseUrl(), "", false, Duration.ofSeconds(10), null),
                    line -> {});
            var judge = new ExplainabilityJudge(
                    new Judge(new JudgeModel("default", model, server.baseUrl(), null), JudgeCache.disabled()), 4);

            Scoring.write(
                    out,
                    Scoring.score(
                            recorded.traces(),
                            Optional.empty(),
                            null,
                            recorded.datasetPath(),
                            ScoreOptions.defaults(),
                            Optional.of(judge)));

            assertThat(Files.readString(out.resolve(Scoring.SUMMARY_FILE), StandardCharsets.UTF_8))
                    .isEqualTo(recorded.summaryText());
            assertThat(Files.readString(out.resolve(Scoring.TURN_EVAL_FILE), StandardCharsets.UTF_8))
                    .isEqualTo(recorded.rowsText());
            // One judge request per M5-eligible turn of the recorded run.
            assertThat(server.requests())
                    .hasSize(recorded.summary()
                            .at("/metrics/m5_explainability/counts/eligible_count")
                            .asInt());
        }
    }

    @ParameterizedTest
    @MethodSource("runs")
    void the_dataset_joined_in_place_of_the_embedded_ground_truth_gives_the_same_values(String run) throws IOException {
        Recorded recorded = Recorded.of(run);
        List<DialogTrace> stripped = recorded.traces().stream()
                .map(GoldenRunsTest::withoutGroundTruth)
                .toList();
        Dataset dataset = Dataset.load(SharedData.memfin().resolve("datasets").resolve(recorded.datasetFileName()));

        Scoring.Result result =
                Scoring.score(stripped, Optional.of(dataset), null, recorded.datasetPath(), ScoreOptions.defaults());

        assertThat(result.summary().toJson()).isEqualTo(recorded.summary());
        assertThat(result.rows().stream()
                        .map(TurnEvalRow::toJson)
                        .map(JsonNode.class::cast)
                        .toList())
                .isEqualTo(recorded.rows());
    }

    @ParameterizedTest
    @MethodSource("runs")
    void traces_round_trip_byte_for_byte(String run) throws IOException {
        Path file = Recorded.find(SharedData.memfin().resolve("runs").resolve(run), "dialog_trace");
        String text = Files.readString(file, StandardCharsets.UTF_8);

        var written = new StringBuilder();
        TraceFile.read(file)
                .traces()
                .forEach(trace -> written.append(TraceFile.line(trace)).append('\n'));

        assertThat(written.toString()).isEqualTo(text);
    }

    @ParameterizedTest
    @MethodSource("runs")
    void the_corrected_profile_finds_no_forbidden_phrase_outside_a_negated_disclaimer(String run) throws IOException {
        Recorded recorded = Recorded.of(run);
        var corrected = new ScoreOptions(MetricsProfile.CORRECTED, false);

        Scoring.Result result =
                Scoring.score(recorded.traces(), Optional.empty(), null, recorded.datasetPath(), corrected);

        // docs/dialog-metrics.md §3, item 5: every recorded forbidden hit sits in a disclaimer such as 不承诺保本保收益.
        assertThat(result.rows())
                .allSatisfy(row -> assertThat(row.forbiddenHits()).isEmpty());
        assertThat(result.summary().metric(Metrics.M3).toJson())
                .isEqualTo(recorded.summary().at("/metrics/m3_risk_coverage"));
    }

    private static DialogTrace withoutGroundTruth(DialogTrace trace) {
        var empty = JsonNodeFactory.instance;
        return new DialogTrace(
                trace.traceVersion(),
                trace.runId(),
                trace.dialogId(),
                trace.datasetIndex(),
                trace.scenarioType(),
                trace.difficulty(),
                trace.dialogStatus(),
                trace.validDialog(),
                trace.skipReason(),
                trace.sessionId(),
                trace.userId(),
                trace.turns().stream()
                        .map(turn -> turn.withGtTurnTags(empty.objectNode()))
                        .toList(),
                trace.dialogError(),
                empty.objectNode(),
                empty.objectNode(),
                empty.arrayNode());
    }

    private record Recorded(
            List<DialogTrace> traces, JsonNode summary, String summaryText, List<JsonNode> rows, String rowsText) {
        static Recorded of(String run) throws IOException {
            Path dir = SharedData.memfin().resolve("runs").resolve(run);
            String summaryText = Files.readString(find(dir, "metrics_summary"), StandardCharsets.UTF_8);
            String rowsText = Files.readString(find(dir, "turn_eval"), StandardCharsets.UTF_8);
            List<JsonNode> rows = rowsText.lines()
                    .filter(line -> !line.isBlank())
                    .map(Json::parse)
                    .toList();
            return new Recorded(
                    TraceFile.read(find(dir, "dialog_trace")).traces(),
                    Json.parse(summaryText),
                    summaryText,
                    rows,
                    rowsText);
        }

        static Path find(Path dir, String prefix) throws IOException {
            try (Stream<Path> files = Files.list(dir)) {
                return files.filter(f -> f.getFileName().toString().startsWith(prefix))
                        .sorted()
                        .findFirst()
                        .orElseThrow();
            }
        }

        String datasetPath() {
            return summary.path("dataset_path").asText();
        }

        String datasetFileName() {
            String path = datasetPath().replace('\\', '/');
            return path.substring(path.lastIndexOf('/') + 1);
        }
    }
}
