package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.cases.DatasetMapping;
import dev.assay.check.CheckerRegistry;
import dev.assay.config.AssayConfig;
import dev.assay.run.EvalSpec;
import dev.assay.run.RunSettings;
import dev.assay.score.Weights;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.ToolMode;
import dev.assay.testing.TestSpecs;
import dev.assay.tools.McpServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * One run description from every front end: command-line flags and {@code assay.yaml} resolve to the same
 * {@link EvalSpec} for the same settings, and the snapshot stored with a run reads back into it. The API's start body
 * is held to the same description in the server's {@code StartBodyTest}.
 */
class RunDescriptionTest {
    @TempDir
    Path dir;

    /** The description both front ends below are asked for; the server's test asks the API for the same one. */
    private static EvalSpec expected(Path suite) {
        return expected(
                suite,
                new DatasetMapping(
                        "question", "answer", "choice", "Q: {{question}}", List.of("options"), "qid", "quiz"));
    }

    private static EvalSpec expected(Path suite, DatasetMapping dataset) {
        return TestSpecs.everySetting(suite, dataset, Duration.ofSeconds(60));
    }

    private RunSettings commandLine(String... args) {
        var command = new RunCommand();
        new CommandLine(command).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args);
        return command.commandLine();
    }

    @Test
    void flags_resolve_to_the_description_they_name() throws Exception {
        Path suite = suite();
        EvalSpec fromFlags = RunSettings.resolve(List.of(commandLine(
                suite.toString(),
                "--model",
                "openai:gpt-test",
                "--base-url",
                "http://127.0.0.1:9/v1",
                "--api-key-env",
                "TEST_API_KEY",
                "--stream",
                "--retries",
                "2",
                "--max-retry-wait",
                "60",
                "--skip-invalid",
                "--dimensions",
                "tool,logic",
                "--language",
                "en-US",
                "--tags",
                "files",
                "--seed",
                "7",
                "--limit",
                "3",
                "--tool-mode",
                "text",
                "--max-steps",
                "5",
                "--temperature",
                "0.5",
                "--max-tokens",
                "256",
                "--tools",
                "read_file",
                "-c",
                "8",
                "--timeout",
                "30",
                "--scoring",
                "reference",
                "--weights",
                "tool=50",
                "--samples",
                "2",
                "--cluster-by",
                "scenario",
                "--reducer",
                "majority",
                "--keep-workspaces",
                "--user-id",
                "ann",
                "--metric",
                "weighted-score",
                "--user-model",
                "openai:gpt-user",
                "--user-base-url",
                "http://127.0.0.1:8/v1",
                "--user-api-key-env",
                "USER_API_KEY",
                "--environment",
                "{\"mcp\": {\"command\": [\"python3\", \"env/shop.py\"]}, \"state\": \"shop://db\"}",
                "--run-max-tokens",
                "1000",
                "--case-max-tokens",
                "100",
                "--input-field",
                "question",
                "--target-field",
                "answer",
                "--checker",
                "choice",
                "--template",
                "Q: {{question}}",
                "--choices",
                "options",
                "--id-field",
                "qid",
                "--dimension",
                "quiz")));

        assertThat(fromFlags).isEqualTo(expected(suite));
        assertThat(TestSpecs.roundTrip(fromFlags)).isEqualTo(fromFlags);
    }

    @Test
    void assay_yaml_with_the_same_settings_resolves_to_the_same_description() throws Exception {
        Path suite = suite();
        Path yaml = dir.resolve("assay.yaml");
        Files.writeString(yaml, """
                version: 1
                defaults:
                  target: test
                  concurrency: 8
                  timeout_s: 30
                  scoring: reference
                  weights: {tool: 50}
                  user_model: openai:gpt-user
                  user_base_url: http://127.0.0.1:8/v1
                  user_api_key_env: USER_API_KEY
                  environment: {mcp: {command: [python3, env/shop.py]}, state: "shop://db"}
                  run_max_tokens: 1000
                  case_max_tokens: 100
                  cluster_by: scenario
                  reducer: majority
                targets:
                  test:
                    model: openai:gpt-test
                    base_url: http://127.0.0.1:9/v1
                    api_key_env: TEST_API_KEY
                    stream: true
                    tool_mode: text
                    max_steps: 5
                    temperature: 0.5
                    seed: 7
                    max_tokens: 256
                datasets:
                  suite.jsonl:
                    input_field: question
                    target_field: answer
                    checker: choice
                    template: "Q: {{question}}"
                    choices: options
                    id_field: qid
                    dimension: quiz
                """);
        AssayConfig config = AssayConfig.load(yaml);
        // What a file cannot say (the suites, the selection, this run's retries, user and metrics) comes from the
        // command line.
        RunSettings flags = commandLine(
                suite.toString(),
                "--retries",
                "2",
                "--max-retry-wait",
                "60",
                "--skip-invalid",
                "--dimensions",
                "tool,logic",
                "--language",
                "en-US",
                "--tags",
                "files",
                "--seed",
                "7",
                "--limit",
                "3",
                "--tools",
                "read_file",
                "--samples",
                "2",
                "--keep-workspaces",
                "--user-id",
                "ann",
                "--metric",
                "weighted-score");

        EvalSpec fromFile = RunSettings.resolve(List.of(config.settings(config.defaultSubject()), flags));

        assertThat(fromFile).isEqualTo(expected(suite));
        assertThat(TestSpecs.roundTrip(fromFile)).isEqualTo(fromFile);
    }

    @Test
    void a_datasets_mapping_in_the_file_applies_to_its_file_and_a_flag_replaces_only_its_own_field() throws Exception {
        Path suite = suite();
        Path yaml = dir.resolve("assay.yaml");
        Files.writeString(yaml, """
                datasets:
                  suite.jsonl: {input_field: question, target_field: answer, checker: exact}
                """);
        AssayConfig config = AssayConfig.load(yaml);

        EvalSpec plain =
                RunSettings.resolve(List.of(config.settings(null), commandLine(suite.toString(), "--model", "mock")));
        EvalSpec templated = RunSettings.resolve(List.of(
                config.settings(null),
                commandLine(suite.toString(), "--model", "mock", "--template", "Q: {{question}}")));
        EvalSpec other = RunSettings.resolve(List.of(
                config.settings(null), commandLine(dir.resolve("other.jsonl").toString(), "--model", "mock")));

        assertThat(plain.dataset().mapping())
                .isEqualTo(DatasetMapping.of("question", "answer").withChecker("exact"));
        assertThat(templated.dataset().mapping())
                .isEqualTo(DatasetMapping.of("question", "answer")
                        .withChecker("exact")
                        .withTemplate("Q: {{question}}"));
        assertThat(other.dataset().mapping()).isNull();
    }

    @Test
    void flags_win_over_the_file_and_a_scoring_preset_replaces_the_files_weights() throws Exception {
        Path yaml = dir.resolve("assay.yaml");
        Files.writeString(yaml, """
                defaults: {concurrency: 2, timeout_s: 10, weights: {tool: 90}}
                mcp_servers:
                  files: {command: files-server}
                targets:
                  test: {model: openai:a, max_steps: 9, seed: 1, max_attempts: 2}
                """);
        AssayConfig config = AssayConfig.load(yaml);

        EvalSpec request = RunSettings.resolve(List.of(
                config.settings("test"),
                commandLine(
                        suite().toString(),
                        "-c",
                        "6",
                        "--seed",
                        "4",
                        "--scoring",
                        "assay",
                        "--mcp-url",
                        "web=http://127.0.0.1:9/mcp")));

        assertThat(request.limits().concurrency()).isEqualTo(6);
        assertThat(request.limits().timeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(request.scoring().weights()).isEqualTo(Weights.defaults());
        assertThat(request.subject().agent().maxSteps()).isEqualTo(9);
        assertThat(request.subject().agent().seed())
                .as("--seed is the sampling seed too")
                .isEqualTo(4L);
        assertThat(((EvalSpec.Model) request.subject().sut()).options().retry().maxAttempts())
                .as("the target's max_attempts, no --retries given")
                .isEqualTo(2);
        assertThat(request.subject().tools().mcpServers())
                .extracting(McpServerConfig::name)
                .containsExactly("files", "web");
    }

    @Test
    void every_flag_with_a_field_in_a_configured_target_overrides_that_field() throws Exception {
        Path yaml = dir.resolve("assay.yaml");
        Files.writeString(yaml, """
                targets:
                  openai:
                    model: openai:a
                    base_url: http://127.0.0.1:1/v1
                    api_key_env: CONFIGURED_KEY
                    temperature: 1
                    max_tokens: 10
                    max_steps: 9
                    tool_mode: native
                """);
        AssayConfig config = AssayConfig.load(yaml);

        EvalSpec request = RunSettings.resolve(List.of(
                config.settings("openai"),
                commandLine(
                        suite().toString(),
                        "--base-url",
                        "http://127.0.0.1:2/v1",
                        "--api-key-env",
                        "NAMED_KEY",
                        "--stream",
                        "--temperature",
                        "0.5",
                        "--max-tokens",
                        "20",
                        "--max-steps",
                        "3",
                        "--tool-mode",
                        "text",
                        "--retries",
                        "0")));

        assertThat(((EvalSpec.Model) request.subject().sut()).options().model()).isEqualTo("openai:a");
        assertThat(((EvalSpec.Model) request.subject().sut()).options().baseUrl())
                .isEqualTo("http://127.0.0.1:2/v1");
        assertThat(((EvalSpec.Model) request.subject().sut()).options().apiKeyEnv())
                .isEqualTo("NAMED_KEY");
        assertThat(((EvalSpec.Model) request.subject().sut()).options().apiKeyEnvNamed())
                .isTrue();
        assertThat(((EvalSpec.Model) request.subject().sut()).options().stream())
                .isTrue();
        assertThat(((EvalSpec.Model) request.subject().sut()).options().retry().maxAttempts())
                .isEqualTo(1);
        assertThat(request.subject().agent()).isEqualTo(new AgentSettings(ToolMode.TEXT, 3, 0.5, null, 20));
    }

    @Test
    void the_stored_snapshot_reads_back_into_the_description_it_was_written_from() throws Exception {
        assertReadsBack(expected(suite(), null));
    }

    @Test
    void checker_options_from_flags_and_from_the_file_give_the_same_mapping_and_read_back() throws Exception {
        Path dataset = Files.writeString(dir.resolve("capitals.jsonl"), "{\"q\": \"France?\", \"a\": \"Paris\"}\n");
        Files.writeString(dir.resolve("assay.yaml"), """
                datasets:
                  capitals.jsonl:
                    input_field: q
                    target_field: a
                    checker: exact
                    checker_options: {ignore_case: true, fold_whitespace: true}
                """);
        AssayConfig config = AssayConfig.load(dir.resolve("assay.yaml"));

        EvalSpec fromFlags = RunSettings.resolve(List.of(commandLine(
                dataset.toString(),
                "--model",
                "mock",
                "--input-field",
                "q",
                "--target-field",
                "a",
                "--checker",
                "exact",
                "--checker-option",
                "ignore_case=true",
                "--checker-option",
                "fold_whitespace=true")));
        EvalSpec fromFile =
                RunSettings.resolve(List.of(config.settings(null), commandLine(dataset.toString(), "--model", "mock")));

        var options = Json.object().put("ignore_case", true).put("fold_whitespace", true);
        assertThat(fromFlags.dataset().mapping())
                .isEqualTo(DatasetMapping.of("q", "a").withChecker("exact").withCheckerOptions(options));
        assertThat(fromFile.dataset().mapping()).isEqualTo(fromFlags.dataset().mapping());
        assertReadsBack(fromFlags);
    }

    @Test
    void a_checker_option_given_as_text_stays_text_and_a_bad_one_in_the_file_is_refused() throws Exception {
        Path dataset = Files.writeString(dir.resolve("n.jsonl"), "{\"q\": \"?\", \"a\": \"4\"}\n");
        EvalSpec spec = RunSettings.resolve(List.of(commandLine(
                dataset.toString(),
                "--model",
                "mock",
                "--input-field",
                "q",
                "--target-field",
                "a",
                "--checker",
                "regex",
                "--checker-option",
                "on_invalid=fail")));
        Files.writeString(dir.resolve("assay.yaml"), """
                datasets:
                  n.jsonl: {input_field: q, checker_options: [ignore_case]}
                """);

        assertThat(spec.dataset().mapping().checkerOptions())
                .isEqualTo(Json.object().put("on_invalid", "fail"));
        assertThatThrownBy(() -> AssayConfig.load(dir.resolve("assay.yaml"))).hasMessageContaining("checker_options");
    }

    @Test
    void a_datasets_stored_snapshot_reads_back_with_its_mapping() throws Exception {
        Path dataset = Files.writeString(
                dir.resolve("quiz.jsonl"),
                "{\"qid\": \"q\", \"question\": \"?\", \"options\": [\"a\", \"b\"], \"answer\": 1}\n");
        EvalSpec request = RunSettings.resolve(List.of(commandLine(
                dataset.toString(),
                "--model",
                "mock",
                "--input-field",
                "question",
                "--target-field",
                "answer",
                "--choices",
                "options",
                "--id-field",
                "qid",
                "--template",
                "Q: {{question}}")));

        assertReadsBack(request);
    }

    private void assertReadsBack(EvalSpec request) throws Exception {

        JsonNode stored;
        try (var prepared = request.prepare(
                null, dir.resolve("work"), CheckerRegistry.builtins(), Map.<String, String>of()::get, line -> {})) {
            // As the store keeps it: JSON text.
            stored = Json.MAPPER.readTree(
                    Json.MAPPER.writeValueAsString(prepared.plan().config().spec()));
            assertThat(EvalSpec.read(stored)).isEqualTo(prepared.plan().config().spec());
        }

        assertThat(EvalSpec.read(stored).withObserved(EvalSpec.Observed.NONE)).isEqualTo(request);
    }

    private Path suite() throws Exception {
        Path suite = dir.resolve("suite.jsonl").toAbsolutePath();
        var lines = new ArrayList<String>();
        for (String dimension : List.of("tool", "logic")) {
            for (int i = 0; i < 3; i++) {
                lines.add(
                        "{\"id\": \"%s-%d\", \"dimension\": \"%s\", \"language\": \"en-US\", \"tags\": [\"files\"], \"prompt\": \"Say hi\", \"checker\": \"contains\", \"expected\": \"hi\"}"
                                .formatted(dimension, i, dimension));
            }
        }
        Files.write(suite, lines);
        return suite;
    }
}
