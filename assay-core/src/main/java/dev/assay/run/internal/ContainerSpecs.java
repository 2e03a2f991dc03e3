package dev.assay.run.internal;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.cases.Case;
import dev.assay.cases.Suite;
import dev.assay.run.RunConfig;
import dev.assay.sandbox.ContainerSpec;
import dev.assay.sandbox.ContainerTrial;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.Sandboxes;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The containers a run's cases ask for ({@code "sandbox": {"image": ...}} on a case, or on its suite file), and the
 * engine that runs them: {@code --sandbox docker|podman}, kept in the run's snapshot as {@code container_engine}
 * (empty: the first engine registered). Stateless.
 */
final class ContainerSpecs {

    private ContainerSpecs() {}

    /** {@return the container {@code evalCase} runs in, if it names an image} */
    static Optional<ContainerSpec> of(Case evalCase) {
        var node = evalCase.attributes().get(ContainerSpec.FIELD);
        return node == null || node.isNull() ? Optional.empty() : Optional.of(ContainerSpec.parse(node));
    }

    /** {@return the engine named in the run's spec; empty for the first one registered} */
    static String engine(RunConfig config) {
        return config.spec().subject().tools().containerEngine();
    }

    /** {@return why the trial's container stopped, when {@code sandbox} is one and it did} */
    static Optional<Problem> died(Sandbox sandbox) {
        return sandbox instanceof ContainerTrial trial ? trial.died() : Optional.empty();
    }

    /**
     * Checks before any case runs that the engine answers and has every image the suite's cases name, reaping what a
     * killed Assay left behind and warming the pools.
     *
     * @return whether any case names an image
     * @throws AssayException {@code sandbox.unavailable} in one line naming the socket or the image, or
     *     {@code sandbox.invalid_spec} naming the case
     */
    static boolean prepare(Suite suite, String engine, Path workspaceRoot) throws InterruptedException {
        Set<ContainerSpec> specs = new LinkedHashSet<>();
        for (Case evalCase : suite.cases()) {
            try {
                of(evalCase).ifPresent(specs::add);
            } catch (AssayException e) {
                throw new AssayException(e.problem().withDetail("case", evalCase.id()));
            }
        }
        if (!specs.isEmpty()) {
            Sandboxes.containers(engine).prepare(specs, workspaceRoot);
        }
        return !specs.isEmpty();
    }
}
