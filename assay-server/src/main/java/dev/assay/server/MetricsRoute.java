package dev.assay.server;

import dev.assay.run.RunMeters;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * {@code GET /metrics} in Prometheus' text format: the engine's and the model calls' meters (which assay-core records
 * in Micrometer's global registry) and the JVM's. The route is guarded like the API's reads. Closing it takes its
 * registry out of the global one, so a stopped server leaves nothing behind.
 */
final class MetricsRoute implements AutoCloseable {
    static final String PATH = "/metrics";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();

    MetricsRoute() {
        this(true);
    }

    /**
     * @param runGauges whether to show the engine's gauges of runs in flight from the start; a worker's process runs no
     *     whole runs, and its {@code assay.cases.waiting} is the queue's depth, which the worker registers
     */
    MetricsRoute(boolean runGauges) {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        gc.bindTo(registry);
        Metrics.addRegistry(registry);
        if (runGauges) {
            RunMeters.register();
        }
    }

    void register(RoutesConfig routes) {
        routes.get(PATH, this::scrape);
    }

    private void scrape(Context ctx) {
        ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(registry.scrape());
    }

    @Override
    public void close() {
        Metrics.removeRegistry(registry);
        gc.close();
        registry.close();
    }
}
