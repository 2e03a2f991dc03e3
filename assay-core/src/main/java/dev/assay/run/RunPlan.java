package dev.assay.run;

import dev.assay.cases.Suite;
import dev.assay.check.CheckerRegistry;
import dev.assay.cost.Budget;
import dev.assay.subject.Subject;
import java.util.Objects;

/**
 * Everything one run needs: which cases, against what, how, and judged by which plug-ins.
 *
 * @param suite the selected cases (selection already applied) with their fixtures
 * @param subject the system under test
 * @param config the run settings
 * @param plugins this run's plug-ins: the process's, with the code checker its sandbox policy allows and the judges its
 *     spec names ({@link EvalSpec#prepare}); never shared with another run's changes, since they are immutable
 */
public record RunPlan(Suite suite, Subject subject, RunConfig config, RunPlugins plugins) {
    public RunPlan {
        Objects.requireNonNull(suite, "suite");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(plugins, "plugins");
    }

    /** A plan judged by {@code checkers}, with the process's other plug-ins ({@link RunPlugins#discovered()}). */
    public RunPlan(Suite suite, Subject subject, RunConfig config, CheckerRegistry checkers) {
        this(suite, subject, config, RunPlugins.discovered().withCheckers(checkers));
    }

    /** {@return this run's checkers} */
    public CheckerRegistry checkers() {
        return plugins.checkerRegistry();
    }

    /**
     * {@return this plan under the limits {@code given} sets, over those of its spec} How a continued run goes on under
     * a higher limit than the one that stopped it.
     */
    public RunPlan withBudget(Budget given) {
        if (given.equals(Budget.NONE)) {
            return this;
        }
        return new RunPlan(
                suite,
                subject,
                new RunConfig(
                        config.runId(), config.workspaceRoot(), config.spec().withBudget(given)),
                plugins);
    }

    /**
     * {@return this plan keeping the case workspaces {@code given} says} How a continued run keeps more of them than it
     * was started to ({@code --keep-workspaces}): which are kept changes no item.
     */
    public RunPlan withWorkspacePolicy(WorkspacePolicy given) {
        EvalSpec spec = config.spec();
        return new RunPlan(
                suite,
                subject,
                new RunConfig(
                        config.runId(),
                        config.workspaceRoot(),
                        spec.withLimits(spec.limits().withWorkspacePolicy(given))),
                plugins);
    }

    /** {@return this plan running {@code other}'s cases instead} */
    public RunPlan withSuite(Suite other) {
        return new RunPlan(other, subject, config, plugins);
    }
}
