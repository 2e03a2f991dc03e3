package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.check.CheckerRegistry;
import dev.assay.queue.CaseQueue;
import dev.assay.queue.Worker;
import dev.assay.result.Item;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.TestPostgres;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code assay run --queue} with {@code assay worker}s on PostgreSQL: workers in processes of their own, one killed
 * with {@code kill -9} in the middle of a case, whose cases another worker takes over once its heartbeat lapses; the
 * endpoint limit shared by all workers; and the queue refused on SQLite.
 */
@ExtendWith(TestPostgres.Schemas.class)
class QueuedRunTest {
    private static final int CASES = 12;

    @TempDir
    Path home;

    @Test
    void a_queued_run_survives_a_killed_worker_with_every_case_stored_once() throws Exception {
        String url = TestPostgres.freshUrl();
        var slow = new AtomicBoolean(false);
        try (var model = ScriptedOpenAiServer.start(request -> slow.get()
                ? new ScriptedOpenAiServer.Reply.Delayed(1_500, ScriptedOpenAiServer.text("ok"))
                : ScriptedOpenAiServer.text("ok"))) {
            Path suite = suite(CASES);
            var cli = new CliRunner(home);
            var uninterrupted = cli.run(run(suite, model, url, "-c", "4"));
            assertThat(uninterrupted.code()).as(uninterrupted.err()).isZero();
            Map<String, String> expected =
                    verdicts(url, Json.parse(uninterrupted.out()).path("run_id").asText());
            assertThat(expected.values()).containsOnly("passed", "failed");
            int requestsBefore = model.requests().size();
            slow.set(true);

            var workers = new ArrayList<WorkerProcess>();
            try {
                for (int i = 0; i < 3; i++) {
                    workers.add(WorkerProcess.start(home, url, 2));
                }
                for (WorkerProcess worker : workers) {
                    worker.awaitLine("Assay worker taking cases", 60);
                }
                Path out = home.resolve("out");
                CompletableFuture<CliRunner.Result> frontEnd = CompletableFuture.supplyAsync(
                        () -> cli.run(run(suite, model, url, "-c", "6", "--queue", "-o", out.toString())));
                WorkerProcess victim = workers.getFirst();
                String taken = victim.awaitLine("started ", 60);
                victim.process.destroyForcibly(); // SIGKILL: its cases stay picked until their heartbeats lapse
                assertThat(victim.process.waitFor(30, TimeUnit.SECONDS)).isTrue();

                CliRunner.Result queued = frontEnd.get(180, TimeUnit.SECONDS);

                assertThat(queued.code()).as(queued.err()).isZero();
                String runId = Json.parse(queued.out()).path("run_id").asText();
                try (Store store = Stores.open(url)) {
                    assertThat(store.findRun(runId).orElseThrow().status().wireName())
                            .isEqualTo("finished");
                    assertThat(store.countItems(runId)).isEqualTo(CASES);
                    assertThat(store.storedSeqs(runId))
                            .containsExactlyElementsOf(
                                    IntStream.range(0, CASES).boxed().toList());
                }
                assertThat(verdicts(url, runId)).isEqualTo(expected);
                assertThat(model.requests().size() - requestsBefore).isLessThanOrEqualTo(CASES + 2);
                // The case the killed worker had started was finished by another one.
                String takenCase = taken.split(" ")[1];
                assertThat(workers.subList(1, 3).stream().flatMap(worker -> worker.lines.stream()))
                        .anyMatch(line -> line.startsWith("finished " + takenCase + " "));
                assertThat(out.resolve("report.json")).exists();
                assertThat(out.resolve("report.md")).exists();
                assertThat(out.resolve("junit.xml")).exists();
                assertThat(out.resolve("report.html")).exists();
            } finally {
                workers.forEach(worker -> worker.process.destroyForcibly());
            }
        }
    }

