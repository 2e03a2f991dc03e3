package dev.assay.cli;

import dev.assay.cases.Suite;
import dev.assay.check.CheckerRegistry;
import dev.assay.config.AssayConfig;
import dev.assay.cost.Budget;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.run.EvalSpec;
import dev.assay.run.RunPlan;
import dev.assay.run.SilentRuns;
import dev.assay.run.StoredCases;
import dev.assay.run.WorkspacePolicy;
import dev.assay.store.RunIds;
import dev.assay.store.Store;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * {@code assay run --resume} / {@code --retry-errors}: a stored run continued under its id from its own description, so
 * that its items stay comparable (the cases, the system under test, the limits); only where it is stored and where and
 * how it is reported may be given anew, new budgets, and which case workspaces it keeps.
 */
final class ContinuedRun {
    /** The options a continued run takes; it is otherwise run as its stored description says. */
    static final List<String> OPTIONS = List.of(
            "--resume",
            "--retry-errors",
            "--max-cost",
            "--run-max-tokens",
            "--case-max-tokens",
            "--stored-cases",
            "--db",
            "--db-retry",
            "--config",
            "--cache",
            "--workspace-dir",
            "--keep-workspaces",
            "--out",
            "--otel",
            "--format",
            "--threshold",
            "--quiet",
            "--verbose");

    private final CommandLine commandLine;
    private final String resume;
    private final String retryErrors;
    private final boolean storedCases;

    /**
     * @param resume {@code --resume}'s run id; null when not given
     * @param retryErrors {@code --retry-errors}' run id; null when not given
     * @param storedCases {@code --stored-cases}: run the cases the store kept, even when the suite files changed
     */
    ContinuedRun(CommandLine commandLine, String resume, String retryErrors, boolean storedCases) {
        this.commandLine = commandLine;
        this.resume = resume;
        this.retryErrors = retryErrors;
        this.storedCases = storedCases;
    }

    /**
     * Refuses a command line that says more than which run to continue and the {@link #OPTIONS}.
     *
     * @param describesRun whether it names suites or a system under test
     */
    void refuseOtherSettings(boolean describesRun) {
        if (resume != null && retryErrors != null) {
            throw new ParameterException(commandLine, "give --resume or --retry-errors, not both");
        }
        if (describesRun) {
            throw new ParameterException(
                    commandLine,
                    "a continued run takes its suites and target from its stored description; give only the run id");
        }
        List<String> ignored = commandLine.getParseResult().matchedOptions().stream()
                .map(CommandLine.Model.OptionSpec::longestName)
                .filter(name -> !OPTIONS.contains(name))
                .distinct()
                .toList();
        if (!ignored.isEmpty()) {
            throw new ParameterException(
                    commandLine,
                    String.join(", ", ignored) + ": a continued run keeps the settings it was started with; with "
                            + "--resume or --retry-errors give only where it is stored and where and how it is "
                            + "reported (" + String.join(", ", OPTIONS) + ")");
        }
    }

    /**
     * Continues the stored run; {@return the exit code}
     *
     * @param config assay.yaml, whose judges grade a run stored before its description named them; null for none
     * @param budget the limits of this continuation: a run stopped by one goes on under a higher one
     * @param keepWorkspaces {@code --keep-workspaces}: this continuation keeps every case workspace, whatever the run
     *     was started with
     */
    int run(
            DatabaseOption database,
            Map<String, String> env,
            AssayConfig config,
            CheckerRegistry checkers,
            Path workspaces,
            Budget budget,
            boolean keepWorkspaces,
            RunAndReport phase)
            throws Exception {
        String given = resume != null ? resume : retryErrors;
        Run stored;
        Suite storedSuite;
        try (Store store = database.open()) {
            stored = SilentRuns.ended(
                    store, store.findRun(RunIds.resolve(store, given)).orElseThrow(), database.silence());
            storedSuite =
                    storedCases && stored.kind().equals(RunKind.CAPABILITY) ? StoredCases.suite(store, stored) : null;
        }
        String runId = stored.runId();
        if (stored.kind().equals(RunKind.DIALOG)) {
            if (storedCases) {
                throw new ParameterException(
                        commandLine, "--stored-cases continues a capability run; a dialog run has no cases");
            }
            // A dialog's errors are always replayed on resume, so --retry-errors continues it as --resume does.
            return DialogCommand.resume(
                    runId, AssayCli.chatModels(env, commandLine.getErr()), database, env, commandLine);
        }
        // A run stored before its spec named its judges is graded by assay.yaml's.
        EvalSpec storedSpec = EvalSpec.namesJudges(stored) || config == null
                ? EvalSpec.toResume(stored)
                : EvalSpec.toResume(stored).withJudges(config.judges());
        boolean errorsToo = retryErrors != null;
        return phase.run(
                () -> phase.prepare(storedSpec, runId, workspaces, checkers),
                prepared -> {
                    RunPlan plan = (storedSuite == null
                                    ? prepared.planOf(stored)
                                    : prepared.planOf(stored).withSuite(storedSuite))
                            .withBudget(budget);
                    return keepWorkspaces ? plan.withWorkspacePolicy(WorkspacePolicy.KEEP_ALL) : plan;
                },
                (engine, store, resumed, listener) -> engine.resume(resumed, errorsToo, listener));
    }
}
