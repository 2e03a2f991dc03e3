package dev.assay.model.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/**
 * The meters of calls to models and agent services, per endpoint (host and port): each try's latency and outcome
 * ({@code ok} or the problem type, so 429s are {@code target.rate_limited}), and each retry with its reason. They go to
 * Micrometer's global registry, the one place a library's meters are meant to go: a server or worker adds its
 * Prometheus registry there, and without one they cost next to nothing.
 */
public final class ModelMeters {
    private ModelMeters() {}

    public static void call(String endpoint, String outcome, long nanos) {
        Timer.builder("assay.model.calls")
                .description("Tries of model and agent-service calls, by endpoint and outcome")
                .tag("endpoint", endpoint)
                .tag("outcome", outcome)
                .register(Metrics.globalRegistry)
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    public static void retry(String endpoint, String reason) {
        Counter.builder("assay.model.retries")
                .description("Retried model and agent-service calls, by endpoint and the failure retried")
                .tag("endpoint", endpoint)
                .tag("reason", reason)
                .register(Metrics.globalRegistry)
                .increment();
    }
}