    @Test
    void the_endpoint_limit_holds_across_all_workers() throws Exception {
        String url = TestPostgres.freshUrl();
        try (var model = ScriptedOpenAiServer.start(
                        request -> new ScriptedOpenAiServer.Reply.Delayed(400, ScriptedOpenAiServer.text("ok")));
                Store store = Stores.open(url)) {
            List<Worker> workers = List.of(worker(url, store), worker(url, store));
            try {
                var result = new CliRunner(home)
                        .run(run(suite(16), model, url, "-c", "4", "--queue", "--metric", "weighted-score"));

                assertThat(result.code()).as(result.err()).isZero();
                JsonNode run = Json.parse(result.out());
                assertThat(run.at("/counts/total").asInt()).isEqualTo(16);
                assertThat(model.maxInFlight()).isBetween(2, 4);
                // A queued run computes the metrics it names over the items the workers stored.
                assertThat(run.at("/metrics/weighted-score").asDouble())
                        .isEqualTo(run.path("total_score").asDouble());
            } finally {
                workers.forEach(Worker::close);
            }
        }
    }

    @Test
    void a_worker_logs_its_cases_done_in_flight_and_waiting_every_report_period() throws Exception {
        String url = TestPostgres.freshUrl();
        var lines = new CopyOnWriteArrayList<String>();
        try (var model = ScriptedOpenAiServer.start(request -> ScriptedOpenAiServer.text("ok"));
                Store store = Stores.open(url)) {
            Worker worker = Worker.start(
                    url,
                    store,
                    CheckerRegistry.builtins(),
                    home.resolve("workspaces"),
                    name -> null,
                    Worker.Settings.defaults(4).withReport(Duration.ofMillis(100)),
                    lines::add);
            List<Matcher> reports = List.of();
            try {
                var result = new CliRunner(home).run(run(suite(6), model, url, "-c", "4", "--queue"));
                assertThat(result.code()).as(result.err()).isZero();

                int before = lines.size();

                // The counts are the process's (every worker in it): at least this run's six cases. The second report
                // after the run ended finds none in flight and none waiting on this schema's queue.
                Pattern report =
                        Pattern.compile("worker: (\\d+) cases done, \\d+\\.\\d/s, (\\d+) in flight, (\\d+) waiting");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (reports.size() < 2 && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                    List<String> logged = List.copyOf(lines);
                    reports = logged.subList(before, logged.size()).stream()
                            .map(report::matcher)
                            .filter(Matcher::matches)
                            .toList();
                }
            } finally {
                worker.close();
            }
            assertThat(reports)
                    .as("report lines after the run, among %s", lines)
                    .hasSizeGreaterThanOrEqualTo(2);
            Matcher last = reports.get(1);
            assertThat(Long.parseLong(last.group(1))).isGreaterThanOrEqualTo(6);
            assertThat(last.group(2)).isEqualTo("0");
            assertThat(last.group(3)).isEqualTo("0");
        }
    }

    @Test
    void a_token_limit_holds_across_workers_and_a_resume_under_a_higher_one_finishes_the_run() throws Exception {
        String url = TestPostgres.freshUrl();
        // Every answer uses 15 tokens; the limit is reached once four cases are stored.
        try (var model = ScriptedOpenAiServer.start(
                        request -> new ScriptedOpenAiServer.Reply.Delayed(300, ScriptedOpenAiServer.text("ok")));
                Store store = Stores.open(url)) {
            Path suite = suite(16);
            var cli = new CliRunner(home);
            List<Worker> workers = List.of(worker(url, store, 2), worker(url, store, 2));
            CliRunner.Result stopped;
            try {
                stopped = cli.run(run(suite, model, url, "-c", "4", "--queue", "--run-max-tokens", "60"));
            } finally {
                workers.forEach(Worker::close);
            }

            assertThat(stopped.code()).as(stopped.err()).isEqualTo(ExitCodes.CANNOT_RUN);
            JsonNode run = Json.parse(stopped.out());
            String runId = run.path("run_id").asText();
            assertThat(run.path("status").asText()).isEqualTo("interrupted");
            assertThat(run.at("/error/type").asText()).isEqualTo("run.budget_exhausted");
            int stored = store.countItems(runId);
            // The workers started no case once the run's tally, kept across them, reached the limit: those running
            // then finished (at most one round of the four slots past it), and every call made was stored and counted.
            assertThat(stored).isBetween(4, 8);
            assertThat(run.at("/counts/passed").asInt()
                            + run.at("/counts/failed").asInt())
                    .isEqualTo(stored);
            assertThat(model.requests()).hasSize(stored);
            try (CaseQueue queue = CaseQueue.open(url)) {
                assertThat(queue.casesOnQueue(runId)).isZero();
            }

            var resumed = cli.run(
                    "run", "--resume", runId, "--run-max-tokens", "1000", "--db", url, "--format", "json", "-q");

            assertThat(resumed.code()).as(resumed.err()).isZero();
            assertThat(store.findRun(runId).orElseThrow().status().wireName()).isEqualTo("finished");
            assertThat(store.countItems(runId)).isEqualTo(16);
            // Nothing paid twice: the stored cases were kept.
            assertThat(model.requests()).hasSize(16);
        }
    }

