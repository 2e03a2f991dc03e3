package dev.assay.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.cases.DatasetMapping;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.ModelOptions;
import dev.assay.model.RetryPolicy;
import dev.assay.run.EvalSpec;
import dev.assay.score.Weights;
import dev.assay.subject.AgentSettings;
import dev.assay.testing.TestSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API's start body resolves to the same {@link EvalSpec} as the command line and {@code assay.yaml} for the same
 * settings (the CLI's {@code RunDescriptionTest} builds the same description), and to the same defaults when silent.
 */
class StartBodyTest {
    @TempDir
    Path suites;

    @Test
    void a_body_resolves_to_the_description_the_command_line_gives_for_the_same_settings() throws Exception {
        Path suite = Files.writeString(suites.resolve("suite.jsonl"), "");
        var body = Json.MAPPER.readTree("""
                {"model_name": "openai:gpt-test", "base_url": "http://127.0.0.1:9/v1", "api_key_env": "TEST_API_KEY",
                 "stream": true, "retries": 2, "skip_invalid": true, "dimensions": ["tool", "logic"],
                 "language": "en-US", "tags": ["files"], "seed": 7, "limit": 3, "tool_mode": "text", "max_steps": 5,
                 "temperature": 0.5, "max_tokens": 256, "tool_names": ["read_file"], "concurrency": 8, "timeout_s": 30,
                 "scoring": "reference", "weights": {"tool": 50}, "samples": 2, "keep_workspaces": true,
                 "cluster_by": "scenario", "reducer": "majority",
                 "metrics": ["weighted-score"], "user_model": "openai:gpt-user",
                 "user_base_url": "http://127.0.0.1:8/v1", "user_api_key_env": "USER_API_KEY",
                 "environment": {"mcp": {"command": ["python3", "env/shop.py"]}, "state": "shop://db"}, "run_max_tokens": 1000, "case_max_tokens": 100, "case_set": "suite.jsonl", "config_overrides": {"user_id": "ann"},
                 "dataset": {"input_field": "question", "target_field": "answer", "checker": "choice",
                  "template": "Q: {{question}}", "choices": ["options"], "id_field": "qid", "dimension": "quiz"}}
                """);

        EvalSpec request = StartBody.parse(body, caseSets(), "ASSAY_TOKEN").resolve();

        // The API has no max_retry_wait; the default total wait applies.
        EvalSpec expected = TestSpecs.everySetting(
                suite,
                new DatasetMapping(
                        "question", "answer", "choice", "Q: {{question}}", List.of("options"), "qid", "quiz"),
                RetryPolicy.defaults().maxTotalWait());
        assertThat(request).isEqualTo(expected);
        assertThat(TestSpecs.roundTrip(request)).isEqualTo(request);
    }

    @Test
    void an_unknown_reducer_is_refused_naming_the_field() throws Exception {
        Files.writeString(suites.resolve("suite.jsonl"), "");
        var body = Json.MAPPER.readTree(
                "{\"model_name\": \"mock\", \"reducer\": \"median\", \"case_set\": \"suite.jsonl\"}");

        assertThatThrownBy(() -> StartBody.parse(body, caseSets(), "ASSAY_TOKEN"))
                .isInstanceOfSatisfying(AssayException.class, e -> {
                    assertThat(e.problem().type()).isEqualTo("request.invalid_field");
                    assertThat(e.problem().details()).containsEntry("field", "reducer");
                });
    }

    @Test
    void a_key_variable_that_is_no_variable_name_is_refused_naming_the_field() throws Exception {
        Files.writeString(suites.resolve("suite.jsonl"), "");
        var body = Json.MAPPER.readTree(
                "{\"model_name\": \"openai:m\", \"api_key_env\": \"A B\", \"case_set\": \"suite.jsonl\"}");

        assertThatThrownBy(() -> StartBody.parse(body, caseSets(), "ASSAY_TOKEN"))
                .isInstanceOfSatisfying(AssayException.class, e -> {
                    assertThat(e.problem().type()).isEqualTo("request.invalid_field");
                    assertThat(e.problem().details()).containsEntry("field", "api_key_env");
                });
    }

    @Test
    void a_body_naming_only_the_model_and_cases_gets_the_same_defaults_as_the_command_line() throws Exception {
        Path suite = Files.writeString(suites.resolve("suite.jsonl"), "");
        var body = Json.MAPPER.readTree("{\"model_name\": \"mock\", \"case_set\": \"suite.jsonl\"}");

        EvalSpec request = StartBody.parse(body, caseSets(), "ASSAY_TOKEN").resolve();

        assertThat(request)
                .isEqualTo(new dev.assay.run.RunSettings()
                        .suites(List.of(suite))
                        .model(ModelOptions.of("mock"))
                        .resolve());
        assertThat(request.limits().concurrency()).isEqualTo(EvalSpec.Limits.DEFAULT_CONCURRENCY);
        assertThat(request.limits().timeout()).isEqualTo(EvalSpec.Limits.DEFAULT_TIMEOUT);
        assertThat(request.subject().agent()).isEqualTo(AgentSettings.defaults());
        assertThat(request.scoring().weights()).isEqualTo(Weights.defaults());
    }

    @Test
    void a_wrong_field_is_named() throws Exception {
        Files.writeString(suites.resolve("suite.jsonl"), "");
        var body = Json.MAPPER.readTree(
                "{\"model_name\": \"mock\", \"case_set\": \"suite.jsonl\", \"config_overrides\": {\"max_steps\": 0}}");

        assertThatThrownBy(() -> StartBody.parse(body, caseSets(), "ASSAY_TOKEN"))
                .isInstanceOf(AssayException.class)
                .satisfies(e ->
                        assertThat(((AssayException) e).problem().details()).containsEntry("field", "max_steps"));
    }

    private CaseSets caseSets() {
        return new CaseSets(suites, CheckerRegistry.builtins());
    }
}
