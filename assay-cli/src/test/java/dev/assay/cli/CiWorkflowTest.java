package dev.assay.cli;

import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.assay.testing.ScriptedOpenAiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GitHub Actions workflow docs/ci.md publishes: its {@code assay} command line is run as written (paths moved into
 * a temporary project made by {@code assay init}, the model pointed at a scripted server), so the example cannot fall
 * out of step with the CLI.
 */
class CiWorkflowTest {
    private static final Path WORKFLOW = Path.of("..", "examples", "ci", "github-actions.yml");
    private static final String LAUNCHER = ".assay/assay";

    @TempDir
    Path home;

    @Test
    void the_workflow_command_runs_and_fails_the_job_under_its_threshold_with_a_junit_report() throws Exception {
        JsonNode evaluate = step("Evaluate");
        assertThat(evaluate.path("env").has("OPENAI_API_KEY")).isTrue();
        String command = evaluate.path("run").asText().strip();
        assertThat(command).startsWith(LAUNCHER + " run ");
        Path project = home.resolve("project");
        var cli = new CliRunner(home).withEnv("OPENAI_API_KEY", "test-key");
        assertThat(cli.run("init", project.toString()).code()).isZero();

        List<String> args = new ArrayList<>();
        for (String word :
                Arrays.asList(command.substring(LAUNCHER.length()).strip().split("\\s+"))) {
            args.add(
                    word.equals("evals") || word.startsWith("build/")
                            ? project.resolve(word).toString()
                            : word);
        }
        CliRunner.Result result;
        try (var model = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("165")))) {
            args.addAll(List.of("--base-url", model.baseUrl()));
            result = cli.run(args.toArray(String[]::new));
        }

        assertThat(result.code()).as(result.err()).isEqualTo(ExitCodes.THRESHOLD_MISSED);
        Path junit = project.resolve("build/assay/junit.xml");
        String report = Files.readString(junit);
        assertThat(report.split("<testcase ", -1)).hasSize(5);
        assertThat(step("Show every case in the checks tab")
                        .path("with")
                        .path("report_paths")
                        .asText())
                .isEqualTo(project.relativize(junit).toString());
        assertThat(step("Keep the reports").path("with").path("path").asText()).isEqualTo("build/assay/");
    }

    private static JsonNode step(String name) throws Exception {
        JsonNode workflow = new YAMLMapper().readTree(WORKFLOW.toFile());
        for (JsonNode step : workflow.path("jobs").path("evaluate").path("steps")) {
            if (step.path("name").asText().equals(name)) {
                return step;
            }
        }
        throw new AssertionError("no step named '" + name + "' in " + WORKFLOW);
    }
}
