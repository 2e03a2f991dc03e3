package dev.assay.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The suites directory bounds every file a case set reads, not only the name a body gives: a case file inside a case
 * set's directory that is a symlink leading out is refused as the link named directly is, and links that stay inside
 * are followed as before.
 */
class CaseSetLinksTest {
    @TempDir
    Path home;

    @Test
    void a_case_set_holding_a_link_leading_out_is_refused_as_the_link_named_itself_is() throws Exception {
        try (var server = new ServerFixture(home)) {
            Path good = Files.createDirectories(home.resolve("suites/good"));
            Files.writeString(good.resolve("own.jsonl"), line("own"));
            Files.createSymbolicLink(good.resolve("linked.jsonl"), outsideFile());

            var direct = server.post("/api/runs", server.startBody("good/linked.jsonl", ""));
            var throughItsDirectory = server.post("/api/runs", server.startBody("good", ""));

            assertThat(direct.status()).as(direct.text()).isEqualTo(400);
            assertThat(direct.json().path("field").asText()).isEqualTo("case_set");
            assertThat(throughItsDirectory.status())
                    .as(throughItsDirectory.text())
                    .isEqualTo(400);
            assertThat(throughItsDirectory.json().path("type").asText()).isEqualTo("request.invalid_field");
            assertThat(throughItsDirectory.json().path("field").asText()).isEqualTo("case_set");
            assertThat(throughItsDirectory.json().path("detail").asText())
                    .contains("'good/linked.jsonl' is a link leading outside the suites directory")
                    .doesNotContain(home.toString());
        }
    }

    @Test
    void links_that_stay_inside_the_suites_directory_are_followed() throws Exception {
        try (var server = new ServerFixture(home)) {
            Path shared = Files.createDirectories(home.resolve("suites/shared"));
            Files.createSymbolicLink(shared.resolve("basic.jsonl"), Path.of("../basic.jsonl"));

            var started = server.post("/api/runs", server.startBody("shared", ""));

            assertThat(started.status()).as(started.text()).isEqualTo(201);
            assertThat(started.json().path("case_count").asInt()).isEqualTo(4);
        }
    }

    @Test
    void the_listing_names_each_link_leading_out_and_reads_none_of_them() throws Exception {
        try (var server = new ServerFixture(home)) {
            Path suites = home.resolve("suites");
            Path outside = outsideFile();
            Path sub = Files.createDirectories(suites.resolve("good/sub"));
            Files.writeString(suites.resolve("good/own.jsonl"), line("own"));
            Files.createSymbolicLink(suites.resolve("good/linked.jsonl"), outside);
            // The loader reads case files whatever the case of their extension.
            Files.createSymbolicLink(sub.resolve("LINKED.JSONL"), outside);
            Files.createSymbolicLink(suites.resolve("linked.jsonl"), outside);
            Files.createSymbolicLink(suites.resolve("linked-dir"), outside.getParent());
            Files.createDirectories(suites.resolve("shared"));
            Files.createSymbolicLink(suites.resolve("shared/basic.jsonl"), Path.of("../basic.jsonl"));

            var response = server.get("/api/suites");

            assertThat(response.status()).as(response.text()).isEqualTo(200);
            assertThat(response.text()).doesNotContain("outside_secret").doesNotContain(home.toString());
            Map<String, JsonNode> byName = new HashMap<>();
            response.json()
                    .path("suites")
                    .forEach(entry -> byName.put(entry.path("name").asText(), entry));
            JsonNode entry = byName.get("good");
            assertThat(entry.path("runnable").asBoolean()).isFalse();
            assertThat(entry.path("case_count").asInt()).isZero();
            assertThat(entry.path("problems").findValuesAsText("type")).containsOnly("suite.outside");
            assertThat(entry.path("problems").findValuesAsText("file"))
                    .containsExactly("good/linked.jsonl", "good/sub/LINKED.JSONL");
            JsonNode linked = byName.get("linked.jsonl");
            assertThat(linked.path("runnable").asBoolean()).isFalse();
            assertThat(linked.path("problems").findValuesAsText("file")).containsExactly("linked.jsonl");
            JsonNode linkedDirectory = byName.get("linked-dir");
            assertThat(linkedDirectory.path("runnable").asBoolean()).isFalse();
            assertThat(linkedDirectory.path("problems").findValuesAsText("type"))
                    .containsExactly("suite.outside");
            assertThat(linkedDirectory.path("problems").findValuesAsText("file"))
                    .containsExactly("linked-dir");
            assertThat(byName.get("shared").path("case_count").asInt()).isEqualTo(4);
        }
    }

    @Test
    void a_run_whose_case_set_has_since_gained_a_link_leading_out_is_not_resumed() throws Exception {
        try (var server = new ServerFixture(home)) {
            Path lured = Files.createDirectories(home.resolve("suites/lured"));
            Files.copy(home.resolve("suites/slow.jsonl"), lured.resolve("slow.jsonl"));
            String runId = server.start("lured", "\"concurrency\": 1");
            try (var stream = server.stream(runId, 0L)) {
                for (var event = stream.next(); !event.name().equals("eval_item"); event = stream.next()) {
                    assertThat(event).isNotNull();
                }
            }
            server.post("/api/runs/" + runId + "/cancel", null);
            assertThat(server.awaitEnd(runId).path("status").asText()).isEqualTo("cancelled");
            Files.createSymbolicLink(lured.resolve("linked.jsonl"), outsideFile());

            var resumed = server.post("/api/runs/" + runId + "/resume", null);

            assertThat(resumed.status()).as(resumed.text()).isEqualTo(409);
            assertThat(resumed.json().path("type").asText()).isEqualTo("run.not_resumable");
            assertThat(resumed.json().path("detail").asText()).contains("'lured/linked.jsonl'");
            JsonNode detail = server.get("/api/runs/" + runId).json();
            assertThat(detail.path("resumable").asBoolean()).isFalse();
            assertThat(detail.at("/resume_problem/type").asText()).isEqualTo("run.not_resumable");
        }
    }

    /** A case file beside the suites directory, never to be read over HTTP. */
    private Path outsideFile() throws IOException {
        Path file = home.resolve("elsewhere/atk.jsonl");
        Files.createDirectories(file.getParent());
        return Files.exists(file) ? file : Files.writeString(file, line("outside_secret"));
    }

    private static String line(String id) {
        return "{\"id\": \"" + id + "\", \"dimension\": \"logic\", \"prompt\": \"Capital of France?\","
                + " \"checker\": \"contains\", \"expected\": \"Paris\"}\n";
    }
}
