package dev.assay.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.cases.SuiteLoader;
import dev.assay.check.CheckerRegistry;
import java.io.IOException;
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
        Path single = written(suites.resolve("single.jsonl"), line("a", "logic1"));
        Path nested = Files.createDirectories(suites.resolve("dir/nested"));
        written(nested.resolve("cases.jsonl"), line("b", "logic1"));
        List<Path> loads = new ArrayList<>();
        var loader = new SuiteLoader(CheckerRegistry.builtins());
        var caseSets = new CaseSets(suites, path -> {
            loads.add(path);
            return loader.load(path);
        });

        caseSets.list();
        caseSets.list();
        assertThat(loads).as("the second listing keeps both entries").hasSize(2);

        // Replaced by a file of the same size and modification time, as an archive or cp -p leaves it.
        FileTime before = Files.getLastModifiedTime(single);
        Files.delete(single);
        Files.writeString(single, line("a", "logic2"));
        Files.setLastModifiedTime(single, before);
        assertThat(entry(caseSets.list(), "single.jsonl").path("dimensions").has("logic2"))
                .isTrue();
        written(nested.resolve("more.jsonl"), line("c", "logic1"));
        assertThat(entry(caseSets.list(), "dir").path("case_count").asInt()).isEqualTo(2);
        Files.delete(nested.resolve("more.jsonl"));
        assertThat(entry(caseSets.list(), "dir").path("case_count").asInt()).isEqualTo(1);
        assertThat(loads)
                .containsExactly(
                        suites.resolve("dir"),
                        suites.resolve("single.jsonl"),
                        suites.resolve("single.jsonl"),
                        suites.resolve("dir"),
                        suites.resolve("dir"));

        Files.delete(single);
        assertThat(caseSets.list()).hasSize(1);
        written(single, line("a", "logic1"));
        caseSets.list();
        assertThat(loads).as("an entry removed and made again is loaded again").hasSize(6);

        // Modified within the file system's clock tick: it could change again unseen, so it is not kept.
        Files.writeString(nested.resolve("fresh.jsonl"), line("d", "logic1"));
        caseSets.list();
        caseSets.list();
        assertThat(loads.subList(6, loads.size())).containsExactly(suites.resolve("dir"), suites.resolve("dir"));
    }

    /** A file written a minute ago, as far as its modification time tells. */
    private static Path written(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minusSeconds(60)));
        return file;
    }

    private static String line(String id, String dimension) {
        return "{\"id\": \"" + id + "\", \"dimension\": \"" + dimension + "\", \"prompt\": \"Capital of France?\","
                + " \"checker\": \"contains\", \"expected\": \"Paris\"}\n";
    }

    private static JsonNode entry(JsonNode list, String name) {
        for (JsonNode entry : list) {
            if (entry.path("name").asText().equals(name)) {
                return entry;
            }
        }
        throw new AssertionError("no entry " + name + " in " + list);
    }
}
