package dev.assay.cli;

import static dev.assay.testing.ScriptedOpenAiServer.failure;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.testing.ScriptedOpenAiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs that cannot do their job exit 3 with one clear line: refused credentials, nothing judged, a lost database. */
@Tag("fault")
class RunFaultsTest {
    @TempDir
    Path home;

    private Path suite(int cases) throws Exception {
        return Files.writeString(
                home.resolve("suite.jsonl"),
                IntStream.range(0, cases)
                        .mapToObj(i ->
                                "{\"id\": \"case_%d\", \"dimension\": \"common\", \"prompt\": \"Secret question %d?\", "
                                                .formatted(i, i)
                                        + "\"checker\": \"contains\", \"expected\": \"Paris\"}")
                        .collect(Collectors.joining("\n", "", "\n")));
    }

    private CliRunner.Result run(ScriptedOpenAiServer model, Path suite, String... extra) {
        var args = new java.util.ArrayList<>(java.util.List.of(
                "run",
                suite.toString(),
                "--model",
                "openai:scripted",
                "--base-url",
                model.baseUrl(),
                "--api-key-env",
                "SCRIPTED_KEY",
                "--retries",
                "0"));
        args.addAll(java.util.List.of(extra));
        return new CliRunner(home).withEnv("SCRIPTED_KEY", "sk-wrong").run(args.toArray(String[]::new));
    }

    @Test
    void a_wrong_api_key_stops_the_run_early_and_exits_3() throws Exception {
        try (var model = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(failure(401)))) {
            Path out = home.resolve("out");

            var result = run(model, suite(10), "--concurrency", "1", "--format", "json", "--out", out.toString());

            assertThat(result.code()).as(result.err()).isEqualTo(ExitCodes.CANNOT_RUN);
            assertThat(model.requests()).hasSizeLessThanOrEqualTo(2);
            assertThat(result.err())
                    .contains("error: the run failed", "target.auth_failed")
                    .doesNotContain("\tat ");
            JsonNode summary = Json.parse(result.out());
            assertThat(summary.path("status").asText()).isEqualTo("failed");
            JsonNode report = Json.MAPPER.readTree(out.resolve("report.json").toFile());
            JsonNode counts = report.path("counts");
            int counted = counts.path("passed").asInt()
                    + counts.path("failed").asInt()
                    + counts.path("partial").asInt()
                    + counts.path("skipped").asInt()
                    + counts.path("error").asInt()
                    + counts.path("cancelled").asInt();
            assertThat(report.path("items").size())
                    .isEqualTo(counted)
                    .isPositive()
                    .isLessThan(10);
        }
    }

    @Test
    void a_run_whose_every_judged_item_is_an_error_fails_with_exit_3_and_shows_the_items_error_type() throws Exception {
        try (var model = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(failure(500)))) {
            var result = run(model, suite(3), "--quiet", "--format", "json");

            assertThat(result.code()).as(result.err()).isEqualTo(ExitCodes.CANNOT_RUN);
            assertThat(result.err()).contains("error: the run failed", "run.all_items_errored");
            JsonNode summary = Json.parse(result.out());
            assertThat(summary.path("status").asText()).isEqualTo("failed");
            assertThat(summary.at("/error/type").asText()).isEqualTo("run.all_items_errored");
            assertThat(summary.at("/error/details/error_type").asText()).isEqualTo("target.http_error");
            assertThat(summary.at("/counts/error").asInt()).isEqualTo(3);
            String runId = summary.path("run_id").asText();
            var cli = new CliRunner(home);

            var list = cli.run("runs", "list");
            assertThat(list.out().lines().filter(line -> line.startsWith(runId)))
                    .singleElement()
                    .satisfies(row -> assertThat(row.split("\\s+"))
                            .contains("failed", "target.http_error")
                            .doesNotContain("0.0%"));

            var show = cli.run("runs", "show", runId);
            assertThat(show.out()).contains("Reason: every judged item is an error", "(run.all_items_errored)");
        }
    }

    @Test
    void a_run_with_some_errors_and_a_pass_still_exits_0() throws Exception {
        try (var model = ScriptedOpenAiServer.start(
                request -> request.firstUserText().contains("question 0") ? text("Paris") : failure(500))) {
            var result = run(model, suite(3), "--quiet");

            assertThat(result.code()).as(result.err()).isZero();
        }
    }

    @Test
    void a_database_that_stays_locked_interrupts_the_run_with_exit_3_and_one_clear_line() throws Exception {
        Path suite = suite(3);
        String url = Stores.defaultUrl(home);
        Stores.open(url).close();
        var locker = new AtomicReference<Connection>();
        // The database is locked by another writer from the model's first answer on, until the command has ended.
        try (var model = ScriptedOpenAiServer.start(request -> {
            synchronized (locker) {
                if (locker.get() == null) {
                    locker.set(lock(url));
                }
            }
            return text("Paris");
        })) {
            var result = run(model, suite, "--concurrency", "1", "--db-retry", "0.5", "--format", "json");

            assertThat(result.code()).as(result.err()).isEqualTo(ExitCodes.CANNOT_RUN);
            assertThat(result.err())
                    .contains("error: the run was interrupted", "store.outage")
                    .doesNotContain("\tat ", "INSERT", "Secret question", "Paris");
            JsonNode summary = Json.parse(result.out());
            assertThat(summary.path("status").asText()).isEqualTo("interrupted");
            locker.get().rollback();
            locker.get().close();
            try (Store store = Stores.open(url)) {
                String runId = summary.path("run_id").asText();
                assertThat(store.countItems(runId)).isZero();
                assertThat(summary.path("counts").path("passed").asInt()).isZero();
            }
            // A judged case frees its slot before its item is stored, so one more case may start while the first
            // item's store waits; none starts once the outage is found (docs/security.md).
            assertThat(model.requests()).hasSizeBetween(1, 2);
        }
    }

    private static Connection lock(String url) {
        try {
            Connection connection = DriverManager.getConnection(url);
            connection.setAutoCommit(false);
            try (var statement = connection.createStatement()) {
                // A write takes the lock; it is held until rollback.
                statement.execute("UPDATE evaluation_runs SET user_id = user_id");
            }
            return connection;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
