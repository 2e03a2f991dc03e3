package dev.assay.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Assay against promptfoo on the same mock endpoint and the same prompts: each workload is run by both tools
 * alternately (the order flips every round), each run timed by {@code /usr/bin/time} (wall, user + system CPU, peak
 * RSS) and checked to have done all the work (the mock answered exactly N requests and the tool reports N passed).
 * Prints one table with medians. Every prompt carries its own {@code token-i} and the checks require that token back,
 * so a run cannot pass by reusing an answer.
 *
 * <p>Usage: {@code PeerBench [--assay PATH] [--promptfoo PATH] [--rounds R] [--only NAME,...]} where the names are the
 * workloads printed in the table ({@code version}, {@code n10-0ms-c4}, {@code n1000-0ms-c4}, {@code n1000-200ms-c64},
 * {@code n5000-0ms-c64}, {@code n10000-0ms-c64}, {@code n10000-200ms-c64}, {@code n100000-0ms-c64-xmx256m}, and only
 * when named {@code n100000-0ms-c64-xmx64m}, {@code n200000-0ms-c64-xmx64m}, {@code n20000-1000ms-c1000-xmx512m} and
 * {@code n1000000-0ms-c64-xmx256m}, and {@code jsonl-n1000000-0ms-c64-xmx256m}, the same million as a JSONL dataset run
 * through a field mapping). A latency-bound row gives its floor ⌈N / concurrency⌉ × latency and the served span's ratio
 * to it. promptfoo is skipped where its path does not exist (install: {@code bench/peer/install-promptfoo.sh}).
 * Latency-bound workloads also time a bare JDK client ({@link BareClient}), the floor of the mock and the machine.
 */
public final class PeerBench {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One measured workload; {@code cases == 0} times {@code --version}. */
    record Workload(String name, int cases, long latencyMillis, int concurrency, String javaOptions, boolean peer) {
        /**
         * {@return whether Assay reads the cases from a plain dataset ({@code data.jsonl} and a field mapping) rather
         * than from its own case files}: the workloads named {@code jsonl-...}
         */
        boolean dataset() {
            return name.startsWith("jsonl-");
        }

        /** {@return the floor of a latency-bound run: the calls go in rounds of {@code concurrency}} */
        double floorSeconds() {
            return floorSeconds(cases, concurrency, latencyMillis);
        }

        /** {@return ⌈cases / slots⌉ × latency, in seconds} */
        static double floorSeconds(int cases, int slots, long latencyMillis) {
            return Math.ceil(cases / (double) slots) * latencyMillis / 1000.0;
        }
    }

    /** One timed process. */
    record Measure(
            double wallSeconds,
            double cpuSeconds,
            long peakRssKiB,
            double servedSeconds,
            long requests,
            long passed,
            String error) {}

    private static final List<Workload> WORKLOADS = List.of(
            new Workload("version", 0, 0, 1, "", true),
            new Workload("n10-0ms-c4", 10, 0, 4, "", true),
            new Workload("n1000-0ms-c4", 1_000, 0, 4, "", true),
            new Workload("n1000-200ms-c64", 1_000, 200, 64, "", true),
            new Workload("n5000-0ms-c64", 5_000, 0, 64, "", true),
            // With n5000-0ms-c64: what each case past the first 5 000 costs, start-up and warm-up left out.
            new Workload("n10000-0ms-c64", 10_000, 0, 64, "", false),
            new Workload("n10000-200ms-c64", 10_000, 200, 64, "", false),
            new Workload("n100000-0ms-c64-xmx256m", 100_000, 0, 64, "-Xmx256m", false),
            // Twice the cases in a quarter of that heap: memory that does not grow with N. Minutes a round, so only
            // when named with --only.
            new Workload("n100000-0ms-c64-xmx64m", 100_000, 0, 64, "-Xmx64m", false),
            new Workload("n200000-0ms-c64-xmx64m", 200_000, 0, 64, "-Xmx64m", false),
            // A thousand calls in flight against a slow endpoint, in at most 512 MiB of heap; promptfoo at -j 1000.
            new Workload("n20000-1000ms-c1000-xmx512m", 20_000, 1000, 1000, "-Xmx512m", true),
            // A million cases in the heap that holds 100 000.
            new Workload("n1000000-0ms-c64-xmx256m", 1_000_000, 0, 64, "-Xmx256m", false),
            // A million rows of a JSONL dataset, streamed through its mapping, in the same heap.
            new Workload("jsonl-n1000000-0ms-c64-xmx256m", 1_000_000, 0, 64, "-Xmx256m", false));

    /** Workloads run only when named with {@code --only}. */
    private static final List<String> ON_REQUEST = List.of(
            "n100000-0ms-c64-xmx64m",
            "n200000-0ms-c64-xmx64m",
            "n20000-1000ms-c1000-xmx512m",
            "n1000000-0ms-c64-xmx256m",
            "jsonl-n1000000-0ms-c64-xmx256m");

