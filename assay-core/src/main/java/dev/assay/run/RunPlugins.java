package dev.assay.run;

import dev.assay.Plugins;
import dev.assay.check.CheckerFactory;
import dev.assay.check.CheckerRegistry;
import dev.assay.run.internal.BuiltinSubjects;
import dev.assay.run.internal.WeightedScore;
import dev.assay.tools.BuiltinTools;
import dev.assay.tools.ToolProvider;
import java.util.List;
import java.util.Objects;

/**
 * The plug-ins one run uses, each kind as {@link Plugins}. A run's set is made once, when it is prepared
 * ({@link EvalSpec#prepare}, {@link Prepared#plugins()}), from the plug-ins on the process's class path
 * ({@link #discovered()}) and its spec: the code checker its sandbox policy allows, the judges it names. The engine
 * reads only this set; nothing process-wide is changed, so one run's settings never reach another. Immutable.
 *
 * @param checkers the checkers by name
 * @param subjects the systems under test by name
 * @param toolProviders the tool providers, in the order their tools are offered
 * @param metrics the metrics by name
 */
public record RunPlugins(
        Plugins<CheckerFactory> checkers,
        Plugins<SubjectFactory> subjects,
        Plugins<ToolProvider> toolProviders,
        Plugins<Metric> metrics) {
    public RunPlugins {
        Objects.requireNonNull(checkers, "checkers");
        Objects.requireNonNull(subjects, "subjects");
        Objects.requireNonNull(toolProviders, "toolProviders");
        Objects.requireNonNull(metrics, "metrics");
    }

    /**
     * {@return Assay's own plug-ins and those on the class path ({@link Plugins#load})}, found again on each call: a
     * broken service file is then the problem of the command or request that asked, never a class that cannot load
     *
     * @throws dev.assay.AssayException {@code plugin.invalid} for a service file naming a class that cannot be used
     */
    public static RunPlugins discovered() {
        return new RunPlugins(
                CheckerRegistry.builtins().plugins(),
                Plugins.load(SubjectFactory.class, "system under test", SubjectFactory::name, BuiltinSubjects.all()),
                Plugins.load(ToolProvider.class, "tool provider", ToolProvider::name, List.of(BuiltinTools.PROVIDER)),
                Plugins.load(Metric.class, "metric", Metric::name, List.of(new WeightedScore())));
    }

    /** {@return these plug-ins with exactly {@code given} as their checkers} */
    public RunPlugins withCheckers(CheckerRegistry given) {
        return new RunPlugins(given.plugins(), subjects, toolProviders, metrics);
    }

    /** {@return the checkers as a registry, which makes and validates checks} */
    public CheckerRegistry checkerRegistry() {
        return CheckerRegistry.of(checkers);
    }
}
