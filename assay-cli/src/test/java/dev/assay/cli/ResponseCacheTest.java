package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.testing.ScriptedOpenAiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Model answers kept in the database: a second run asks the model again unless {@code --cache} is given; with it, a
 * kept answer makes no call. Failures are never kept, and each sample of a case has its own answer.
 */
class ResponseCacheTest {
    @TempDir
    Path home;

    @Test
    void with_cache_a_kept_answer_makes_no_call_without_it_the_model_is_asked_again() throws Exception {
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(ScriptedOpenAiServer.text("ok")))) {
            Path suite = suite();
            var cli = new CliRunner(home);

            JsonNode first = run(cli, server, suite);
            int afterFirst = server.requests().size();
            JsonNode fresh = run(cli, server, suite);
            int afterFresh = server.requests().size();
            JsonNode cached = run(cli, server, suite, "--cache");
            int afterCached = server.requests().size();
            JsonNode young = run(cli, server, suite, "--cache=1h");

            assertThat(afterFirst).isEqualTo(2);
            assertThat(afterFresh - afterFirst).isEqualTo(2);
            assertThat(afterCached).isEqualTo(afterFresh);
            assertThat(server.requests().size()).isEqualTo(afterFresh);
            for (JsonNode summary : new JsonNode[] {first, fresh, cached, young}) {
                assertThat(summary.at("/counts/passed").asInt()).isEqualTo(2);
            }
            var stats = Json.parse(cli.run("cache", "stats", "--format", "json").out());
            assertThat(stats.path("responses").asInt()).isEqualTo(4);
            assertThat(stats.path("runs").asInt()).isEqualTo(2);
            assertThat(cli.run("cache", "clear").out()).contains("forgot 4");
            run(cli, server, suite, "--cache");
            assertThat(server.requests().size() - afterFresh).isEqualTo(2);
        }
    }

    @Test
    void a_failure_is_not_kept_and_samples_have_answers_of_their_own() throws Exception {
        var failing = new AtomicBoolean(true);
        try (var server = ScriptedOpenAiServer.start(
                request -> failing.get() ? ScriptedOpenAiServer.failure(500) : ScriptedOpenAiServer.text("ok"))) {
            Path suite = suite();
            var cli = new CliRunner(home);

            assertThat(run(cli, server, suite, "--cache").at("/counts/error").asInt())
                    .isEqualTo(2);
            failing.set(false);
            int before = server.requests().size();
            JsonNode retried = run(cli, server, suite, "--cache", "--samples", "3");

            assertThat(retried.at("/counts/passed").asInt()).isEqualTo(6);
            assertThat(server.requests().size() - before).isEqualTo(6);
        }
    }

    private Path suite() throws Exception {
        return Files.writeString(home.resolve("suite.jsonl"), """
                {"id": "a", "dimension": "common", "prompt": "first", "checker": "contains", "expected": "ok"}
                {"id": "b", "dimension": "common", "prompt": "second", "checker": "contains", "expected": "ok"}
                """);
    }

    /** {@return the JSON summary of a run of the suite against the scripted model, with {@code extra} options} */
    static JsonNode run(CliRunner cli, ScriptedOpenAiServer server, Path suite, String... extra) {
        var args = new ArrayList<>(List.of(
                "run",
                suite.toString(),
                "--model",
                "openai:scripted",
                "--base-url",
                server.baseUrl(),
                "--api-key-env",
                "NONE",
                "--retries",
                "0",
                "--format",
                "json",
                "-q"));
        args.addAll(List.of(extra));
        var result = cli.withEnv("NONE", "").run(args.toArray(String[]::new));
        return Json.parse(result.out());
    }
}
