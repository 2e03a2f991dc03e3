package dev.assay.api;

import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.assay.model.ModelOptions;
import dev.assay.result.Counts;
import dev.assay.result.ItemStatus;
import dev.assay.result.RunStatus;
import dev.assay.run.EvalSpec;
import dev.assay.run.RunSettings;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.TestSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java API runs a suite through the engine against a scripted model on loopback and reads what happened. */
class AssayTest {
    private static final String SUITE = """
            version: 1
            case_set: api
            cases:
              - id: capital
                dimension: knowledge
                prompt: "What is the capital of France? Reply with the city only."
                checker: exact
                expected: Paris
              - id: sum
                dimension: arithmetic
                prompt: "What is 2 + 3? Reply with the number only."
                checker: exact
                expected: "5"
              - id: weather
                dimension: knowledge
                prompt: "What is the weather in Paris?"
                prerequisites: [weather@forecast]
                checker: contains
                expected: sun
            """;

    /** Knows the capital, miscounts the sum. */
    private static ScriptedOpenAiServer model;

    @TempDir
    static Path directory;

    private static Path suite;

    @BeforeAll
    static void start() throws Exception {
        model = ScriptedOpenAiServer.start(
                request -> text(request.firstUserText().contains("capital") ? "Paris" : "6"));
        suite = Files.writeString(directory.resolve("suite.yaml"), SUITE);
    }

    @AfterAll
    static void stop() {
        model.close();
    }

    private static Assay scripted() {
        return Assay.suite(suite)
                .model("openai:scripted")
                .baseUrl(model.baseUrl())
                .concurrency(2);
    }

    @Test
    void a_run_reports_its_counts_and_its_scores_by_dimension() throws Exception {
        Evaluation evaluation = scripted().run();

        assertThat(evaluation.status()).isEqualTo(RunStatus.FINISHED);
        assertThat(evaluation.counts()).isEqualTo(new Counts(3, 1, 1, 0, 1, 0, 0));
        assertThat(evaluation.dimensionScores()).containsEntry("knowledge", 1.0).containsEntry("arithmetic", 0.0);
        assertThat(evaluation.totalScore()).isNotNull();
        assertThat(evaluation.cases())
                .extracting(CaseResult::id, CaseResult::dimension, CaseResult::status)
                .containsExactly(
                        tuple("capital", "knowledge", ItemStatus.PASSED),
                        tuple("sum", "arithmetic", ItemStatus.FAILED),
                        tuple("weather", "knowledge", ItemStatus.SKIPPED));
    }

    @Test
    void a_failed_case_says_which_check_failed_and_why() throws Exception {
        CaseResult sum = scripted().ids("sum").run().cases().getFirst();

        assertThat(sum.reasons()).singleElement().asString().startsWith("exact");
        assertThat(sum.finalAnswer()).isEqualTo("6");
    }

    @Test
    void a_skipped_case_gives_its_reason_and_stays_out_of_the_scores() throws Exception {
        Evaluation evaluation = scripted().ids("weather").run();

        assertThat(evaluation.cases().getFirst().reasons())
                .singleElement()
                .asString()
                .contains("weather@forecast");
        assertThat(evaluation.dimensionScores()).doesNotContainKey("knowledge");
    }

    @Test
    void a_threshold_is_met_or_missed_with_the_failures_as_values() throws Exception {
        Evaluation evaluation = scripted().run();

        assertThat(Threshold.finished().dimension("knowledge", 1.0).check(evaluation))
                .isEmpty();
        assertThat(Threshold.finished().dimension("arithmetic", 0.5).check(evaluation))
                .containsExactly(new Threshold.Failure.Below("arithmetic", 0.5, 0.0));
        assertThatThrownBy(() -> evaluation.assertMeets(Threshold.total(1.01)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("total");
    }

    @Test
    void reports_are_written_where_asked_and_the_database_kept_where_given() throws Exception {
        Path db = directory.resolve("kept/assay.db");
        Evaluation evaluation = scripted()
                .ids("capital")
                .database(db)
                .reports(directory.resolve("reports"))
                .run();

        assertThat(evaluation.reportFiles())
                .extracting(path -> path.getFileName().toString())
                .contains("report.json", "junit.xml");
        assertThat(evaluation.reportFiles()).allMatch(Files::isRegularFile);
        assertThat(db).isRegularFile();
    }

    @Test
    void the_description_resolves_to_the_run_the_same_flags_of_assay_run_describe() {
        EvalSpec fromApi = Assay.suite(suite)
                .model("openai:gpt-test")
                .baseUrl("http://127.0.0.1:9/v1")
                .apiKeyEnv("TEST_API_KEY")
                .concurrency(8)
                .timeout(Duration.ofSeconds(30))
                .samples(2)
                .maxSteps(5)
                .temperature(0.5)
                .dimensions("tool", "logic")
                .tags("files")
                .ids("a", "b")
                .weights(Map.of("tool", 50.0))
                .spec();

        // What RunCommand#commandLine gives for the flags of the same names (RunDescriptionTest in assay-cli).
        EvalSpec fromFlags = new RunSettings()
                .suites(List.of(suite))
                .model(new ModelOptions("openai:gpt-test", "http://127.0.0.1:9/v1", "TEST_API_KEY", false, null, null))
                .concurrency(8)
                .timeout(Duration.ofSeconds(30))
                .samples(2)
                .maxSteps(5)
                .temperature(0.5)
                .dimensions(List.of("tool", "logic"))
                .tags(List.of("files"))
                .ids(List.of("a", "b"))
                .weights(Map.of("tool", 50.0))
                .resolve();
        assertThat(fromApi).isEqualTo(fromFlags);
        assertThat(TestSpecs.roundTrip(fromApi)).isEqualTo(fromApi);
        assertThat(fromApi.limits().concurrency()).isEqualTo(8);
        assertThat(fromApi.dataset().selection().ids()).containsExactly("a", "b");
    }

    @Test
    void a_setting_not_given_has_the_default_of_assay_run() {
        EvalSpec spec = Assay.suite(suite).model("mock").spec();

        assertThat(spec.limits()).isEqualTo(EvalSpec.Limits.DEFAULTS);
        assertThat(spec.limits().concurrency()).isEqualTo(EvalSpec.Limits.DEFAULT_CONCURRENCY);
        assertThat(spec.limits().timeout()).isEqualTo(EvalSpec.Limits.DEFAULT_TIMEOUT);
    }

    @Test
    void a_base_url_without_a_model_is_refused() {
        assertThatThrownBy(() -> Assay.suite(suite).baseUrl(model.baseUrl()).run())
                .isInstanceOf(IllegalStateException.class);
    }
}