    private PeerBench() {}

    public static void main(String[] args) throws Exception {
        Path assay = Path.of("assay").toAbsolutePath();
        Path promptfoo = Path.of("bench/peer/node_modules/.bin/promptfoo").toAbsolutePath();
        int rounds = 3;
        List<String> only = List.of();
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--assay" -> assay = Path.of(args[i + 1]).toAbsolutePath();
                case "--promptfoo" -> promptfoo = Path.of(args[i + 1]).toAbsolutePath();
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--only" -> only = Arrays.asList(args[i + 1].split(","));
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        boolean withPeer = Files.isExecutable(promptfoo);
        if (!withPeer) {
            System.err.println("promptfoo not found at " + promptfoo + ": measuring Assay alone");
        }
        // The launcher builds Assay when its sources changed, and prepares its start-up cache on the first command that
        // starts a JVM after a build: neither is to be timed.
        Path warmUp = Files.createTempDirectory("assay-peer-warm-up-");
        var warmUpRun = new ProcessBuilder(
                        assay.toString(), "run", "examples/capability", "--model", "mock", "--limit", "2", "--quiet")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        warmUpRun.environment().put("ASSAY_HOME", warmUp.toString());
        warmUpRun.start().waitFor();
        deleteTree(warmUp);
        System.out.printf(
                "%-28s %-10s %8s %8s %9s %8s %8s %7s %8s %9s %7s%n",
                "workload",
                "tool",
                "wall s",
                "cpu s",
                "peak MiB",
                "floor s",
                "served s",
                "x floor",
                "requests",
                "passed",
                "ratio");
        var assayRunsByWorkload = new LinkedHashMap<String, List<Measure>>();
        for (Workload workload : WORKLOADS) {
            if (only.isEmpty() ? ON_REQUEST.contains(workload.name()) : !only.contains(workload.name())) {
                continue;
            }
            Path dir = Files.createTempDirectory("assay-peer-" + workload.name() + "-");
            try (var mock = MockOpenAiServer.start(
                    0, new MockOpenAiServer.Options(Duration.ofMillis(workload.latencyMillis()), 0, 1))) {
                writeInputs(dir, workload, mock.baseUrl());
                var results = new LinkedHashMap<String, List<Measure>>();
                for (int round = 0; round < rounds; round++) {
                    var order = new ArrayList<String>(List.of("assay"));
                    if (withPeer && workload.peer()) {
                        order.add(round % 2 == 0 ? 1 : 0, "promptfoo");
                    }
                    if (workload.latencyMillis() > 0) {
                        order.add("jdk-client");
                    }
                    for (String tool : order) {
                        mock.reset();
                        Measure measure = switch (tool) {
                            case "assay" -> runAssay(assay, dir, workload, mock, round);
                            case "promptfoo" -> runPromptfoo(promptfoo, dir, workload, mock, round);
                            default -> runBareClient(workload, mock);
                        };
                        results.computeIfAbsent(tool, t -> new ArrayList<>()).add(measure);
                        if (workload.latencyMillis() > 0) {
                            System.err.printf(
                                    "%s %s round %d: served %.3f s; %s%n",
                                    workload.name(),
                                    tool,
                                    round,
                                    measure.servedSeconds(),
                                    mock.turnarounds().summary());
                        }
                    }
                }
                print(workload, results);
                List<Measure> assayRuns = results.getOrDefault("assay", List.of());
                if (!assayRuns.isEmpty() && assayRuns.stream().allMatch(run -> complete(workload, run))) {
                    assayRunsByWorkload.put(workload.name(), assayRuns);
                }
            } finally {
                deleteTree(dir);
            }
        }
        List<Measure> fewer = assayRunsByWorkload.get("n5000-0ms-c64");
        List<Measure> more = assayRunsByWorkload.get("n10000-0ms-c64");
        if (fewer != null && more != null) {
            System.out.printf(
                    "assay, each case past 5 000 (medians of n10000-0ms-c64 less n5000-0ms-c64): %.3f ms CPU, %.3f ms"
                            + " wall%n",
                    (medianOf(more, Measure::cpuSeconds) - medianOf(fewer, Measure::cpuSeconds)) / 5.0,
                    (medianOf(more, Measure::wallSeconds) - medianOf(fewer, Measure::wallSeconds)) / 5.0);
        }
    }

    private static double medianOf(List<Measure> measures, ToDoubleFunction<Measure> figure) {
        double[] sorted = measures.stream().mapToDouble(figure).sorted().toArray();
        return sorted[sorted.length / 2];
    }

    private static boolean complete(Workload workload, Measure measure) {
        return measure.error() == null
                && (workload.cases() == 0
                        || (measure.requests() == workload.cases() && measure.passed() == workload.cases()));
    }

