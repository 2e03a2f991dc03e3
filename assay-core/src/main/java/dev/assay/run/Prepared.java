package dev.assay.run;

import dev.assay.cases.CaseProblem;
import dev.assay.result.Run;
import dev.assay.sandbox.Sandbox;
import dev.assay.tools.Toolbox;
import java.util.List;

/**
 * A run prepared from its {@link EvalSpec} ({@link EvalSpec#prepare}): the plan ready for {@link Engine#start}, with
 * the problems of an invalid suite that {@code skip_invalid} let through (empty otherwise). Close it once the run has
 * ended: it holds the system under test's HTTP connections and the MCP connections.
 *
 * @param plan the plan, its spec filled in with what preparing found
 * @param skippedProblems the problems of the cases left out
 * @param sandbox where execute_command runs its commands; null when it is not offered (no sandbox, no opt-in)
 * @param toolboxes the opened tool providers' toolboxes (the MCP connections); empty when no tool was offered
 */
public record Prepared(RunPlan plan, List<CaseProblem> skippedProblems, Sandbox sandbox, List<Toolbox> toolboxes)
        implements AutoCloseable {
    public Prepared {
        skippedProblems = List.copyOf(skippedProblems);
        toolboxes = List.copyOf(toolboxes);
    }

    /**
     * {@return the plan for continuing {@code stored}}: its stored spec stays the run's description, since the run is
     * what it was started as.
     */
    public RunPlan planOf(Run stored) {
        RunConfig config = plan.config();
        return new RunPlan(
                plan.suite(),
                plan.subject(),
                new RunConfig(config.runId(), config.workspaceRoot(), EvalSpec.of(stored)),
                plan.plugins());
    }

    /** {@return the plug-ins this run uses, made for it from the process's and its spec} */
    public RunPlugins plugins() {
        return plan.plugins();
    }

    @Override
    public void close() {
        try {
            plan.subject().close();
        } finally {
            toolboxes.forEach(Toolbox::close);
        }
    }
}
