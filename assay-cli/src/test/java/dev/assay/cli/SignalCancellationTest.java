package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import dev.assay.result.ItemStatus;
import dev.assay.result.RunStatus;
import dev.assay.store.RunQuery;
import dev.assay.store.Stores;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SIGTERM (what Ctrl-C's SIGINT also does) cancels a CLI run in another process and keeps what finished. */
class SignalCancellationTest {
    @TempDir
    Path home;

    @Test
    void sigterm_stores_the_run_as_cancelled_with_its_finished_items_and_writes_its_reports() throws Exception {
        Path reports = home.resolve("reports");
        try (var server = QuickThenSlowRun.model(() -> true)) {
            Process process = QuickThenSlowRun.start(home, server, "--out", reports.toString());
            var output = new StringBuilder();
            try (var reader =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    output.append(line).append('\n');
                    if (line.startsWith("[1/4]")) {
                        // The quick case is stored; the first slow case is now waiting on the model. SIGTERM, sent
                        // without
                        // closing our end of its output (Process.destroy would), so the shutdown lines are read too.
                        Thread.sleep(300);
                        process.toHandle().destroy();
                    }
                }
            }
            assertThat(process.waitFor(30, TimeUnit.SECONDS))
                    .as(output.toString())
                    .isTrue();
            assertThat(process.exitValue()).as(output.toString()).isEqualTo(143);
            assertThat(output.toString()).contains("cancelling");
            // CI stops a job with SIGTERM: the reports of what finished are still there to read.
            assertThat(reports.resolve("junit.xml")).isRegularFile();
            assertThat(Json.parse(Files.readString(reports.resolve("report.json")))
                            .path("status")
                            .asText())
                    .isEqualTo("cancelled");

            try (var store = Stores.open("jdbc:sqlite:" + home.resolve("assay.db"))) {
                var run = store.listRuns(RunQuery.all()).getFirst();
                assertThat(run.status()).isEqualTo(RunStatus.CANCELLED);
                var items = store.listItems(run.runId(), 0, 10);
                assertThat(items).anySatisfy(item -> {
                    assertThat(item.caseId()).isEqualTo("quick");
                    assertThat(item.status()).isEqualTo(ItemStatus.PASSED);
                });
                assertThat(items).noneMatch(item -> item.caseId().equals("slow2"));
            }
        }
    }
}
