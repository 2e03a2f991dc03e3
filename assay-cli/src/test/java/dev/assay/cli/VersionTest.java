package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VersionTest {
    @TempDir
    Path home;

    @Test
    void the_version_names_the_commit_the_cli_was_built_from() throws Exception {
        var result = new CliRunner(home).run("--version");

        assertThat(result.code()).isZero();
        String head = headCommit();
        if (head.isEmpty()) {
            // Built from a source archive: there is no commit to name, and the line must not pretend one.
            assertThat(result.out().strip()).startsWith("assay ").doesNotContain("commit");
        } else {
            assertThat(result.out().strip())
                    .matches("assay \\d+\\.\\d+\\.\\d+\\S* \\(commit [0-9a-f]{7,}, \\S+.*\\)")
                    .contains("commit " + head);
        }
    }

    private static String headCommit() throws Exception {
        try {
            Process git = new ProcessBuilder("git", "rev-parse", "--short=7", "HEAD")
                    .redirectErrorStream(true)
                    .start();
            String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return git.waitFor() == 0 ? out : "";
        } catch (IOException noGit) {
            return "";
        }
    }
}
