package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.testing.ScriptedOpenAiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A judge's answers are the run's, as the model's are: a second run asks the judge again unless {@code --cache} is
 * given, with it a kept grade makes no judge request; a failed judge call is not kept.
 */
class JudgeResponseCacheTest {
    private static final String GRADE = "{\"reasoning\": \"Paris is right.\", \"pass\": true}";

    @TempDir
    Path home;

    @Test
    void with_cache_a_kept_grade_makes_no_judge_request_without_it_the_judge_is_asked_again() throws Exception {
        try (var model = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(ScriptedOpenAiServer.text("Paris")));
                var judge = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(ScriptedOpenAiServer.text(GRADE)))) {
            Path suite = suite();
            Path config = config(judge);
            var cli = new CliRunner(home);

            JsonNode first = run(cli, model, suite, config);
            int afterFirst = judge.requests().size();
            JsonNode fresh = run(cli, model, suite, config);
            int afterFresh = judge.requests().size();
            JsonNode cached = run(cli, model, suite, config, "--cache");

            assertThat(afterFirst).isEqualTo(2);
            assertThat(afterFresh - afterFirst).isEqualTo(2);
            assertThat(judge.requests().size()).isEqualTo(afterFresh);
            for (JsonNode summary : new JsonNode[] {first, fresh, cached}) {
                assertThat(summary.at("/counts/passed").asInt()).isEqualTo(2);
            }
            assertThat(home.resolve("cache/judge")).doesNotExist();
        }
    }

    @Test
    void a_failed_judge_call_is_not_kept() throws Exception {
        var failing = new AtomicBoolean(true);
        try (var model = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(ScriptedOpenAiServer.text("Paris")));
                var judge = ScriptedOpenAiServer.start(request ->
                        failing.get() ? ScriptedOpenAiServer.failure(500) : ScriptedOpenAiServer.text(GRADE))) {
            Path suite = suite();
            Path config = config(judge);
            var cli = new CliRunner(home);

            assertThat(run(cli, model, suite, config, "--cache")
                            .at("/counts/error")
                            .asInt())
                    .isEqualTo(2);
            failing.set(false);
            int before = judge.requests().size();
            JsonNode retried = run(cli, model, suite, config, "--cache");

            assertThat(retried.at("/counts/passed").asInt()).isEqualTo(2);
            assertThat(judge.requests().size() - before).isEqualTo(2);
        }
    }

    private Path suite() throws Exception {
        String check = "\"checker\": \"judge\", \"expected\": {\"rubric\": \"Names Paris.\", \"scale\": \"pass_fail\"}";
        return Files.writeString(home.resolve("suite.jsonl"), """
                {"id": "a", "dimension": "common", "prompt": "Capital of France?", %s}
                {"id": "b", "dimension": "common", "prompt": "Where is the Louvre?", %s}
                """.formatted(check, check));
    }

    private Path config(ScriptedOpenAiServer judge) throws Exception {
        return Files.writeString(home.resolve("assay.yaml"), """
                version: 1
                judges:
                  default:
                    model: openai:judge
                    base_url: %s
                    api_key_env: NONE
                    max_attempts: 1
                """.formatted(judge.baseUrl()));
    }

    private static JsonNode run(CliRunner cli, ScriptedOpenAiServer model, Path suite, Path config, String... extra) {
        var args = new ArrayList<>(List.of("--config", config.toString()));
        args.addAll(List.of(extra));
        return ResponseCacheTest.run(cli, model, suite, args.toArray(String[]::new));
    }
}
