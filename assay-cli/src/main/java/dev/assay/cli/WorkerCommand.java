package dev.assay.cli;

import dev.assay.check.CheckerRegistry;
import dev.assay.queue.Worker;
import dev.assay.server.MetricsServer;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code assay worker}: takes the cases of queued runs ({@code assay run --queue}, {@code "queue": true}) from a
 * PostgreSQL database and runs them, until stopped.
 */
@Command(
        name = "worker",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Run the cases of queued runs (assay run --queue) from a PostgreSQL database, as many workers on "
                + "as many machines as wanted (Ctrl-C or SIGTERM stops: running cases finish, or are taken over by "
                + "another worker).")
final class WorkerCommand implements Callable<Integer>, EnvironmentFactory.NeedsEnvironment {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    DatabaseOption database;

    @Option(
            names = {"-c", "--concurrency"},
            paramLabel = "<n>",
            defaultValue = "4",
            converter = OptionValues.AtLeastOne.class,
            description = "Cases run at once by this worker; each run's own concurrency still limits its endpoint "
                    + "across all workers (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(
            names = "--heartbeat",
            paramLabel = "<seconds>",
            defaultValue = "10",
            converter = OptionValues.PositiveSeconds.class,
            description = "How often the worker tells the database it is alive, for each case it runs "
                    + "(default: ${DEFAULT-VALUE}).")
    double heartbeatSeconds;

    @Option(
            names = "--missed-heartbeats",
            paramLabel = "<n>",
            defaultValue = "6",
            description = "Heartbeats a case may miss before another worker takes it over, at least "
                    + Worker.MIN_MISSED_HEARTBEATS + "; all workers of a database should agree "
                    + "(default: ${DEFAULT-VALUE}).")
    int missedHeartbeats;

    @Option(
            names = "--metrics-port",
            paramLabel = "<port>",
            description = "Serve GET /metrics (Prometheus) on this port, on all addresses: the cases waiting on the "
                    + "queue (assay_cases_waiting), in flight (assay_cases_running) and finished "
                    + "(assay_cases_finished_total) (default: none).")
    Integer metricsPort;

    @Option(
            names = "--workspace-dir",
            paramLabel = "<dir>",
            description = "Where case workspaces are created (default: $ASSAY_HOME/workspaces).")
    Path workspaceDir;

    private Map<String, String> env = Map.of();

    @Override
    public void environment(Map<String, String> environment) {
        this.env = environment;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (!database.url().startsWith("jdbc:postgresql://")) {
            throw new ParameterException(
                    spec.commandLine(),
                    "a worker needs the PostgreSQL database the runs are queued in (--db jdbc:postgresql://HOST/DB); "
                            + Stores.redact(database.url()) + " is not one");
        }
        if (missedHeartbeats < Worker.MIN_MISSED_HEARTBEATS) {
            throw new ParameterException(
                    spec.commandLine(), "--missed-heartbeats must be at least " + Worker.MIN_MISSED_HEARTBEATS);
        }
        if (workspaceDir != null) {
            OutputDirectories.requireWritable(spec.commandLine(), "--workspace-dir", workspaceDir);
        }
        PrintWriter err = spec.commandLine().getErr();
        var settings = Worker.Settings.defaults(concurrency)
                .withHeartbeat(Duration.ofMillis((long) (heartbeatSeconds * 1000)))
                .withMissedHeartbeats(missedHeartbeats);
        if (metricsPort != null && (metricsPort < 0 || metricsPort > 65_535)) {
            throw new ParameterException(spec.commandLine(), "--metrics-port must be between 0 and 65535");
        }
        try (Store store = database.open();
                MetricsServer metrics = metricsPort == null ? null : MetricsServer.start("0.0.0.0", metricsPort)) {
            Worker worker = Worker.start(
                    database.url(),
                    store,
                    CheckerRegistry.builtins(),
                    workspaceDir != null ? workspaceDir : database.home().resolve("workspaces"),
                    env::get,
                    settings,
                    line -> {
                        synchronized (err) {
                            err.println(TerminalText.line(line));
                            err.flush();
                        }
                    });
            var stopped = new CountDownLatch(1);
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(
                            () -> {
                                worker.close();
                                stopped.countDown();
                            },
                            "assay-worker-stop"));
            err.printf(
                    "Assay worker taking cases from %s, %d at once; Ctrl-C stops%n",
                    Stores.redact(database.url()), concurrency);
            if (metrics != null) {
                err.printf("Worker metrics at http://0.0.0.0:%d/metrics%n", metrics.port());
            }
            err.flush();
            stopped.await();
            return ExitCodes.OK;
        }
    }
}
