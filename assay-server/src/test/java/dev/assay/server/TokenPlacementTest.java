package dev.assay.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ?token=} exists for what cannot set a header (EventSource, download links), which only read. A token in a URL
 * leaks into histories, logs and Referer headers, so it must never authorise a call that changes anything.
 */
@Tag("security")
class TokenPlacementTest {
    @TempDir
    Path home;

    private ServerFixture server;

    @BeforeEach
    void start() throws Exception {
        server = new ServerFixture(home);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void a_mutating_call_with_the_token_only_in_the_query_is_refused() throws Exception {
        var started = server.send(
                "POST", "/api/runs?token=" + ServerFixture.TOKEN, server.startBody("basic.jsonl", ""), false);
        assertThat(started.status()).as(started.text()).isEqualTo(401);
        assertThat(started.json().path("type").asText()).isEqualTo("auth.missing_token");
        assertThat(started.json().path("detail").asText()).contains("reads only");

        String runId = server.start("basic.jsonl", "");
        server.awaitEnd(runId);
        var deleted = server.send("DELETE", "/api/runs/" + runId + "?token=" + ServerFixture.TOKEN, null, false);
        assertThat(deleted.status()).isEqualTo(401);
        assertThat(server.get("/api/runs/" + runId).status()).isEqualTo(200);
    }

    @Test
    void a_read_still_accepts_the_token_in_the_query() throws Exception {
        String runId = server.start("basic.jsonl", "");
        server.awaitEnd(runId);

        var report = server.send(
                "GET", "/api/runs/" + runId + "/report?format=json&token=" + ServerFixture.TOKEN, null, false);

        assertThat(report.status()).as(report.text()).isEqualTo(200);
    }
}
