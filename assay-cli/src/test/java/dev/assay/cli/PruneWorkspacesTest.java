package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The workspaces runs keep: where the run says they are, and {@code assay runs prune}. */
class PruneWorkspacesTest {
    @TempDir
    Path home;

    /** Two cases whose workspaces are seeded with a file, which mock's answer fails: both workspaces are kept. */
    private String seededSuite() throws Exception {
        return Files.writeString(home.resolve("seeded.jsonl"), """
                        {"id": "seeded_1", "dimension": "tool", "prompt": "Read notes.txt", "files": {"notes.txt": "one"}, "checker": "contains", "expected": "one"}
                        {"id": "seeded_2", "dimension": "tool", "prompt": "Read notes.txt", "files": {"notes.txt": "two"}, "checker": "contains", "expected": "two"}
                        """).toString();
    }

    @Test
    void a_run_that_kept_workspaces_says_where_on_stderr_in_every_format() throws Exception {
        var cli = new CliRunner(home);

        var table = cli.run("run", seededSuite(), "--model", "mock");
        var json = cli.run("run", seededSuite(), "--model", "mock", "--format", "json");

        for (var run : java.util.List.of(table, json)) {
            assertThat(run.code()).as(run.err()).isZero();
            assertThat(run.err())
                    .containsPattern("Workspaces of 2 cases kept for inspection: "
                            + java.util.regex.Pattern.quote(
                                    home.resolve("workspaces").toString()))
                    .contains("assay runs prune");
        }
        assertThat(Json.parse(json.out()).path("run_id").asText()).isNotEmpty();
    }

    @Test
    void prune_deletes_kept_workspaces_older_than_the_age_or_of_the_runs_named_and_a_dry_run_deletes_nothing()
            throws Exception {
        var cli = new CliRunner(home);
        var run = cli.run("run", seededSuite(), "--model", "mock", "--format", "json");
        String runId = Json.parse(run.out()).path("run_id").asText();
        Path workspaces = home.resolve("workspaces");
        Path recent = workspaces.resolve(runId);
        assertThat(recent).isDirectory();
        // The workspace of a run deleted from the database long ago.
        Path old = Files.createDirectories(workspaces.resolve("old-run").resolve("0_some_case"));
        Files.writeString(old.resolve("notes.txt"), "left by the model");
        Files.setLastModifiedTime(old.getParent(), FileTime.from(Instant.now().minus(Duration.ofDays(10))));

        var dry = cli.run("runs", "prune", "--older-than", "7d", "--dry-run");

        assertThat(dry.code()).as(dry.err()).isZero();
        assertThat(dry.out()).contains("would delete " + old.getParent());
        assertThat(old).isDirectory();

        var byAge = cli.run("runs", "prune", "--older-than", "7d");

        assertThat(byAge.code()).as(byAge.err()).isZero();
        assertThat(old.getParent()).doesNotExist();
        assertThat(recent).isDirectory();

        var byRun = cli.run("runs", "prune", runId.substring(0, 8));

        assertThat(byRun.code()).as(byRun.err()).isZero();
        assertThat(recent).doesNotExist();
        assertThat(byRun.out()).contains("deleted " + recent);
    }

    @Test
    void prune_without_an_age_or_a_run_or_with_an_unreadable_age_is_a_usage_error() {
        var cli = new CliRunner(home);

        assertThat(cli.run("runs", "prune").code()).isEqualTo(ExitCodes.USAGE);
        var badAge = cli.run("runs", "prune", "--older-than", "a week");
        assertThat(badAge.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(badAge.err()).contains("--older-than");
        var unknownRun = cli.run("runs", "prune", "nosuchrun");
        assertThat(unknownRun.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknownRun.err()).contains("run.not_found");
    }
}
