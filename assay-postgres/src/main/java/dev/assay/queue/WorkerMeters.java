package dev.assay.queue;

import dev.assay.result.ItemStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Metrics;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A worker process's meters in Micrometer's global registry, named as the server's where they mean the same:
 * {@code assay.cases.waiting} (here the queue's depth, the cases of every run waiting to be taken, which a
 * HorizontalPodAutoscaler scales workers on), {@code assay.cases.finished} by status (its rate is the cases done per
 * second), and {@code assay.cases.running}, the cases in flight. Shared by every worker of the process, as a scrape
 * describes the process. Thread-safe.
 */
final class WorkerMeters {
    private static final AtomicLong WAITING = new AtomicLong();
    private static final AtomicLong RUNNING = new AtomicLong();
    private static final AtomicLong FINISHED = new AtomicLong();

    static {
        Gauge.builder("assay.cases.waiting", WAITING, AtomicLong::get)
                .description("Cases on the queue not yet taken by a worker")
                .register(Metrics.globalRegistry);
        Gauge.builder("assay.cases.running", RUNNING, AtomicLong::get)
                .description("Cases this process is running")
                .register(Metrics.globalRegistry);
    }

    private WorkerMeters() {}

    static void waiting(long cases) {
        WAITING.set(cases);
    }

    static long waiting() {
        return WAITING.get();
    }

    static void caseStarted() {
        RUNNING.incrementAndGet();
    }

    static void caseEnded() {
        RUNNING.decrementAndGet();
    }

    static long running() {
        return RUNNING.get();
    }

    static void caseFinished(ItemStatus status) {
        FINISHED.incrementAndGet();
        Counter.builder("assay.cases.finished")
                .description("Finished cases by status")
                .tag("status", status.wireName())
                .register(Metrics.globalRegistry)
                .increment();
    }

    /** {@return the cases this process finished since it started} */
    static long finished() {
        return FINISHED.get();
    }
}
