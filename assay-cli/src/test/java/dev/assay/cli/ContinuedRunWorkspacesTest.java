package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --keep-workspaces} given to a continued run keeps every case workspace of that continuation. */
class ContinuedRunWorkspacesTest {
    @TempDir
    Path home;

    @Test
    void a_retried_case_that_passes_keeps_its_workspace_when_asked() throws Exception {
        var broken = new AtomicBoolean(true);
        try (var server = FlakyRun.model(broken::get)) {
            Path suite = Files.writeString(home.resolve("suite.jsonl"), """
                    {"id": "steady", "dimension": "common", "prompt": "steady", "checker": "contains", "expected": "ok", "files": {"notes.txt": "x"}}
                    {"id": "flaky", "dimension": "common", "prompt": "flaky", "checker": "contains", "expected": "ok", "files": {"notes.txt": "x"}}
                    """);
            // A case's files make its workspace (a case with none leaves no folder).
            var cli = new CliRunner(home).withEnv("NONE", "");
            String runId = FlakyRun.run(cli, suite, server);
            Path runWorkspaces = home.resolve("workspaces").resolve(runId);
            // Started keeping only the workspaces of failures: the one of the case in error.
            assertThat(runWorkspaces.resolve("0001_flaky")).isDirectory();
            assertThat(runWorkspaces.resolve("0000_steady")).doesNotExist();
            broken.set(false);

            var retried = cli.run("run", "--retry-errors", runId, "--keep-workspaces", "--format", "json", "-q");

            assertThat(retried.code()).as(retried.err()).isZero();
            assertThat(Json.parse(retried.out()).at("/counts/passed").asInt()).isEqualTo(2);
            assertThat(runWorkspaces.resolve("0001_flaky"))
                    .as("passed now, and kept")
                    .isDirectory();
        }
    }
}
