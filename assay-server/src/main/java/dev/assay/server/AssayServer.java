package dev.assay.server;

import dev.assay.Json;
import dev.assay.check.CheckerRegistry;
import dev.assay.report.Reporters;
import dev.assay.run.Engine;
import dev.assay.run.RunSettings;
import dev.assay.run.SilentRuns;
import dev.assay.store.Store;
import io.javalin.Javalin;
import io.javalin.http.staticfiles.Location;
import io.javalin.json.JavalinJackson;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Assay's HTTP server: the REST and SSE API under {@code /api}, the reference aliases under
 * {@code /wunder/admin/evaluation}, Prometheus metrics at {@code /metrics}, and the page at {@code /} (static files
 * from the jar, Chart.js from its WebJar). Runs go through the given engine, exactly as from the CLI.
 */
public final class AssayServer {
    private static final Logger LOG = LoggerFactory.getLogger(AssayServer.class);

    private AssayServer() {}

    private static void sweep(Store store) {
        try {
            SilentRuns.interrupt(store, SilentRuns.DEFAULT_SILENCE)
                    .forEach(run -> LOG.info("run {} had stopped without ending: now interrupted", run.runId()));
        } catch (RuntimeException e) {
            // The database is away: the next sweep tries again, and nothing is lost by waiting.
            LOG.warn("could not look for runs that stopped without ending: {}", e.toString());
        }
    }

    /**
     * The page acts with the token it keeps: no other site may frame it and have a user click through it
     * (clickjacking). Cache-Control is Javalin's default for static files, which a map of headers replaces.
     */
    private static final java.util.Map<String, String> PAGE_HEADERS = java.util.Map.of(
            "Cache-Control",
            "max-age=0",
            "X-Frame-Options",
            "DENY",
            "Content-Security-Policy",
            "frame-ancestors 'none'");

    /**
     * {@return a server that has not started}; call {@code start(port)} (tests use port 0) and {@code stop()}. Stopping
     * it cancels the runs it started; their finished items are kept.
     *
     * @param config host, token, suites directory, workspaces, environment
     * @param engine runs evaluations; shares {@code store}
     * @param store where runs are read from and deleted
     * @param checkers the checkers suites may name (the engine's)
     */
    public static Javalin create(ServerConfig config, Engine engine, Store store, CheckerRegistry checkers) {
        return create(config, engine, store, checkers, new RunSettings());
    }

    /**
     * As {@link #create(ServerConfig, Engine, Store, CheckerRegistry)}, with the server's own settings under every
     * start body (assay.yaml's judge models): a run started through the API resolves them into its spec like the CLI
     * does.
     *
     * @param defaults the lowest source of every run the server starts
     */
    public static Javalin create(
            ServerConfig config, Engine engine, Store store, CheckerRegistry checkers, RunSettings defaults) {
        var caseSets = new CaseSets(config.suitesDirectory(), checkers);
        var live = new LiveRuns();
        var datasets = new Datasets(config.datasetsDirectory());
        var runs = new Runs(config, engine, store, checkers, live, caseSets, datasets, defaults);
        var auth = new Auth(config);
        var streams = new StreamRoutes(runs);
        var metrics = new MetricsRoute();
        // Runs of other processes on the same database (CLI runs, another server) that died are ended as they are
        // found; the first sweep runs at start.
        var sweeper = Executors.newSingleThreadScheduledExecutor(
                Thread.ofVirtual().name("assay-silent-runs").factory());
        return Javalin.create(javalin -> {
            javalin.startup.showJavalinBanner = false;
            javalin.concurrency.useVirtualThreads = true;
            javalin.jetty.host = config.host();
            javalin.jetty.modifyServer(server -> server.setErrorHandler(new ApiProblems.JettyErrors()));
            javalin.jsonMapper(new JavalinJackson(Json.MAPPER, true));
            javalin.staticFiles.add(files -> {
                files.directory = "/public";
                files.location = Location.CLASSPATH;
                files.headers = PAGE_HEADERS;
            });
            javalin.staticFiles.enableWebjars();
            javalin.events.serverStopping(live::cancelAll);
            javalin.events.serverStopped(metrics::close);
            javalin.events.serverStarted(() -> {
                // sweep() handles its own failures, so the schedule's future has nothing to report.
                var unused = sweeper.scheduleWithFixedDelay(
                        () -> sweep(store), 0, Engine.HEARTBEAT.multipliedBy(3).toSeconds(), TimeUnit.SECONDS);
            });
            javalin.events.serverStopped(sweeper::shutdownNow);
            javalin.routes.before("/api/*", auth::check);
            javalin.routes.before(WunderAliases.PREFIX + "/*", auth::check);
            javalin.routes.before(MetricsRoute.PATH, auth::check);
            ApiProblems.register(javalin.routes);
            new RunRoutes(runs, Reporters.builtins()).register(javalin.routes);
            new LabelRoutes(runs).register(javalin.routes);
            streams.register(javalin.routes, "/api/runs/{run_id}/events");
            new SuiteRoutes(caseSets, datasets, config).register(javalin.routes);
            new WunderAliases(runs, caseSets).register(javalin.routes, streams);
            metrics.register(javalin.routes);
        });
    }
}