    @Test
    void a_worker_reports_its_cases_at_its_metrics_port_and_runs_show_lists_it() throws Exception {
        String url = TestPostgres.freshUrl();
        try (var model = ScriptedOpenAiServer.start(request -> ScriptedOpenAiServer.text("ok"))) {
            WorkerProcess worker = WorkerProcess.start(home, url, 4, "--metrics-port", "0");
            try {
                String served = worker.awaitLine("Worker metrics at ", 60);
                worker.awaitLine("Assay worker taking cases", 60);
                var result = new CliRunner(home).run(run(suite(CASES), model, url, "-c", "4", "--queue"));
                assertThat(result.code()).as(result.err()).isZero();

                URI metricsUri =
                        URI.create(served.substring(served.indexOf("http://")).replace("0.0.0.0", "127.0.0.1"));
                HttpResponse<String> metrics = scrape(metricsUri);
                // The front end returns once the items are stored; the worker counts a case just after storing it.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while ((sample(metrics.body(), "assay_cases_finished_total") < CASES
                                || sample(metrics.body(), "assay_cases_running") > 0)
                        && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                    metrics = scrape(metricsUri);
                }

                assertThat(metrics.statusCode()).isEqualTo(200);
                assertThat(sample(metrics.body(), "assay_cases_finished_total")).isEqualTo(CASES);
                assertThat(sample(metrics.body(), "assay_cases_running")).isZero();
                assertThat(sample(metrics.body(), "assay_cases_waiting")).isNotNaN();
                // The queue's depth, not the engine's gauge of whole runs in this process, which a worker has none of.
                assertThat(metrics.body()).contains("# HELP assay_cases_waiting Cases on the queue not yet taken");

                worker.process.destroy(); // SIGTERM: the worker stops and adds its last counts
                assertThat(worker.process.waitFor(90, TimeUnit.SECONDS)).isTrue();
                String runId = Json.parse(result.out()).path("run_id").asText();
                String name = "-" + worker.process.pid();
                try (CaseQueue queue = CaseQueue.open(url)) {
                    assertThat(queue.workersOf(runId)).hasSize(1).allSatisfy((servedBy, cases) -> {
                        assertThat(servedBy).endsWith(name);
                        assertThat(cases).isEqualTo(CASES);
                    });
                }
                var shown = new CliRunner(home).run("runs", "show", runId, "--db", url);
                assertThat(shown.code()).as(shown.err()).isZero();
                assertThat(shown.out()).contains(name + " " + CASES + " cases");
            } finally {
                worker.process.destroyForcibly();
            }
        }
    }

    private static HttpResponse<String> scrape(URI uri) throws IOException, InterruptedException {
        try (var client = HttpClient.newHttpClient()) {
            return client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    /** {@return the sum of the Prometheus samples of the metric, whatever their labels} */
    private static double sample(String scrape, String name) {
        Matcher sample = Pattern.compile("^" + name + "(\\{[^}]*})? (\\S+)$", Pattern.MULTILINE)
                .matcher(scrape);
        double sum = 0;
        boolean found = false;
        while (sample.find()) {
            sum += Double.parseDouble(sample.group(2));
            found = true;
        }
        return found ? sum : Double.NaN;
    }

    @Test
    void a_queue_on_sqlite_is_refused_as_a_usage_error() throws Exception {
        try (var model = ScriptedOpenAiServer.start(request -> ScriptedOpenAiServer.text("ok"))) {
            var result = new CliRunner(home)
                    .run(
                            "run",
                            suite(1).toString(),
                            "--model",
                            "openai:scripted",
                            "--base-url",
                            model.baseUrl(),
                            "--api-key-env",
                            "NONE",
                            "--queue");

            assertThat(result.code()).isEqualTo(ExitCodes.USAGE);
            assertThat(result.err()).contains("--queue needs a PostgreSQL database");
            assertThat(model.requests()).isEmpty();
        }
    }

    @Test
    void a_run_workers_could_not_rebuild_is_not_queued() throws Exception {
        String url = TestPostgres.freshUrl();
        try (var model = ScriptedOpenAiServer.start(request -> ScriptedOpenAiServer.text("ok"))) {
            Path suite = suite(2);
            Path out = home.resolve("recorded");
            var cli = new CliRunner(home);
            assertThat(cli.run(run(suite, model, url, "-o", out.toString())).code())
                    .isZero();
            int requests = model.requests().size();

            var replayed = cli.run(
                    "run",
                    suite.toString(),
                    "--replay",
                    out.resolve("report.json").toString(),
                    "--db",
                    url,
                    "--queue");

            assertThat(replayed.code()).as(replayed.err()).isEqualTo(ExitCodes.USAGE);
            assertThat(replayed.err()).contains("queue.unsupported_run");
            assertThat(model.requests()).hasSize(requests);
        }
    }

    private Worker worker(String url, Store store) {
        return worker(url, store, 8);
    }

    private Worker worker(String url, Store store, int concurrency) {
        return Worker.start(
                url,
                store,
                CheckerRegistry.builtins(),
                home.resolve("workspaces"),
                name -> null,
                Worker.Settings.defaults(concurrency),
                line -> {});
    }

    /** Cases alternating between a pass (the model says ok) and a failure. */
    private Path suite(int cases) throws IOException {
        String lines = IntStream.range(0, cases)
                .mapToObj(i -> "{\"id\": \"case%02d\", \"dimension\": \"common\", \"prompt\": \"question %d\", "
                                .formatted(i, i)
                        + "\"checker\": \"contains\", \"expected\": \""
                        + (i % 2 == 0 ? "ok" : "nope") + "\"}\n")
                .collect(Collectors.joining());
        return Files.writeString(home.resolve("suite-" + cases + ".jsonl"), lines);
    }

    private static String[] run(Path suite, ScriptedOpenAiServer model, String url, String... more) {
        var args = new ArrayList<>(List.of(
                "run",
                suite.toString(),
                "--model",
                "openai:scripted",
                "--base-url",
                model.baseUrl(),
                "--api-key-env",
                "NONE",
                "--db",
                url,
                "--format",
                "json",
                "-q"));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    /** {@return each case's stored status} */
    private static Map<String, String> verdicts(String url, String runId) {
        try (Store store = Stores.open(url)) {
            return store.listItems(runId, 0, 1_000).stream()
                    .collect(Collectors.toMap(
                            Item::caseId, item -> item.status().wireName(), (a, b) -> a, TreeMap::new));
        }
    }

    /** {@code assay worker} in a JVM of its own, its output (stderr) collected line by line. */
    private record WorkerProcess(Process process, List<String> lines) {
        static WorkerProcess start(Path home, String url, int concurrency, String... more) throws IOException {
            String java =
                    Path.of(System.getProperty("java.home"), "bin", "java").toString();
            var command = new ArrayList<>(List.of(
                    java,
                    "-XX:TieredStopAtLevel=1",
                    "-XX:+UseSerialGC",
                    "-cp",
                    System.getProperty("java.class.path"),
                    AssayCli.class.getName(),
                    "worker",
                    "--db",
                    url,
                    "--concurrency",
                    Integer.toString(concurrency),
                    "--heartbeat",
                    "0.5",
                    "--missed-heartbeats",
                    "4"));
            command.addAll(List.of(more));
            var builder = new ProcessBuilder(command);
            builder.environment().put("ASSAY_HOME", home.toString());
            builder.redirectErrorStream(true);
            Process process = builder.start();
            var lines = new CopyOnWriteArrayList<String>();
            Thread.ofVirtual().start(() -> {
                try (var reader =
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                        lines.add(line);
                    }
                } catch (IOException ended) {
                    // The process is gone.
                }
            });
            return new WorkerProcess(process, lines);
        }

        /** {@return the first line starting with the prefix, waiting for it up to {@code seconds}} */
        String awaitLine(String prefix, int seconds) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (System.nanoTime() < deadline) {
                boolean ended = !process.isAlive();
                for (String line : lines) {
                    if (line.startsWith(prefix)) {
                        return line;
                    }
                }
                if (ended) {
                    break;
                }
                Thread.sleep(20);
            }
            throw new AssertionError("no line starting with '" + prefix + "' within " + seconds + " s: " + lines);
        }
    }
}