    private static void print(Workload workload, Map<String, List<Measure>> results) {
        Double promptfooWall = results.containsKey("promptfoo")
                ? median(results.get("promptfoo")).wallSeconds()
                : null;
        results.forEach((tool, measures) -> {
            Measure m = median(measures);
            String ratio = tool.equals("assay") && promptfooWall != null
                    ? "%.1fx".formatted(promptfooWall / m.wallSeconds())
                    : "";
            String problem = m.error() != null
                    ? "  FAILED: " + m.error()
                    : complete(workload, m)
                            ? ""
                            : "  INCOMPLETE: expected " + workload.cases() + " requests and passes";
            System.out.printf(
                    "%-28s %-10s %8.2f %8.2f %9d %8s %8s %7s %8d %9d %7s%s%n",
                    workload.name(),
                    tool,
                    m.wallSeconds(),
                    m.cpuSeconds(),
                    m.peakRssKiB() >> 10,
                    workload.latencyMillis() == 0 ? "-" : "%.2f".formatted(workload.floorSeconds()),
                    workload.cases() == 0 ? "-" : "%.2f".formatted(m.servedSeconds()),
                    workload.latencyMillis() == 0 ? "-" : "%.3f".formatted(m.servedSeconds() / workload.floorSeconds()),
                    m.requests(),
                    m.passed(),
                    ratio,
                    problem);
        });
    }

    /** The run with the median wall time; a failed run anywhere is reported instead. */
    private static Measure median(List<Measure> measures) {
        for (Measure measure : measures) {
            if (measure.error() != null) {
                return measure;
            }
        }
        var sorted = new ArrayList<>(measures);
        sorted.sort((a, b) -> Double.compare(a.wallSeconds(), b.wallSeconds()));
        return sorted.get(sorted.size() / 2);
    }

    static void writeInputs(Path dir, Workload workload, String baseUrl) throws IOException {
        if (workload.cases() == 0) {
            return;
        }
        if (workload.dataset()) {
            try (BufferedWriter rows = Files.newBufferedWriter(dir.resolve("data.jsonl"), StandardCharsets.UTF_8)) {
                for (int i = 0; i < workload.cases(); i++) {
                    String token = "token-" + i;
                    rows.write(JSON.createObjectNode()
                            .put("id", "c" + i)
                            .put("question", token + ": what is 6 x 7? Repeat the token, a colon, then the number.")
                            .put("answer", token)
                            .toString());
                    rows.newLine();
                }
            }
            return;
        }
        Files.createDirectories(dir.resolve("suite"));
        try (BufferedWriter cases = Files.newBufferedWriter(dir.resolve("suite/cases.jsonl"), StandardCharsets.UTF_8);
                BufferedWriter tests = Files.newBufferedWriter(dir.resolve("tests.jsonl"), StandardCharsets.UTF_8)) {
            for (int i = 0; i < workload.cases(); i++) {
                String token = "token-" + i;
                String prompt = token + ": what is 6 x 7? Repeat the token, a colon, then the number.";
                ObjectNode item = JSON.createObjectNode()
                        .put("id", "c" + i)
                        .put("dimension", "logic")
                        .put("prompt", prompt);
                var checks = item.putArray("checks");
                checks.addObject().put("checker", "contains").put("expected", token);
                checks.addObject().put("checker", "regex").put("expected", "^token-\\d+: 42$");
                cases.write(item.toString());
                cases.newLine();
                ObjectNode test = JSON.createObjectNode();
                test.putObject("vars").put("question", prompt);
                var asserts = test.putArray("assert");
                asserts.addObject().put("type", "contains").put("value", token);
                asserts.addObject().put("type", "regex").put("value", "^token-\\d+: 42$");
                tests.write(test.toString());
                tests.newLine();
            }
        }
        Files.writeString(dir.resolve("promptfooconfig.yaml"), """
                description: assay peer bench
                prompts:
                  - "{{question}}"
                providers:
                  - id: openai:chat:bench
                    config:
                      apiBaseUrl: %s
                      apiKey: bench
                tests: file://tests.jsonl
                """.formatted(baseUrl));
    }

