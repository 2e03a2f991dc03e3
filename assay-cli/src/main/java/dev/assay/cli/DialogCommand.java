package dev.assay.cli;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.dialog.DialogPreparation;
import dev.assay.dialog.DialogWorkload;
import dev.assay.model.ChatModel;
import dev.assay.model.ModelOptions;
import dev.assay.run.Engine;
import dev.assay.run.EvalSpec;
import dev.assay.run.RunHandle;
import dev.assay.run.RunListener;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import java.io.PrintWriter;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code assay dialog}: multi-turn dialog evaluation with the MemFin M1–M5 metrics (docs/dialog.md), its subcommands
 * {@code dialog score} ({@link DialogScoreCommand}) and {@code dialog run} ({@link DialogRunCommand}). It runs a
 * described dialog run through the engine for {@code dialog run} and for the resumption of a stored dialog run, from
 * either command. Exit codes are those of every command ({@link ExitCodes}): 0 done, 2 invalid usage or input, 3 could
 * not run.
 */
@Command(
        name = "dialog",
        description = "Multi-turn dialog evaluation (MemFin metrics M1-M5).",
        mixinStandardHelpOptions = true,
        subcommands = {DialogScoreCommand.class, DialogRunCommand.class})
final class DialogCommand implements Callable<Integer> {
    final Function<ModelOptions, ChatModel> models;

    @Spec
    CommandSpec spec;

    /** @param models creates the chat model described by {@code --model}, {@code --base-url}, {@code --api-key-env} */
    DialogCommand(Function<ModelOptions, ChatModel> models) {
        this.models = Objects.requireNonNull(models, "models");
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return ExitCodes.USAGE;
    }

    /**
     * Continues a stored dialog run from its stored spec ({@link EvalSpec#toResume}), as {@code assay run --resume} and
     * {@code assay dialog run --resume} do: the dialogs that ended ok or skipped are kept, the others replayed, their
     * answered turns from the run's stored answers.
     *
     * @throws AssayException {@code run.not_found}, {@code run.not_resumable}
     */
    static int resume(
            String runId,
            Function<ModelOptions, ChatModel> models,
            DatabaseOption database,
            Map<String, String> env,
            CommandLine commandLine)
            throws InterruptedException {
        dev.assay.result.Run stored;
        try (Store store = database.open()) {
            stored = store.findRun(runId)
                    .orElseThrow(() -> new AssayException(Problem.of("run.not_found", "no run " + runId + " is stored")
                            .withDetail("run_id", runId)));
        }
        if (!stored.kind().equals(dev.assay.result.RunKind.DIALOG)) {
            throw new AssayException(Problem.of(
                            "run.not_resumable",
                            "run " + runId + " cannot be resumed: it is a " + stored.kind() + " run, not a dialog run")
                    .withDetail("run_id", runId));
        }
        return execute(EvalSpec.toResume(stored), runId, true, models, database, env, commandLine);
    }

    /**
     * Runs a described dialog run through the engine, started afresh or resumed under {@code id}, prints its metrics
     * and {@return the exit code}
     */
    static int execute(
            EvalSpec request,
            String id,
            boolean resumed,
            Function<ModelOptions, ChatModel> models,
            DatabaseOption database,
            Map<String, String> env,
            CommandLine commandLine)
            throws InterruptedException {
        PrintWriter out = commandLine.getOut();
        PrintWriter err = commandLine.getErr();
        Consumer<String> log = line -> err.println("  " + TerminalText.line(line));
        try (DialogPreparation.Prepared prepared = DialogPreparation.prepare(
                        request, id, models, env::get, log, JudgeOptionsMixin.cache(database.home()));
                Store store = database.open()) {
            prepared.data()
                    .skipCounts()
                    .forEach((reason, count) -> err.println("skipped " + count + " line(s): " + reason.wireName()));
            DialogWorkload workload = prepared.workload();
            var engine = new Engine(store);
            RunListener progress = DialogPrinter.progress(err);
            RunHandle handle = resumed ? engine.resume(workload, false, progress) : engine.start(workload, progress);
            CancelOnSignal cancelOnSignal = CancelOnSignal.install(handle, err);
            try {
                dev.assay.result.Run record = handle.await();
                DialogWorkload.Computed computed = workload.computed()
                        .orElseThrow(() -> new AssayException(
                                record.error() != null
                                        ? record.error()
                                        : Problem.of("dialog.not_scored", "the dialog run ended without its metrics")));
                DialogPrinter.printSummary(out, computed.scores());
                out.println("run directory: " + request.dataset().dialogs().runDirectory());
                out.println("stored as run " + record.runId() + " in " + Stores.redact(database.url()));
                if (record.status() != dev.assay.result.RunStatus.FINISHED) {
                    err.println("run " + record.runId() + " "
                            + record.status().wireName()
                            + (record.error() == null
                                    ? ""
                                    : ": " + record.error().message()));
                    return record.status() == dev.assay.result.RunStatus.CANCELLED
                            ? ExitCodes.CANCELLED
                            : ExitCodes.CANNOT_RUN;
                }
                return ExitCodes.OK;
            } finally {
                cancelOnSignal.close();
            }
        }
    }
}
