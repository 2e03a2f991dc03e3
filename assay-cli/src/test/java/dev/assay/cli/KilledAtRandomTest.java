package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.TestPostgres;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of a CLI run at a random point, then {@code --resume}, on SQLite and on PostgreSQL: every case ends
 * with exactly one item, the verdicts are those of an uninterrupted run, and the model is asked at most N + concurrency
 * times in all (the answers stored before the kill are replayed; only the calls in flight are made again). The seed of
 * the kill point is in every assertion's description, so a failure can be replayed.
 */
class KilledAtRandomTest {
    private static final int CASES = 24;
    private static final int CONCURRENCY = 3;

    @TempDir
    Path home;

    @TempDir
    Path referenceHome;

    @Test
    void a_run_killed_at_a_random_point_on_sqlite_resumes_to_the_verdicts_of_an_uninterrupted_run() throws Exception {
        killThenResume(Stores.defaultUrl(home), Stores.defaultUrl(referenceHome));
    }

    @Test
    void a_run_killed_at_a_random_point_on_postgresql_resumes_to_the_verdicts_of_an_uninterrupted_run()
            throws Exception {
        TestPostgres.require();
        try {
            killThenResume(TestPostgres.freshUrl(), TestPostgres.freshUrl());
        } finally {
            TestPostgres.dropSchemas();
        }
    }

    /** Even cases are answered right, odd ones wrong, each after a short delay so that the kill lands mid-run. */
    private static ScriptedOpenAiServer model() {
        return ScriptedOpenAiServer.start(request -> {
            int index = Integer.parseInt(request.firstUserText().replaceAll("\\D", ""));
            return new ScriptedOpenAiServer.Reply.Delayed(
                    40, ScriptedOpenAiServer.text(index % 2 == 0 ? "answer-" + index : "no idea"));
        });
    }

    private void killThenResume(String db, String referenceDb) throws Exception {
        long seed = System.nanoTime();
        int killAfter = 1 + new Random(seed).nextInt(CASES - 2);
        String why = "seed " + seed + ": killed once " + killAfter + " of " + CASES + " items were printed";
        var lines = new StringBuilder();
        for (int i = 0; i < CASES; i++) {
            lines.append(Json.write(Json.object()
                            .put("id", "c" + i)
                            .put("dimension", "logic")
                            .put("prompt", "question " + i)
                            .put("checker", "contains")
                            .put("expected", "answer-" + i)))
                    .append('\n');
        }
        Path suite = Files.writeString(home.resolve("suite.jsonl"), lines);

        Map<String, ItemStatus> uninterrupted;
        try (var reference = model()) {
            var run = new CliRunner(referenceHome).run(arguments(suite, reference, referenceDb, "-q"));
            assertThat(run.code()).as(run.err()).isZero();
            uninterrupted =
                    statuses(referenceDb, Json.parse(run.out()).path("run_id").asText());
        }
        assertThat(uninterrupted.values()).as("the reference run").contains(ItemStatus.PASSED, ItemStatus.FAILED);

        try (var server = model()) {
            Process process = QuickThenSlowRun.cli(home, arguments(suite, server, db, "--verbose"));
            int printed = 0;
            try (var reader =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    if (line.matches("^\\[\\d+/" + CASES + "].*") && ++printed == killAfter) {
                        process.destroyForcibly(); // SIGKILL: no shutdown hook, no last write
                        break;
                    }
                }
            }
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).as(why).isTrue();
            assertThat(printed).as(why).isEqualTo(killAfter);

            Thread.sleep(1_500);
            var cli = new CliRunner(home).withEnv("ASSAY_RUN_SILENCE_S", "1");
            JsonNode listed = Json.parse(cli.run("runs", "list", "--db", db, "--format", "json")
                            .out())
                    .at("/runs/0");
            assertThat(listed.path("status").asText()).as(why).isEqualTo("interrupted");
            String runId = listed.path("run_id").asText();

            var resumed = cli.run("run", "--resume", runId, "--db", db, "--format", "json", "-q");

            assertThat(resumed.code()).as(why + "\n" + resumed.err()).isZero();
            Map<String, ItemStatus> verdicts = statuses(db, runId);
            assertThat(verdicts).as(why).isEqualTo(uninterrupted);
            assertThat(server.requests()).as(why).hasSizeLessThanOrEqualTo(CASES + CONCURRENCY);
        }
    }

    private static String[] arguments(Path suite, ScriptedOpenAiServer model, String db, String output) {
        return new String[] {
            "run",
            suite.toString(),
            "--model",
            "openai:scripted",
            "--base-url",
            model.baseUrl(),
            "--api-key-env",
            "NONE",
            "--concurrency",
            Integer.toString(CONCURRENCY),
            "--db",
            db,
            "--format",
            "json",
            output
        };
    }

    /** {@return each case's status, failing if a case has no item or more than one} */
    private static Map<String, ItemStatus> statuses(String db, String runId) {
        List<Item> items = new ArrayList<>();
        try (Store store = Stores.open(db)) {
            items.addAll(store.listItems(runId, 0, 10 * CASES));
        }
        Map<String, Long> perCase =
                items.stream().collect(Collectors.groupingBy(Item::caseId, TreeMap::new, Collectors.counting()));
        assertThat(perCase)
                .hasSize(CASES)
                .allSatisfy((caseId, count) ->
                        assertThat(count).as("items of " + caseId).isOne());
        return items.stream().collect(Collectors.toMap(Item::caseId, Item::status, (a, b) -> a, TreeMap::new));
    }
}
