package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InitCommandTest {
    @TempDir
    Path home;

    @Test
    void the_starter_project_validates_and_runs_on_its_default_target() throws Exception {
        Path project = home.resolve("project");
        var cli = new CliRunner(home);

        var init = cli.run("init", project.toString());

        assertThat(init.code()).as(init.err()).isZero();
        assertThat(init.out()).contains("wrote " + project.resolve("assay.yaml"), "assay run");
        Path suite = project.resolve("evals");
        var validate = cli.run("cases", "validate", suite.toString(), "--format", "json");
        assertThat(validate.code()).as(validate.out()).isZero();
        assertThat(Json.MAPPER.readTree(validate.out()).path("valid_cases").asInt())
                .isEqualTo(4);

        Path out = home.resolve("out");
        var run = cli.run(
                "run",
                suite.toString(),
                "--config",
                project.resolve("assay.yaml").toString(),
                "--out",
                out.toString(),
                "--format",
                "json",
                "-q");
        assertThat(run.code()).as(run.err()).isZero();
        JsonNode report = Json.MAPPER.readTree(out.resolve("report.json").toFile());
        assertThat(report.path("status").asText()).isEqualTo("finished");
        assertThat(report.path("items").size()).isEqualTo(4);
        assertThat(report.at("/config/target/model").asText()).isEqualTo("mock");
    }

    @Test
    void the_next_steps_spell_the_launcher_as_it_was_run_from_the_project_directory() throws Exception {
        Path project = home.resolve("project");
        Path launcher = Path.of("assay").toAbsolutePath();

        var init = new CliRunner(home).withEnv("ASSAY_INVOKED_AS", "./assay").run("init", project.toString());

        assertThat(init.code()).as(init.err()).isZero();
        String next = init.out().substring(init.out().indexOf("Next:"));
        assertThat(next).contains("  cd " + project);
        Matcher run = Pattern.compile("\n  (\\S+) run evals ").matcher(next);
        assertThat(run.find()).as(next).isTrue();
        String command = run.group(1);
        assertThat(project.resolve(command).normalize()).isEqualTo(launcher);
        assertThat(next).contains("  " + command + " cases validate evals");
        assertThat(Files.readString(project.resolve("evals/starter.en-US.yaml")))
                .contains("`" + command + " run evals`")
                .doesNotContain("{{assay}}");
    }

    @Test
    void the_next_steps_name_assay_when_the_launcher_is_on_the_path() throws Exception {
        var init = new CliRunner(home).withEnv("ASSAY_INVOKED_AS", "assay").run("init", home.toString());

        assertThat(init.code()).as(init.err()).isZero();
        assertThat(init.out()).contains("  assay run evals ", "  assay cases validate evals ");
        assertThat(Files.readString(home.resolve("evals/starter.en-US.yaml")))
                .contains("`assay run evals`", "docs/case-format.md");
    }

    @Test
    void an_existing_file_is_kept_unless_force_is_given() throws Exception {
        Path config = Files.writeString(home.resolve("assay.yaml"), "version: 1\n");
        var cli = new CliRunner(home);

        var refused = cli.run("init", home.toString());

        assertThat(refused.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(refused.err()).contains(config.toString(), "--force");
        assertThat(Files.readString(config)).isEqualTo("version: 1\n");
        assertThat(home.resolve("evals")).doesNotExist();

        var forced = cli.run("init", home.toString(), "--force");

        assertThat(forced.code()).as(forced.err()).isZero();
        assertThat(Files.readString(config)).contains("targets:");
        assertThat(home.resolve("evals/starter.en-US.yaml")).exists();
    }
}
