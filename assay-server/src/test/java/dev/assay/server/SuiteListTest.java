package dev.assay.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.cases.SuiteLoader;
import dev.assay.check.CheckerRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
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

    @Test
    void an_entry_is_loaded_again_only_when_one_of_its_files_changed() throws Exception {
        Path suites = Files.createDirectories(home.resolve("suites"));
        Path single = suites.resolve("single.jsonl");
        Files.writeString(single, line("a"));
        Path directory = Files.createDirectories(suites.resolve("dir/nested"));
        Files.writeString(directory.resolve("cases.jsonl"), line("b"));
        List<Path> loads = new ArrayList<>();
        var loader = new SuiteLoader(CheckerRegistry.builtins());
        var caseSets = new CaseSets(suites, path -> {
            loads.add(path);
            return loader.load(path);
        });

        caseSets.list();
        caseSets.list();
        assertThat(loads).as("the second listing keeps both entries").hasSize(2);

        Files.writeString(single, line("a") + line("a2"));
        Files.setLastModifiedTime(single, FileTime.from(Instant.now().plusSeconds(5)));
        assertThat(countOf(caseSets.list(), "single.jsonl")).isEqualTo(2);
        Files.writeString(directory.resolve("more.jsonl"), line("c"));
        assertThat(countOf(caseSets.list(), "dir")).isEqualTo(2);
        Files.delete(directory.resolve("more.jsonl"));
        assertThat(countOf(caseSets.list(), "dir")).isEqualTo(1);
        assertThat(loads)
                .containsExactly(
                        suites.resolve("dir"),
                        suites.resolve("single.jsonl"),
                        suites.resolve("single.jsonl"),
                        suites.resolve("dir"),
                        suites.resolve("dir"));

        Files.delete(single);
        assertThat(caseSets.list()).hasSize(1);
        Files.writeString(single, line("a"));
        caseSets.list();
        assertThat(loads).as("an entry removed and made again is loaded again").hasSize(6);
    }

    private static String line(String id) {
        return "{\"id\": \"" + id + "\", \"dimension\": \"common\", \"prompt\": \"Capital of France?\","
                + " \"checker\": \"contains\", \"expected\": \"Paris\"}\n";
    }

    private static int countOf(JsonNode list, String name) {
        for (JsonNode entry : list) {
            if (entry.path("name").asText().equals(name)) {
                return entry.path("case_count").asInt();
            }
        }
        throw new AssertionError("no entry " + name + " in " + list);
    }
}
