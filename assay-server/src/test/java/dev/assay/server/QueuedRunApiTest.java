package dev.assay.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.check.CheckerRegistry;
import dev.assay.queue.Worker;
import dev.assay.result.Run;
import dev.assay.run.Engine;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.TestPostgres;
import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code "queue": true} in a start body: the server puts the run's cases on the queue in its PostgreSQL database, a
 * worker runs them, and the server's stream shows the run as it shows any run.
 */
@ExtendWith(TestPostgres.Schemas.class)
class QueuedRunApiTest {
    @TempDir
    Path home;

    @Test
    void a_queued_start_body_is_run_by_a_worker_and_streamed_as_any_run() throws Exception {
        String url = TestPostgres.freshUrl();
        Path suites = Files.createDirectories(home.resolve("suites"));
        Files.writeString(suites.resolve("basic.jsonl"), """
                {"id": "paris", "dimension": "common", "prompt": "Capital of France?", "checker": "contains", "expected": "Paris"}
                {"id": "berlin", "dimension": "logic", "prompt": "Capital of Germany?", "checker": "exact", "expected": "Berlin"}
                {"id": "again", "dimension": "common", "prompt": "Capital of France, again?", "checker": "contains", "expected": "Paris"}
                """);
        Function<String, String> env = Map.of(ServerFixture.KEY_VARIABLE, "sk-scripted")::get;
        CheckerRegistry checkers = CheckerRegistry.builtins();
        try (var model = ScriptedOpenAiServer.start(request -> ScriptedOpenAiServer.text("Paris"));
                Store store = Stores.open(url)) {
            var config = new ServerConfig("127.0.0.1", ServerFixture.TOKEN, suites, home.resolve("workspaces"), env)
                    .withQueue(url);
            Javalin app = AssayServer.create(config, new Engine(store), store, checkers)
                    .start(0);
            Worker worker = Worker.start(
                    url, store, checkers, home.resolve("worker"), env, Worker.Settings.defaults(2), line -> {});
            try {
                String body = """
                        {"model_name": "openai:scripted", "base_url": "%s", "api_key_env": "%s", "case_set": "basic.jsonl", "queue": true}
                        """.formatted(model.baseUrl(), ServerFixture.KEY_VARIABLE);
                HttpResponse<String> started = send(app, "POST", "/api/runs", body, null);
                assertThat(started.statusCode()).as(started.body()).isEqualTo(201);
                String runId =
                        dev.assay.Json.parse(started.body()).path("run_id").asText();

                // From the first event on: the run may have ended before the stream is opened.
                var streamed = send(app, "GET", "/api/runs/" + runId + "/events", null, "0");
                List<String> events = streamed.body()
                        .lines()
                        .filter(line -> line.startsWith("event:"))
                        .map(line -> line.substring("event:".length()).strip())
                        .toList();

                assertThat(events).filteredOn(RunEvents.ITEM::equals).hasSize(3);
                assertThat(events).last().isEqualTo(RunEvents.FINISHED);
                var run = dev.assay.Json.parse(send(app, "GET", "/api/runs/" + runId, null, null)
                                .body())
                        .path("run");
                assertThat(run.path("status").asText()).isEqualTo("finished");
                assertThat(run.at("/counts/passed").asInt()).isEqualTo(2);
                assertThat(run.at("/counts/failed").asInt()).isEqualTo(1);
                assertThat(model.requests()).hasSize(3);
            } finally {
                worker.close();
                app.stop();
            }
        }
    }

    @Test
    void the_cases_of_a_cancelled_queued_run_are_dropped_by_the_workers() throws Exception {
        String url = TestPostgres.freshUrl();
        Path suites = Files.createDirectories(home.resolve("suites"));
        Files.writeString(suites.resolve("basic.jsonl"), """
                {"id": "paris", "dimension": "common", "prompt": "Capital of France?", "checker": "contains", "expected": "Paris"}
                {"id": "again", "dimension": "common", "prompt": "Capital of France, again?", "checker": "contains", "expected": "Paris"}
                """);
        Function<String, String> env = Map.of(ServerFixture.KEY_VARIABLE, "sk-scripted")::get;
        CheckerRegistry checkers = CheckerRegistry.builtins();
        try (var model = ScriptedOpenAiServer.start(request -> ScriptedOpenAiServer.text("Paris"));
                Store store = Stores.open(url)) {
            var config = new ServerConfig("127.0.0.1", ServerFixture.TOKEN, suites, home.resolve("workspaces"), env)
                    .withQueue(url);
            Javalin app = AssayServer.create(config, new Engine(store), store, checkers)
                    .start(0);
            try {
                String body = """
                        {"model_name": "openai:scripted", "base_url": "%s", "api_key_env": "%s", "case_set": "basic.jsonl", "queue": true}
                        """.formatted(model.baseUrl(), ServerFixture.KEY_VARIABLE);
                String runId = dev.assay.Json.parse(
                                send(app, "POST", "/api/runs", body, null).body())
                        .path("run_id")
                        .asText();
                // No worker yet: the cases wait on the queue until the run is cancelled.
                while (store.findRun(runId).isEmpty()) {
                    Thread.sleep(20);
                }
                Thread.sleep(500);
                assertThat(send(app, "POST", "/api/runs/" + runId + "/cancel", "", null)
                                .statusCode())
                        .isBetween(200, 299);
                while (store.findRun(runId).orElseThrow().status().wireName().equals("running")) {
                    Thread.sleep(20);
                }
                assertThat(store.findRun(runId).orElseThrow().status().wireName())
                        .isEqualTo("cancelled");

                Worker worker = Worker.start(
                        url, store, checkers, home.resolve("worker"), env, Worker.Settings.defaults(2), line -> {});
                try {
                    Thread.sleep(3_000);
                } finally {
                    worker.close();
                }

                assertThat(model.requests()).isEmpty();
                assertThat(store.countItems(runId)).isZero();
                try (var connection = java.sql.DriverManager.getConnection(url);
                        var count = connection.createStatement().executeQuery("SELECT count(*) FROM scheduled_tasks")) {
                    assertThat(count.next()).isTrue();
                    assertThat(count.getInt(1)).as("cases left on the queue").isZero();
                }
            } finally {
                app.stop();
            }
        }
    }

