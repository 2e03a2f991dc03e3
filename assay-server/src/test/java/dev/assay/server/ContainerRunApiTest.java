package dev.assay.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server runs cases in containers: the body's {@code sandbox} names the engine and the image of the cases that name
 * none, and the engine is the container module's, found by name. The image asked for exists in no engine, so the run is
 * refused before any case with the engine's own {@code sandbox.unavailable} line.
 */
class ContainerRunApiTest {
    private static final String IMAGE = "localhost/assay-test/not-built:1";

    @TempDir
    Path home;

    @Test
    void theBodysSandboxReachesTheContainerEngine() throws Exception {
        try (var server = new ServerFixture(home)) {
            var started = server.post(
                    "/api/runs",
                    server.startBody(
                            "basic.jsonl", "\"sandbox\": {\"engine\": \"podman\", \"image\": \"" + IMAGE + "\"}"));

            assertThat(started.json().path("type").asText()).as(started.text()).isEqualTo("sandbox.unavailable");
            assertThat(started.status())
                    .as("a sandbox the host lacks is no server failure")
                    .isEqualTo(503);
            // Without assay-container the message would say that 'podman' is no container sandbox.
            String message = started.json().path("detail").asText();
            assertThat(message).contains("podman engine");
            boolean engineUp = "1".equals(System.getenv("ASSAY_REQUIRE_CONTAINERS"))
                    || Files.exists(Path.of("/run/podman/podman.sock"));
            if (engineUp) {
                assertThat(message).contains(IMAGE);
            }
        }
    }

    @Test
    void aSandboxThatNamesNoImageIsRefusedNamingTheField() throws Exception {
        try (var server = new ServerFixture(home)) {
            var started = server.post(
                    "/api/runs", server.startBody("basic.jsonl", "\"sandbox\": {\"engine\": \"podman\", \"pids\": 8}"));

            assertThat(started.status()).isEqualTo(400);
            assertThat(started.text()).contains("sandbox.image");
        }
    }
}
