package dev.assay.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /api/suites} over a suites directory holding entries that do not load. */
@Tag("fault")
class SuiteListTest {
    @TempDir
    Path home;

    @Test
    void bad_entries_are_listed_with_their_problems_and_the_good_ones_stay_runnable() throws Exception {
        try (var server = new ServerFixture(home)) {
            Path suites = home.resolve("suites");
            Files.createDirectories(suites.resolve("empty"));
            Files.writeString(suites.resolve("broken.jsonl"), "{not json\n");
            Files.writeString(suites.resolve("half.jsonl"), """
                    {"id": "ok", "dimension": "common", "prompt": "Capital of France?", "checker": "contains", "expected": "Paris"}
                    {"id": "bad", "dimension": "common", "prompt": "No checker"}
                    """);

            var response = server.get("/api/suites");

            assertThat(response.status()).as(response.text()).isEqualTo(200);
            assertThat(response.text())
                    .doesNotContain(home.toString())
                    .doesNotContain(home.toRealPath().toString());
            Map<String, JsonNode> byName = new HashMap<>();
            response.json()
                    .path("suites")
                    .forEach(entry -> byName.put(entry.path("name").asText(), entry));
            assertThat(byName).containsKeys("basic.jsonl", "slow.jsonl", "empty", "broken.jsonl", "half.jsonl");

            assertThat(byName.get("basic.jsonl").path("case_count").asInt()).isEqualTo(4);
            assertThat(byName.get("basic.jsonl").path("runnable").asBoolean()).isTrue();
            assertThat(byName.get("basic.jsonl").path("problems")).isEmpty();

            JsonNode empty = byName.get("empty");
            assertThat(empty.path("runnable").asBoolean()).isFalse();
            assertThat(empty.path("problems").get(0).path("type").asText()).isEqualTo("suite.empty");

            JsonNode broken = byName.get("broken.jsonl");
            assertThat(broken.path("runnable").asBoolean()).isFalse();
            assertThat(broken.path("problem_count").asInt()).isPositive();
            JsonNode problem = broken.path("problems").get(0);
            assertThat(problem.path("file").asText()).isEqualTo("broken.jsonl");
            assertThat(problem.path("line").asInt()).isEqualTo(1);

            JsonNode half = byName.get("half.jsonl");
            assertThat(half.path("runnable").asBoolean()).isTrue();
            assertThat(half.path("case_count").asInt()).isEqualTo(1);
            assertThat(half.path("problems").get(0).path("case_id").asText()).isEqualTo("bad");
        }
    }
}
