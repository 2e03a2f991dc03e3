package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.result.RunStatus;
import dev.assay.run.SilentRuns;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.testing.CuttableProxy;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.TestPostgres;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PostgreSQL outage that outlasts {@code --db-retry}, through a loopback proxy that is cut for good once the run has
 * stored its first item: the CLI, a process of its own, says so in one error line (and at most one warning when the
 * outage starts) and exits 3; the run it could not end is known dead as soon as the database is back, since its process
 * was of this host and has ended.
 */
@Tag("fault")
@ExtendWith(TestPostgres.Schemas.class)
class DatabaseOutageExitTest {
    private static final int CASES = 200;

    @TempDir
    Path home;

    @Test
    void a_database_outage_past_db_retry_ends_the_cli_with_one_error_line_and_the_run_is_known_dead_once_it_is_back()
            throws Exception {
        String url = TestPostgres.freshUrl();
        try (var proxy = CuttableProxy.before(url);
                var model = ScriptedOpenAiServer.start(
                        request -> new ScriptedOpenAiServer.Reply.Delayed(20, ScriptedOpenAiServer.text("ok")))) {
            var lines = new StringBuilder();
            for (int i = 0; i < CASES; i++) {
                lines.append(
                        "{\"id\": \"c%d\", \"dimension\": \"common\", \"prompt\": \"p%d\", \"checker\": \"contains\", \"expected\": \"ok\"}\n"
                                .formatted(i, i));
            }
            Path suite = Files.writeString(home.resolve("suite.jsonl"), lines);
            Process cli = QuickThenSlowRun.cli(
                    home,
                    "run",
                    suite.toString(),
                    "--model",
                    "openai:scripted",
                    "--base-url",
                    model.baseUrl(),
                    "--api-key-env",
                    "NONE",
                    "-c",
                    "2",
                    "--verbose",
                    "--db",
                    proxy.route(url),
                    "--db-retry",
                    "3");
            var output = new ArrayList<String>();
            long started = System.nanoTime();
            long cutAt = 0;
            try (var reader = new BufferedReader(new InputStreamReader(cli.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    output.add(line);
                    if (cutAt == 0 && line.startsWith("[1/")) {
                        proxy.cut();
                        cutAt = System.nanoTime();
                    }
                }
            }
            assertThat(cli.waitFor(60, TimeUnit.SECONDS)).isTrue();
            // Measured, not asserted: how long the CLI took from the cut to its exit.
            System.out.printf(
                    "outage exit: %.1f s after the cut (%.1f s in all)%n%s%n",
                    (System.nanoTime() - cutAt) / 1e9, (System.nanoTime() - started) / 1e9, String.join("\n", output));

            assertThat(cli.exitValue()).as(String.join("\n", output)).isEqualTo(ExitCodes.CANNOT_RUN);
            List<String> errors =
                    output.stream().filter(line -> line.startsWith("error:")).toList();
            assertThat(errors)
                    .as(String.join("\n", output))
                    .singleElement()
                    .asString()
                    .contains("store.outage");
            // Besides the progress lines, one line at most: the outage's start.
            assertThat(output.stream().filter(line -> line.startsWith("warning:") || line.startsWith("  ")))
                    .as(String.join("\n", output))
                    .hasSizeLessThanOrEqualTo(1)
                    .allMatch(line -> line.contains("unavailable"));

            proxy.restore();
            try (Store store = Stores.open(url)) {
                String runId = store.runningRuns().getFirst().runId();

                SilentRuns.interrupt(store, SilentRuns.DEFAULT_SILENCE);

                assertThat(store.findRun(runId).orElseThrow().status()).isEqualTo(RunStatus.INTERRUPTED);
            }
        }
    }
}