    private static Measure runAssay(Path assay, Path dir, Workload workload, MockOpenAiServer mock, int round)
            throws IOException, InterruptedException {
        Path home = dir.resolve("assay-home-" + round);
        Path out = dir.resolve("assay-out-" + round);
        List<String> source = workload.dataset()
                ? List.of(
                        dir.resolve("data.jsonl").toString(),
                        "--id-field",
                        "id",
                        "--input-field",
                        "question",
                        "--target-field",
                        "answer",
                        "--checker",
                        "contains")
                : List.of(dir.resolve("suite").toString());
        List<String> command = workload.cases() == 0
                ? List.of(assay.toString(), "--version")
                : concat(
                        List.of(assay.toString(), "run"),
                        source,
                        List.of(
                                "--model",
                                "openai:bench",
                                "--base-url",
                                mock.baseUrl(),
                                "--concurrency",
                                Integer.toString(workload.concurrency()),
                                "--format",
                                "json",
                                "--out",
                                out.toString()));
        var env = Map.of("ASSAY_HOME", home.toString(), "ASSAY_JAVA_OPTS", workload.javaOptions());
        Timed timed = timed(command, dir, env, dir.resolve("assay-stdout-" + round));
        if (timed.error() != null || workload.cases() == 0) {
            return timed.measure(mock, 0);
        }
        JsonNode summary = lastJsonLine(timed.stdout());
        long passed = summary.path("counts").path("passed").asLong(-1);
        return timed.measure(mock, passed);
    }

    private static Measure runPromptfoo(Path promptfoo, Path dir, Workload workload, MockOpenAiServer mock, int round)
            throws IOException, InterruptedException {
        Path output = dir.resolve("promptfoo-out-" + round + ".json");
        List<String> command = workload.cases() == 0
                ? List.of(promptfoo.toString(), "--version")
                : List.of(
                        promptfoo.toString(),
                        "eval",
                        "-c",
                        dir.resolve("promptfooconfig.yaml").toString(),
                        "--max-concurrency",
                        Integer.toString(workload.concurrency()),
                        "--no-cache",
                        "--no-progress-bar",
                        "--no-table",
                        "-o",
                        output.toString());
        var env = Map.of(
                "PROMPTFOO_CONFIG_DIR",
                dir.resolve("promptfoo-home-" + round).toString(),
                "PROMPTFOO_DISABLE_TELEMETRY",
                "1",
                "PROMPTFOO_DISABLE_UPDATE",
                "1",
                "OPENAI_API_KEY",
                "bench");
        Timed timed = timed(command, dir, env, dir.resolve("promptfoo-stdout-" + round));
        if (timed.error() != null || workload.cases() == 0) {
            return timed.measure(mock, 0);
        }
        JsonNode stats = JSON.readTree(output.toFile()).path("results").path("stats");
        return timed.measure(mock, stats.path("successes").asLong(-1));
    }

    /** The floor of a latency-bound workload ({@link BareClient}): wall time and served span only. */
    private static Measure runBareClient(Workload workload, MockOpenAiServer mock) throws InterruptedException {
        long start = System.nanoTime();
        long passed = BareClient.run(mock.baseUrl(), workload.cases(), workload.concurrency());
        double wall = (System.nanoTime() - start) / 1e9;
        return new Measure(wall, 0, 0, mock.servedSpan().toNanos() / 1e9, mock.requests(), passed, null);
    }

    /** A finished process with the figures {@code /usr/bin/time} reported for it. */
    record Timed(double wall, double cpu, long rssKiB, Path stdout, String error) {
        Measure measure(MockOpenAiServer mock, long passed) {
            return new Measure(wall, cpu, rssKiB, mock.servedSpan().toNanos() / 1e9, mock.requests(), passed, error);
        }
    }

    static Timed timed(List<String> command, Path dir, Map<String, String> env, Path stdout)
            throws IOException, InterruptedException {
        Path times = Files.createTempFile(dir, "time", ".txt");
        var full = new ArrayList<>(List.of("/usr/bin/time", "-f", "%e %U %S %M", "-o", times.toString()));
        full.addAll(command);
        var builder = new ProcessBuilder(full)
                .directory(dir.toFile())
                .redirectOutput(stdout.toFile())
                .redirectError(dir.resolve(stdout.getFileName() + ".err").toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        if (!process.waitFor(30, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            return new Timed(0, 0, 0, stdout, "timed out");
        }
        List<String> lines = Files.readAllLines(times);
        String[] figures = lines.get(lines.size() - 1).trim().split(" ");
        String error = process.exitValue() == 0 ? null : "exit " + process.exitValue() + " (see " + stdout + ".err)";
        return new Timed(
                Double.parseDouble(figures[0]),
                Double.parseDouble(figures[1]) + Double.parseDouble(figures[2]),
                Long.parseLong(figures[3]),
                stdout,
                error);
    }

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        var all = new ArrayList<String>();
        for (List<String> part : parts) {
            all.addAll(part);
        }
        return all;
    }

    static JsonNode lastJsonLine(Path stdout) throws IOException {
        List<String> lines = Files.readAllLines(stdout);
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).startsWith("{")) {
                return JSON.readTree(lines.get(i));
            }
        }
        return JSON.createObjectNode();
    }

    static void deleteTree(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            paths.sorted((a, b) -> b.getNameCount() - a.getNameCount())
                    .forEach(path -> path.toFile().delete());
        }
    }
}
