package dev.assay.run;

import dev.assay.cases.Suite;
import dev.assay.subject.Subject;
import java.util.Objects;

/**
 * Everything one run needs: which cases, against what, how.
 *
 * @param suite the selected cases (selection already applied) with their fixtures
 * @param target the system under test
 * @param config the run settings
 */
public record RunPlan(Suite suite, Subject target, RunConfig config) {
    public RunPlan {
        Objects.requireNonNull(suite, "suite");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(config, "config");
    }

    /** {@return this plan running {@code other}'s cases instead} */
    public RunPlan withSuite(Suite other) {
        return new RunPlan(other, target, config);
    }
}
