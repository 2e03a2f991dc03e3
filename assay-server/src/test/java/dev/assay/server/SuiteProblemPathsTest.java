package dev.assay.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A suite's problems met when a run starts name its files inside the suites directory, never by host path. */
class SuiteProblemPathsTest {
    @TempDir
    Path home;

    @Test
    void an_invalid_suites_refusal_and_its_skipped_problems_name_files_relative_to_the_suites_directory()
            throws Exception {
        try (var server = new ServerFixture(home)) {
            Path mixed = Files.createDirectories(home.resolve("suites/mixed"));
            Files.writeString(
                    mixed.resolve("good.jsonl"),
                    "{\"id\": \"g\", \"dimension\": \"logic\", \"prompt\": \"Capital of France?\", \"checker\":"
                            + " \"contains\", \"expected\": \"Paris\"}\n");
            Files.writeString(mixed.resolve("broken.jsonl"), "{not json\n");

            var refused = server.post("/api/runs", server.startBody("mixed", ""));
            var skipping = server.post("/api/runs", server.startBody("mixed", "\"skip_invalid\": true"));

            assertThat(refused.status()).as(refused.text()).isEqualTo(400);
            assertThat(refused.json().path("detail").asText())
                    .contains("mixed/broken.jsonl")
                    .doesNotContain(home.toString());
            assertThat(skipping.status()).as(skipping.text()).isEqualTo(201);
            assertThat(skipping.json().path("warnings").toString())
                    .contains("mixed/broken.jsonl")
                    .doesNotContain(home.toString());
        }
    }
}
