package dev.assay.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streams that outlive their request: the server stops, or the client leaves, while a stream's handler waits for the
 * next event. Jetty recycles the request under it; the handler must end once and quietly, never feed Javalin's
 * exception handling a request that is gone (which loops forever, millions of log lines), and a client that leaves
 * costs no log line at all.
 */
@Tag("fault")
class StreamShutdownTest {
    @TempDir
    Path home;

    @Test
    void stopping_the_server_under_open_streams_logs_no_exception_storm() throws Exception {
        try (var log = new LogCapture()) {
            for (int round = 0; round < 3; round++) {
                var server = new ServerFixture(home.resolve("home-" + round));
                String runId = server.start("slow.jsonl", "\"concurrency\": 1");
                var left = server.stream(runId, null);
                var open = server.stream(runId, null);
                assertThat(left.next()).isNotNull();
                assertThat(open.next()).isNotNull();
                left.close();
                server.close();
                open.close();
            }
            // The handlers notice the end within their one-second poll; a storm would be under way by then.
            Thread.sleep(2_500);

            assertThat(log.text()).doesNotContain("Exception");
            assertThat(log.lineCount()).as(log.text()).isLessThan(50);
        }
    }

    @Test
    void clients_leaving_in_the_middle_of_a_replay_log_nothing() throws Exception {
        try (var log = new LogCapture();
                var server = new ServerFixture(home)) {
            var cases = new StringBuilder();
            for (int i = 0; i < 600; i++) {
                cases.append("""
                        {"id": "c%d", "dimension": "common", "prompt": "Capital of France? %s", "checker": "contains", "expected": "Paris"}
                        """.formatted(i, "padding ".repeat(40)));
            }
            Files.writeString(home.resolve("suites").resolve("many.jsonl"), cases);
            String runId = server.start("many.jsonl", "\"concurrency\": 8");
            server.awaitEnd(runId);

            // Each replays ~1 800 buffered events (about a megabyte); the client reads one and hangs up.
            for (int client = 0; client < 5; client++) {
                try (var stream = server.stream(runId, 0L)) {
                    assertThat(stream.next()).isNotNull();
                }
            }
            Thread.sleep(1_500);

            assertThat(log.lineCount()).as(log.text()).isZero();
        }
    }
}
