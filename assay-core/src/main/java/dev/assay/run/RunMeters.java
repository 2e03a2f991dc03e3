package dev.assay.run;

import dev.assay.cost.ItemCost;
import dev.assay.cost.Role;
import dev.assay.result.ItemStatus;
import dev.assay.transcript.Usage;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Metrics;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine's meters in Micrometer's global registry: runs in flight, cases waiting in them (the queue's depth), and
 * finished cases by status, whose rate is the cases per second. Shared by every engine of the process, as a scrape of
 * {@code /metrics} describes the process. Thread-safe.
 */
public final class RunMeters {
    private static final AtomicLong ACTIVE_RUNS = new AtomicLong();
    private static final AtomicLong WAITING_CASES = new AtomicLong();

    static {
        register();
    }

    /**
     * Registers the gauges of runs in flight and cases waiting, reading 0 while nothing runs. The first run registers
     * them anyway; a server calls this when it starts, so that an idle one's {@code /metrics} shows them too.
     * Registering again changes nothing.
     */
    public static void register() {
        if (Metrics.globalRegistry.find("assay.runs.active").gauge() != null) {
            // Micrometer warns of a gauge registered twice; the registered one holds already.
            return;
        }
        Gauge.builder("assay.runs.active", ACTIVE_RUNS, AtomicLong::get)
                .description("Runs in flight in this process")
                .register(Metrics.globalRegistry);
        Gauge.builder("assay.cases.waiting", WAITING_CASES, AtomicLong::get)
                .description("Cases of the runs in flight that have not finished yet")
                .register(Metrics.globalRegistry);
    }

    private RunMeters() {}

    /** A run of {@code items} items started. */
    static void runStarted(int items) {
        ACTIVE_RUNS.incrementAndGet();
        WAITING_CASES.addAndGet(items);
    }

    public static void caseFinished(ItemStatus status) {
        WAITING_CASES.decrementAndGet();
        Counter.builder("assay.cases.finished")
                .description("Finished cases by status")
                .tag("status", status.wireName())
                .register(Metrics.globalRegistry)
                .increment();
    }

    /**
     * Counts what a finished item's model calls cost, by role ({@code subject}, {@code judge}, {@code user}): the
     * counters {@code assay.cost.usd} (US dollars) and {@code assay.tokens} (also by {@code kind}: input, cached_input,
     * output).
     */
    public static void spent(ItemCost cost) {
        for (Role role : Role.values()) {
            Usage usage = cost.usage(role);
            if (usage.totalTokens() == 0) {
                continue;
            }
            Counter.builder("assay.cost.usd")
                    .description("What the models called by finished cases cost, in US dollars (docs/cost.md)")
                    .tag("role", role.wireName())
                    .register(Metrics.globalRegistry)
                    .increment(cost.usd(role));
            tokens(role, "input", usage.inputTokens());
            tokens(role, "cached_input", usage.cachedInputTokens());
            tokens(role, "output", usage.outputTokens());
        }
    }

    private static void tokens(Role role, String kind, long count) {
        Counter.builder("assay.tokens")
                .description("Tokens of the models called by finished cases")
                .tag("role", role.wireName())
                .tag("kind", kind)
                .register(Metrics.globalRegistry)
                .increment((double) count);
    }

    /** A run ended with {@code unfinished} of its items never run (cancelled, stopped, interrupted). */
    static void runEnded(int unfinished) {
        ACTIVE_RUNS.decrementAndGet();
        WAITING_CASES.addAndGet(-unfinished);
    }
}
