package dev.assay.cli;

import static dev.assay.testing.ScriptedSseAgent.event;
import static dev.assay.testing.ScriptedSseAgent.events;
import static dev.assay.testing.ScriptedSseAgent.pause;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.store.Stores;
import dev.assay.testing.ScriptedSseAgent;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs of an agent service ({@code --agent}) are durable as a model's are: killed with {@code -9}, one is resumed from
 * its stored description, every case stored exactly once and the service asked at most once per case plus the call in
 * flight when it died; the service's answers are the run's, reused across runs only with {@code --cache}, failures
 * never kept.
 */
class AgentServiceRunResumeTest {
    private static final int CASES = 4;
    private static final int CONCURRENCY = 1;

    @TempDir
    Path home;

    @Test
    void a_killed_agent_service_run_is_resumed_with_every_case_once() throws Exception {
        var slow = new AtomicBoolean(true);
        try (var agent =
                ScriptedSseAgent.start(body -> body.path("question").asText().contains("quick") || !slow.get()
                        ? events(event("final", "{\"answer\": \"ok\"}"))
                        : events(pause(30_000), event("final", "{\"answer\": \"late\"}")))) {
            Path suite = suite();
            Process process = start(suite, agent);
            try (var reader =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    if (line.startsWith("[1/" + CASES + "]")) {
                        process.destroyForcibly(); // SIGKILL: no shutdown hook, no last write
                        break;
                    }
                }
            }
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            slow.set(false);
            var cli = new CliRunner(home).withEnv("ASSAY_RUN_SILENCE_S", "1");
            String runId = Json.parse(
                            cli.run("runs", "list", "--format", "json").out())
                    .at("/runs/0/run_id")
                    .asText();
            Thread.sleep(1_500);

            var resumed = cli.run("run", "--resume", runId, "--format", "json", "-q");

            assertThat(resumed.code()).as(resumed.err()).isZero();
            JsonNode summary = Json.parse(resumed.out());
            assertThat(summary.path("run_id").asText()).isEqualTo(runId);
            assertThat(summary.at("/counts/passed").asInt()).isEqualTo(CASES);
            try (var store = Stores.open(Stores.defaultUrl(home))) {
                assertThat(store.countItems(runId)).isEqualTo(CASES);
            }
            assertThat(agent.requests()).hasSizeLessThanOrEqualTo(CASES + CONCURRENCY);
            assertThat(agent.requests().stream()
                            .filter(request ->
                                    request.body().path("question").asText().contains("quick")))
                    .hasSize(1);
        }
    }

    @Test
    void with_cache_a_kept_agent_answer_makes_no_request_and_a_failed_call_is_not_kept() throws Exception {
        var failing = new AtomicBoolean(true);
        try (var agent = ScriptedSseAgent.start(
                body -> failing.get() && body.path("question").asText().contains("slow 0")
                        ? ScriptedSseAgent.failure(500)
                        : events(event("final", "{\"answer\": \"ok\"}")))) {
            Path suite = suite();
            var cli = new CliRunner(home);

            JsonNode first = run(cli, agent, suite, "--cache");
            int afterFirst = agent.requests().size();
            failing.set(false);
            JsonNode cached = run(cli, agent, suite, "--cache");
            int afterCached = agent.requests().size();
            run(cli, agent, suite);

            assertThat(first.at("/counts/error").asInt()).isEqualTo(1);
            assertThat(cached.at("/counts/passed").asInt()).isEqualTo(CASES);
            assertThat(afterCached - afterFirst)
                    .as("only the failed call is asked again")
                    .isEqualTo(1);
            assertThat(agent.requests().size() - afterCached)
                    .as("without --cache")
                    .isEqualTo(CASES);
        }
    }

    private Path suite() throws Exception {
        var lines = new StringBuilder("{\"id\": \"quick\", \"dimension\": \"common\", \"prompt\": \"quick\", "
                + "\"checker\": \"contains\", \"expected\": \"ok\"}\n");
        for (int i = 0; i < CASES - 1; i++) {
            lines.append("{\"id\": \"slow%d\", \"dimension\": \"common\", \"prompt\": \"slow %d\", ".formatted(i, i))
                    .append("\"checker\": \"contains\", \"expected\": \"ok\"}\n");
        }
        return Files.writeString(home.resolve("suite.jsonl"), lines);
    }

    private Process start(Path suite, ScriptedSseAgent agent) throws Exception {
        return QuickThenSlowRun.cli(
                home,
                "run",
                suite.toString(),
                "--agent",
                agent.url(),
                "--concurrency",
                String.valueOf(CONCURRENCY),
                "--verbose");
    }

    private static JsonNode run(CliRunner cli, ScriptedSseAgent agent, Path suite, String... extra) {
        var args = new ArrayList<>(
                List.of("run", suite.toString(), "--agent", agent.url(), "--retries", "0", "--format", "json", "-q"));
        args.addAll(List.of(extra));
        return Json.parse(cli.run(args.toArray(String[]::new)).out());
    }
}
