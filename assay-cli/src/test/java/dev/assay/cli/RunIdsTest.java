package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run is named by its id or a unique prefix of it, never by a prefix so short that it names a run by chance. */
class RunIdsTest {
    @TempDir
    Path home;

    private String runOnce(CliRunner cli) throws Exception {
        Path suite = Files.writeString(
                home.resolve("s.jsonl"),
                "{\"id\": \"a\", \"dimension\": \"logic\", \"prompt\": \"q\", \"checker\": \"exact\", "
                        + "\"expected\": \"mock response\"}\n");
        var run = cli.run("run", suite.toString(), "--model", "mock", "--format", "json", "-q");
        return Json.parse(run.out()).path("run_id").asText();
    }

    @Test
    void a_prefix_shorter_than_four_characters_names_no_run_and_deletes_nothing() throws Exception {
        var cli = new CliRunner(home);
        String runId = runOnce(cli);

        var deleted = cli.run("runs", "delete", runId.substring(0, 1));
        var continued = cli.run("run", "--resume", runId.substring(0, 3));

        assertThat(deleted.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(deleted.err()).contains("run.not_found").contains("at least 4 characters");
        assertThat(continued.err()).contains("run.not_found");
        assertThat(cli.run("runs", "show", runId.substring(0, 4)).out()).contains(runId);
    }

    @Test
    void a_run_is_continued_by_a_prefix_of_its_id_as_it_is_shown() throws Exception {
        var cli = new CliRunner(home);
        String runId = runOnce(cli);

        var continued = cli.run("run", "--resume", runId.substring(0, 8));

        assertThat(continued.err()).doesNotContain("run.not_found");
        assertThat(continued.out() + continued.err()).contains(runId);
    }
}
