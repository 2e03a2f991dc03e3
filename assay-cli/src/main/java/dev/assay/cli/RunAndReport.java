package dev.assay.cli;

import dev.assay.check.CheckerRegistry;
import dev.assay.report.Reporters;
import dev.assay.report.RunReport;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.run.Engine;
import dev.assay.run.EvalSpec;
import dev.assay.run.Prepared;
import dev.assay.run.RunHandle;
import dev.assay.run.RunListener;
import dev.assay.run.RunObserver;
import dev.assay.run.RunPlan;
import dev.assay.store.Store;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine;

/**
 * The run-and-report phase of {@code assay run}, for a new run and a continued one alike: prepares the described run,
 * runs it on the engine with progress on stderr, writes its reports and summary, and gives the exit code.
 */
final class RunAndReport {
    private final CommandLine commandLine;
    private final DatabaseOption database;
    private final RunEngineOptions engineFlags;
    private final RunOutputOptions output;
    private final Map<String, String> env;

    RunAndReport(
            CommandLine commandLine,
            DatabaseOption database,
            RunEngineOptions engineFlags,
            RunOutputOptions output,
            Map<String, String> env) {
        this.commandLine = commandLine;
        this.database = database;
        this.engineFlags = engineFlags;
        this.output = output;
        this.env = env;
    }

    /** Makes the run's description ready: the system under test, its tools, the suite. */
    @FunctionalInterface
    interface Preparation {
        Prepared prepare() throws Exception;
    }

    /** How a prepared plan becomes a running run: started afresh, or a stored run continued. */
    @FunctionalInterface
    interface Launch {
        RunHandle launch(Engine engine, Store store, RunPlan plan, RunListener listener);
    }

    /**
     * {@return the prepared run of a description}, saying what preparing it does on stderr unless {@code --quiet}
     *
     * @param runId the id of the stored run it continues; null for a new run
     */
    Prepared prepare(EvalSpec description, String runId, Path workspaces, CheckerRegistry checkers)
            throws InterruptedException {
        PrintWriter stderr = commandLine.getErr();
        return description.prepare(runId, workspaces, checkers, env::get, line -> {
            if (!output.quiet) {
                stderr.println("  " + line);
            }
        });
    }

    /**
     * What the report phase needs of a run that has ended: nothing of its suite or system under test, which are
     * released first (a run of 100 000 cases reports in the memory of a page of items), and only the tags of the cases
     * that have any ({@link dev.assay.cases.Suite#caseTags}).
     *
     * @param cancelOnSignal still installed: a signal that cancelled the run waits for its reports and summary, and the
     *     caller closes it once they are written
     */
    private record Ended(Run run, Map<String, List<String>> caseTags, Path workspaces, CancelOnSignal cancelOnSignal) {}

    /** Prepares, runs and reports a run; {@return the exit code} */
    int run(Preparation preparation, Function<Prepared, RunPlan> planOf, Launch launch) throws Exception {
        PrintWriter stdout = commandLine.getOut();
        PrintWriter stderr = commandLine.getErr();
        // The database opens (and migrates) on its own thread while the suite is read and hashed, a tenth of a large
        // run's time; a bad suite or model is still said first. The prepared run is held only until runToEnd takes it,
        // so that nothing of it is reachable from this frame while the reports are written.
        var opening = StoreOpening.start(database);
        Pending pending;
        try {
            pending = new Pending(preparation.prepare());
        } catch (Exception | Error e) {
            opening.closeAfter(e);
            throw e;
        }
        try (Store store = opening.await()) {
            Ended ended = runToEnd(pending.take(), planOf, launch, store, stderr);
            try {
                return report(ended, store, stdout, stderr);
            } finally {
                ended.cancelOnSignal().close();
            }
        } finally {
            Prepared unused = pending.take();
            if (unused != null) {
                unused.close();
            }
        }
    }

