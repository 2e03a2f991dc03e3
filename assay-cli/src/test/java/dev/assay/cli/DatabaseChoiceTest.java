package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where every command stores and reads runs: {@code --db}, else assay.yaml's {@code defaults.db}, else the Assay home's
 * SQLite file ({@link DatabaseOption#url}).
 */
class DatabaseChoiceTest {
    @TempDir
    Path temp;

    private Path home;
    private Path project;
    private String teamDb;

    @BeforeEach
    void project() throws Exception {
        home = temp.resolve("home");
        project = Files.createDirectories(temp.resolve("project"));
        teamDb = "jdbc:sqlite:" + temp.resolve("team.db");
        Files.writeString(project.resolve("assay.yaml"), """
                version: 1
                defaults:
                  db: %s
                """.formatted(teamDb));
        Files.writeString(project.resolve("suite.jsonl"), """
                {"id": "answer", "dimension": "common", "prompt": "Capital of France?", "checker": "contains", "expected": "Paris"}
                """);
    }

    @Test
    void run_stores_in_the_configured_database_unless_db_is_given() {
        var cli = new CliRunner(home);
        String config = project.resolve("assay.yaml").toString();
        String suite = project.resolve("suite.jsonl").toString();

        String configured = runId(cli.run("run", suite, "--config", config, "--model", "mock", "--format", "json"));
        String other = "jdbc:sqlite:" + temp.resolve("other.db");
        String flagged =
                runId(cli.run("run", suite, "--config", config, "--db", other, "--model", "mock", "--format", "json"));

        assertThat(listed(cli.run("runs", "list", "--db", teamDb, "--format", "json")))
                .containsExactly(configured);
        assertThat(listed(cli.run("runs", "list", "--db", other, "--format", "json")))
                .containsExactly(flagged);
        // Without a configuration, the Assay home's database, which holds neither.
        assertThat(listed(cli.run("runs", "list", "--format", "json"))).isEmpty();
    }

    @Test
    void every_command_run_in_the_project_uses_its_database_and_db_still_wins() throws Exception {
        String runId = runId(assay("run", "suite.jsonl", "--model", "mock", "--format", "json"));

        assertThat(listed(assay("runs", "list", "--format", "json"))).containsExactly(runId);
        assertThat(assay("runs", "show", runId, "--format", "json").code()).isZero();
        String homeDb = "jdbc:sqlite:" + home.resolve("assay.db");
        assertThat(listed(assay("runs", "list", "--db", homeDb, "--format", "json")))
                .isEmpty();
    }

    /** {@return what the CLI did, run in a process of its own in the project, where its assay.yaml is} */
    private CliRunner.Result assay(String... args) throws Exception {
        var command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                AssayCli.class.getName()));
        command.addAll(List.of(args));
        var builder = new ProcessBuilder(command).directory(project.toFile());
        builder.environment().put("ASSAY_HOME", home.toString());
        Path err = temp.resolve("stderr");
        builder.redirectError(err.toFile());
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new CliRunner.Result(process.exitValue(), out, Files.readString(err));
    }

    private static String runId(CliRunner.Result result) {
        assertThat(result.code()).as(result.err()).isZero();
        return Json.parse(result.out()).path("run_id").asText();
    }

    private static List<String> listed(CliRunner.Result result) {
        assertThat(result.code()).as(result.err()).isZero();
        var ids = new ArrayList<String>();
        for (JsonNode run : Json.parse(result.out()).path("runs")) {
            ids.add(run.path("run_id").asText());
        }
        return ids;
    }
}