    @Test
    void a_queued_run_stopped_by_its_token_limit_is_resumed_under_a_higher_one_given_in_the_body() throws Exception {
        String url = TestPostgres.freshUrl();
        Path suites = Files.createDirectories(home.resolve("suites"));
        Files.writeString(
                suites.resolve("six.jsonl"),
                java.util.stream.IntStream.range(0, 6)
                        .mapToObj(i -> "{\"id\": \"c" + i + "\", \"dimension\": \"common\", \"prompt\": \"Capital " + i
                                + "?\", \"checker\": \"contains\", \"expected\": \"Paris\"}\n")
                        .collect(java.util.stream.Collectors.joining()));
        Function<String, String> env = Map.of(ServerFixture.KEY_VARIABLE, "sk-scripted")::get;
        CheckerRegistry checkers = CheckerRegistry.builtins();
        // Every answer uses 15 tokens: one worker taking one case at a time stops after the second.
        try (var model = ScriptedOpenAiServer.start(request -> ScriptedOpenAiServer.text("Paris"));
                Store store = Stores.open(url)) {
            var config = new ServerConfig("127.0.0.1", ServerFixture.TOKEN, suites, home.resolve("workspaces"), env)
                    .withQueue(url);
            Javalin app = AssayServer.create(config, new Engine(store), store, checkers)
                    .start(0);
            Worker worker = Worker.start(
                    url, store, checkers, home.resolve("worker"), env, Worker.Settings.defaults(1), line -> {});
            try {
                String body = """
                        {"model_name": "openai:scripted", "base_url": "%s", "api_key_env": "%s", "case_set": "six.jsonl", "queue": true, "run_max_tokens": 30}
                        """.formatted(model.baseUrl(), ServerFixture.KEY_VARIABLE);
                String runId = dev.assay.Json.parse(
                                send(app, "POST", "/api/runs", body, null).body())
                        .path("run_id")
                        .asText();
                Run stopped = ended(store, runId);

                assertThat(stopped.status().wireName()).isEqualTo("interrupted");
                assertThat(stopped.error().type()).isEqualTo("run.budget_exhausted");
                assertThat(store.countItems(runId)).isEqualTo(2);
                assertThat(model.requests()).hasSize(2);

                var resumed = send(app, "POST", "/api/runs/" + runId + "/resume", "{\"run_max_tokens\": 1000}", null);

                assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(202);
                assertThat(ended(store, runId).status().wireName()).isEqualTo("finished");
                assertThat(store.countItems(runId)).isEqualTo(6);
                assertThat(model.requests()).hasSize(6);
            } finally {
                worker.close();
                app.stop();
            }
        }
    }

    /** {@return the run once it has ended, waiting up to a minute} */
    private static Run ended(Store store, String runId) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() < deadline) {
            var run = store.findRun(runId);
            if (run.isPresent() && run.get().status() != dev.assay.result.RunStatus.RUNNING) {
                return run.get();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("run " + runId + " did not end within a minute");
    }

    @Test
    void a_queued_start_body_is_refused_by_a_server_on_sqlite() throws Exception {
        try (var server = new ServerFixture(home)) {
            var response = server.post("/api/runs", server.startBody("basic.jsonl", "\"queue\": true"));

            assertThat(response.status()).as(response.text()).isEqualTo(400);
            assertThat(response.json().path("type").asText()).isEqualTo("queue.needs_postgres");
            assertThat(server.model.requests()).isEmpty();
        }
    }

    private static HttpResponse<String> send(Javalin app, String method, String path, String body, String lastEventId)
            throws Exception {
        var builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path));
        if (lastEventId != null) {
            builder.header("Accept", "text/event-stream").header("Last-Event-ID", lastEventId);
        }
        var request = builder.timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + ServerFixture.TOKEN)
                .header("Content-Type", "application/json")
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        try (var http = HttpClient.newHttpClient()) {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        }
    }
}