    /** Writes the ended run's reports and summary; {@return the exit code} */
    private int report(Ended ended, Store store, PrintWriter stdout, PrintWriter stderr) throws IOException {
        Run run = ended.run();
        // Said before the report is read: when the database stayed away, reading it fails too.
        explainEnd(run, stderr);
        if (run.error() != null && run.error().type().equals("store.outage")) {
            // The report is read from the database that stayed away: the line above and what the engine holds of the
            // run are all there is to say.
            Summary.printUnreported(stdout, run, output.format.toString());
            stdout.flush();
            return exitCode(run);
        }
        RunReport report = RunReport.ofEnded(store, run, ended.caseTags());
        if (output.out != null) {
            Reporters.builtins().writeAll(report, output.out);
        }
        Summary.print(stdout, report, output.format.toString(), output.out);
        sayKeptWorkspaces(ended.workspaces().resolve(run.runId()), stderr);
        // A signal's exit follows as soon as this returns: what was printed must be out by then.
        stdout.flush();
        return exitCode(run);
    }

    /**
     * Says where the run left case workspaces (those of failed cases, or all with {@code --keep-workspaces}), on stderr
     * in every output format, since they stay until deleted: the run's own directory is removed when it is empty.
     */
    private static void sayKeptWorkspaces(Path runWorkspaces, PrintWriter stderr) throws IOException {
        if (!Files.isDirectory(runWorkspaces)) {
            return;
        }
        long cases;
        try (var entries = Files.list(runWorkspaces)) {
            cases = entries.count();
        }
        if (cases > 0) {
            stderr.println("Workspaces of " + cases + " cases kept for inspection: " + runWorkspaces
                    + " (assay runs prune deletes kept workspaces, e.g. --older-than 7d)");
            stderr.flush();
        }
    }

    /** A prepared run until it is taken: the frame holding this keeps nothing of the run reachable afterwards. */
    private static final class Pending {
        private Prepared prepared;

        Pending(Prepared prepared) {
            this.prepared = prepared;
        }

        /** {@return the prepared run, the first time; null after} */
        Prepared take() {
            Prepared taken = prepared;
            prepared = null;
            return taken;
        }
    }

    /** Runs and closes the run; only what the report needs outlives this call. */
    private Ended runToEnd(
            Prepared preparedRun, Function<Prepared, RunPlan> planOf, Launch launch, Store store, PrintWriter stderr)
            throws Exception {
        try (Prepared prepared = preparedRun;
                RunObserver observer = Telemetry.observer(output.otel, env, stderr)) {
            RunPlan plan = planOf.apply(prepared);
            var engine = engineFlags.engine(store).observedBy(observer);
            var progress = ProgressPrinter.forStderr(
                    stderr,
                    ProgressPrinter.Mode.choose(
                            output.quiet,
                            output.verbose,
                            !output.quiet && !output.verbose && ProgressPrinter.stderrIsTerminal(),
                            env),
                    env);
            RunHandle handle = launch.launch(engine, store, plan, progress);
            CancelOnSignal cancelOnSignal = CancelOnSignal.install(handle, stderr);
            try {
                return new Ended(
                        handle.await(), plan.suite().caseTags(), plan.config().workspaceRoot(), cancelOnSignal);
            } catch (Exception | Error e) {
                cancelOnSignal.close();
                throw e;
            }
        }
    }

    /**
     * One line on stderr for a run that did not finish on its own; one whose every judged item is an error has failed
     * ({@code run.all_items_errored}).
     */
    private static void explainEnd(Run run, PrintWriter stderr) {
        String reason = run.error() == null
                ? ""
                : ": " + TerminalText.line(run.error().message()) + " ("
                        + run.error().type() + ")";
        switch (run.status()) {
            case FAILED -> stderr.println("error: the run failed" + reason);
            case INTERRUPTED -> stderr.println("error: the run was interrupted" + reason);
            default -> {}
        }
        stderr.flush();
    }

    private int exitCode(Run run) {
        if (run.status() == RunStatus.CANCELLED) {
            return ExitCodes.CANCELLED;
        }
        if (run.status() == RunStatus.FAILED || run.status() == RunStatus.INTERRUPTED) {
            return ExitCodes.CANNOT_RUN;
        }
        if (output.threshold != null && (run.totalScore() == null || run.totalScore() < output.threshold)) {
            commandLine
                    .getErr()
                    .printf(
                            "threshold missed: total %s < %.4f%n",
                            run.totalScore() == null ? "none" : "%.4f".formatted(run.totalScore()), output.threshold);
            return ExitCodes.THRESHOLD_MISSED;
        }
        return ExitCodes.OK;
    }
}
