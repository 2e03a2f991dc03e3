package dev.assay.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Workers on the PostgreSQL queue, side by side: {@code assay run --queue} with {@code assay worker} processes against
 * {@link MockOpenAiServer}, each row on a fresh schema, and where it applies the same workload without {@code --queue}.
 * Each row is checked to have done all the work (the mock answered exactly N requests, the run passed N) and reports
 * its run phase (the mock's served span) against its floor ⌈N / slots⌉ × latency, where the slots are the workers'
 * threads or the run's shared endpoint limit, whichever is fewer; the CPU of the front end and of the workers (not
 * PostgreSQL's); and the mock's peak of calls in flight, which must not pass the run's limit.
 *
 * <p>Usage: {@code ScaleBench [--assay PATH] [--db JDBC_URL] [--cases N] [--only NAME,...]}; {@code --db} is a
 * PostgreSQL database the bench may create schemas in (default {@code jdbc:postgresql://127.0.0.1:5432/test}),
 * {@code --cases} overrides every row's N (a quick check of the harness). Rows: {@code workers-1x32-200ms},
 * {@code workers-4x32-200ms} (the floor of four workers is a quarter of one's), {@code workers-8x32-limit128-200ms}
 * (the run's endpoint limit below the workers' threads), {@code queue-overhead-0ms-2x32} and {@code no-queue-0ms} (the
 * CPU per case the queue costs is the difference of the two).
 */
public final class ScaleBench {
    /**
     * One measured run.
     *
     * @param workers worker processes, 0 for a run without {@code --queue}
     * @param threads each worker's {@code --concurrency}
     * @param limit the run's {@code --concurrency}: its endpoint limit across the workers
     */
    record Row(String name, int cases, long latencyMillis, int workers, int threads, int limit) {
        int slots() {
            return workers == 0 ? limit : Math.min(limit, workers * threads);
        }

        double floorSeconds() {
            return PeerBench.Workload.floorSeconds(cases, slots(), latencyMillis);
        }

        Row withCases(int n) {
            return new Row(name, n, latencyMillis, workers, threads, limit);
        }
    }

    private static final List<Row> ROWS = List.of(
            new Row("workers-1x32-200ms", 4_000, 200, 1, 32, 1000),
            new Row("workers-4x32-200ms", 4_000, 200, 4, 32, 1000),
            new Row("workers-8x32-limit128-200ms", 4_000, 200, 8, 32, 128),
            new Row("queue-overhead-0ms-2x32", 20_000, 0, 2, 32, 64),
            new Row("no-queue-0ms", 20_000, 0, 0, 0, 64));

    private ScaleBench() {}

    public static void main(String[] args) throws Exception {
        Path assay = Path.of("assay").toAbsolutePath();
        String db = "jdbc:postgresql://127.0.0.1:5432/test";
        Integer cases = null;
        List<String> only = List.of();
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--assay" -> assay = Path.of(args[i + 1]).toAbsolutePath();
                case "--db" -> db = args[i + 1];
                case "--cases" -> cases = Integer.parseInt(args[i + 1]);
                case "--only" -> only = Arrays.asList(args[i + 1].split(","));
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        System.out.printf(
                "%-28s %6s %8s %8s %8s %8s %7s %8s %9s %8s %8s%n",
                "row",
                "slots",
                "wall s",
                "cpu s",
                "floor s",
                "served s",
                "x floor",
                "requests",
                "passed",
                "peak",
                "cpu ms/c");
        for (Row listed : ROWS) {
            if (!only.isEmpty() && !only.contains(listed.name())) {
                continue;
            }
            Row row = cases == null ? listed : listed.withCases(cases);
            Path dir = Files.createTempDirectory("assay-scale-" + row.name() + "-");
            try (var mock = MockOpenAiServer.start(
                    0, new MockOpenAiServer.Options(Duration.ofMillis(row.latencyMillis()), 0, 1))) {
                PeerBench.writeInputs(dir, new PeerBench.Workload(row.name(), row.cases(), 0, 1, "", false), "-");
                print(row, run(assay, freshSchema(db, row.name()), dir, row, mock));
            } finally {
                PeerBench.deleteTree(dir);
            }
        }
    }

    /** A row's figures; {@code cpu} is the front end's and the workers' together. */
    private record Result(
            double wall, double cpu, double served, long requests, long passed, int peakInFlight, String error) {}

    private static Result run(Path assay, String url, Path dir, Row row, MockOpenAiServer mock)
            throws IOException, InterruptedException {
        Map<String, String> env = Map.of("ASSAY_HOME", dir.resolve("home").toString());
        var workers = new ArrayList<WorkerProcess>();
        try {
            for (int i = 0; i < row.workers(); i++) {
                workers.add(WorkerProcess.start(assay, url, row.threads(), dir, env));
            }
            for (WorkerProcess worker : workers) {
                if (!worker.awaitLine("Assay worker taking cases", 120)) {
                    return new Result(0, 0, 0, 0, 0, 0, "a worker did not start: " + worker.lines);
                }
            }
            double workersCpuBefore =
                    workers.stream().mapToDouble(WorkerProcess::cpuSeconds).sum();
            mock.reset();
            var command = new ArrayList<>(List.of(
                    assay.toString(),
                    "run",
                    dir.resolve("suite").toString(),
                    "--model",
                    "openai:bench",
                    "--base-url",
                    mock.baseUrl(),
                    "--concurrency",
                    Integer.toString(row.limit()),
                    "--db",
                    url,
                    "--format",
                    "json",
                    "--quiet"));
            if (row.workers() > 0) {
                command.add("--queue");
            }
            PeerBench.Timed timed = PeerBench.timed(command, dir, env, dir.resolve("stdout"));
            double workersCpu =
                    workers.stream().mapToDouble(WorkerProcess::cpuSeconds).sum() - workersCpuBefore;
            JsonNode summary = PeerBench.lastJsonLine(timed.stdout());
            return new Result(
                    timed.wall(),
                    timed.cpu() + workersCpu,
                    mock.servedSpan().toNanos() / 1e9,
                    mock.requests(),
                    summary.path("counts").path("passed").asLong(-1),
                    mock.peakInFlight(),
                    timed.error());
        } finally {
            for (WorkerProcess worker : workers) {
                worker.process().destroy();
            }
            for (WorkerProcess worker : workers) {
                if (!worker.process().waitFor(90, TimeUnit.SECONDS)) {
                    worker.process().destroyForcibly();
                }
            }
        }
    }

    private static void print(Row row, Result result) {
        String problem = result.error() != null
                ? "  FAILED: " + result.error()
                : result.requests() != row.cases() || result.passed() != row.cases()
                        ? "  INCOMPLETE: expected " + row.cases() + " requests and passes"
                        : result.peakInFlight() > row.limit()
                                ? "  LIMIT EXCEEDED: " + result.peakInFlight() + " > " + row.limit()
                                : "";
        boolean latencyBound = row.latencyMillis() > 0;
        System.out.printf(
                "%-28s %6d %8.2f %8.2f %8s %8.2f %7s %8d %9d %8d %8.3f%s%n",
                row.name(),
                row.slots(),
                result.wall(),
                result.cpu(),
                latencyBound ? "%.2f".formatted(row.floorSeconds()) : "-",
                result.served(),
                latencyBound ? "%.3f".formatted(result.served() / row.floorSeconds()) : "-",
                result.requests(),
                result.passed(),
                result.peakInFlight(),
                result.cpu() * 1000 / Math.max(1, row.cases()),
                problem);
    }

    /** {@return the URL of a new, empty schema in the database}, so that every row starts with an empty queue */
    private static String freshSchema(String db, String row) throws SQLException {
        String schema = ("assay_scale_" + row + "_" + System.currentTimeMillis()).replace('-', '_');
        try (var connection = DriverManager.getConnection(db);
                var statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA " + schema);
        }
        return db + (db.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }

    /** {@code assay worker} as a process of its own, its output collected line by line. */
    private record WorkerProcess(Process process, List<String> lines) {
        static WorkerProcess start(Path assay, String url, int threads, Path dir, Map<String, String> env)
                throws IOException {
            var builder = new ProcessBuilder(
                            assay.toString(), "worker", "--db", url, "--concurrency", Integer.toString(threads))
                    .directory(dir.toFile())
                    .redirectErrorStream(true);
            builder.environment().putAll(env);
            Process process = builder.start();
            var lines = new CopyOnWriteArrayList<String>();
            Thread.ofVirtual().start(() -> {
                try (var reader =
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                        // Only what the bench looks for is kept: a worker logs two lines per case.
                        if (!line.startsWith("started ") && !line.startsWith("finished ")) {
                            lines.add(line);
                        }
                    }
                } catch (IOException ended) {
                    // The process is gone.
                }
            });
            return new WorkerProcess(process, lines);
        }

        boolean awaitLine(String prefix, int seconds) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (System.nanoTime() < deadline && process.isAlive()) {
                if (lines.stream().anyMatch(line -> line.startsWith(prefix))) {
                    return true;
                }
                Thread.sleep(50);
            }
            return false;
        }

        /** {@return the CPU the worker's JVM used so far}: the launcher execs it, so it is this process */
        double cpuSeconds() {
            return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L) / 1e9;
        }
    }
}
