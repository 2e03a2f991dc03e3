package dev.assay.bench;

import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.cases.Suite;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.ModelOptions;
import dev.assay.model.RetryPolicy;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.model.openai.OpenAiSettings;
import dev.assay.result.Run;
import dev.assay.run.Engine;
import dev.assay.run.RunConfig;
import dev.assay.run.RunListener;
import dev.assay.run.RunPlan;
import dev.assay.run.RunSettings;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.AgentSubject;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The harness overhead of capability runs, end to end: N trivial cases through the real engine, agent loop, HTTP
 * client, checker and SQLite store, against the benchmark's mock OpenAI-compatible server on loopback
 * ({@link MockOpenAiServer}). Scenarios: 0 ms model latency (pure harness cost per case) and 200 ms latency at
 * concurrency 64 (compared with the ideal N x 200 ms / 64). Prints wall time, per-case overhead and peak heap. Usage:
 * {@code CapabilityBench [N...]} (default 1000 10000).
 */
public final class CapabilityBench {
    private CapabilityBench() {}

    public static void main(String[] args) throws Exception {
        List<Integer> sizes = new ArrayList<>();
        for (String arg : args) {
            sizes.add(Integer.parseInt(arg));
        }
        if (sizes.isEmpty()) {
            sizes = List.of(1_000, 10_000);
        }
        System.out.printf(
                "capability bench: %d CPUs, max heap %d MiB, Java %s%n",
                Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20,
                System.getProperty("java.version"));
        for (int n : sizes) {
            measure(n, 0, 16);
            measure(n, 200, 64);
        }
    }

    private static void measure(int n, long latencyMillis, int concurrency) throws Exception {
        Path dir = Files.createTempDirectory("assay-bench");
        resetPeaks();
        try (var server = MockOpenAiServer.start(
                        0, new MockOpenAiServer.Options(Duration.ofMillis(latencyMillis), 0, 1));
                Store store = Stores.open("jdbc:sqlite:" + dir.resolve("bench.db"))) {
            var cases = new ArrayList<Case>(n);
            for (int i = 0; i < n; i++) {
                cases.add(Case.of(
                        "case_" + i,
                        i % 2 == 0 ? "logic" : "common",
                        "What is 6 x 7? (" + i + ")",
                        Check.of("exact", Json.MAPPER.getNodeFactory().textNode("42"))));
            }
            var model = new OpenAiChatModel(
                    new OpenAiSettings(
                            "bench", server.baseUrl(), "", false, Duration.ofSeconds(60), RetryPolicy.none()),
                    line -> {});
            var subject = new AgentSubject(model, List.of(), AgentSettings.defaults(), concurrency);
            // The engine reads the run's settings from its spec, resolved as any front end's: the suite is built here
            // in memory, so the spec names the directory only for the record.
            var spec = new RunSettings()
                    .suites(List.of(dir))
                    .model(ModelOptions.of("openai:bench"))
                    .concurrency(concurrency)
                    .resolve();
            var config = new RunConfig(null, dir.resolve("work"), spec);
            var plan = new RunPlan(
                    new Suite("bench", "bench-" + n, cases, Map.of(), List.of()),
                    subject,
                    config,
                    CheckerRegistry.builtins());
            long start = System.nanoTime();
            Run run = new Engine(store).run(plan, RunListener.NONE);
            double wall = (System.nanoTime() - start) / 1e9;
            double ideal = latencyMillis == 0 ? 0 : n * latencyMillis / 1000.0 / concurrency;
            System.out.printf(
                    "N=%-6d latency=%3d ms concurrency=%-3d passed=%-6d wall=%7.2f s  per case=%6.2f ms"
                            + "  ideal=%6.2f s  overhead=%6.1f%%  peak heap=%d MiB%n",
                    n,
                    latencyMillis,
                    concurrency,
                    run.counts().passed(),
                    wall,
                    wall * 1000 / n,
                    ideal,
                    ideal == 0 ? Double.NaN : (wall - ideal) / ideal * 100,
                    peakHeapMiB());
        }
    }

    private static void resetPeaks() {
        System.gc();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            pool.resetPeakUsage();
        }
    }

    /** Sum of the heap pools' peaks: an upper bound of the live heap at its fullest. */
    private static long peakHeapMiB() {
        long bytes = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                bytes += pool.getPeakUsage().getUsed();
            }
        }
        return bytes >> 20;
    }
}
