package dev.assay.server;

import io.javalin.Javalin;

/**
 * {@code GET /metrics} alone on a port of its own, for a process without a page ({@code assay worker --metrics-port}):
 * the same Prometheus scrape as the server's {@link MetricsRoute}, unguarded, since it carries counts and no run data.
 * Thread-safe; close it to stop serving.
 */
public final class MetricsServer implements AutoCloseable {
    private final Javalin app;

    private MetricsServer(Javalin app) {
        this.app = app;
    }

    /**
     * Starts serving the meters of Micrometer's global registry and the JVM's, without the engine's gauges of whole
     * runs (a worker's {@code assay.cases.waiting} is the queue's depth).
     *
     * @param host the address to listen on
     * @param port the port, 0 for any free one
     */
    public static MetricsServer start(String host, int port) {
        var metrics = new MetricsRoute(false);
        Javalin app = Javalin.create(javalin -> {
            javalin.startup.showJavalinBanner = false;
            javalin.concurrency.useVirtualThreads = true;
            javalin.jetty.host = host;
            javalin.events.serverStopped(metrics::close);
            metrics.register(javalin.routes);
        });
        app.start(port);
        return new MetricsServer(app);
    }

    /** {@return the port it listens on} */
    public int port() {
        return app.port();
    }

    @Override
    public void close() {
        app.stop();
    }
}
