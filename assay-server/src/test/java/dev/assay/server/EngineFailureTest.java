package dev.assay.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run whose end the store refuses: the engine fails instead of finishing, and the server must not hang on it, nor log
 * an exception storm from its streams once they have ended.
 */
@Tag("fault")
class EngineFailureTest {
    @TempDir
    Path home;

    @Test
    void a_live_stream_ends_with_a_failed_record_when_the_store_refuses_the_run_s_end() throws Exception {
        try (var log = new LogCapture()) {
            streamUntilTheEngineFails();
            // A stream handler that outlived its request would be failing in a loop by now.
            Thread.sleep(1_500);

            assertThat(log.text()).doesNotContain("Exception handler for").doesNotContain("recycled");
            assertThat(log.lineCount()).as(log.text()).isLessThan(200);
        }
    }

    private void streamUntilTheEngineFails() throws Exception {
        try (var server = new ServerFixture(home)) {
            String runId = server.start("slow.jsonl", "\"concurrency\": 1");
            try (var stream = server.stream(runId, null)) {
                assertThat(stream.next()).isNotNull();
                server.store.close();

                List<ServerFixture.Event> events =
                        CompletableFuture.supplyAsync(stream::untilFinished).get(20, TimeUnit.SECONDS);

                ServerFixture.Event finished = events.getLast();
                assertThat(finished.name()).isEqualTo("eval_finished");
                assertThat(finished.data().path("status").asText()).isEqualTo("failed");
                assertThat(finished.data().at("/error/type").asText()).isEqualTo("run.internal_error");
            }
        }
    }
}
