package dev.assay.tools.environment;

import dev.assay.AssayException;
import dev.assay.Plugins;
import dev.assay.Problem;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.Sandboxes;
import dev.assay.tools.ToolResult;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Starts the environments of a run: each with the launcher its kind names, in the sandbox found here. Environments are
 * the suite's own programs, like MCP servers, so they run confined where bubblewrap is usable (the case file's
 * directory read-only, a fresh writable scratch directory, no network) and unconfined where it is not. Thread-safe.
 */
public final class Environments {
    /** The one kind there is: a stdio MCP server (assay-mcp). */
    public static final String MCP = "mcp";

    private static final Plugins<EnvironmentLauncher> LAUNCHERS =
            Plugins.load(EnvironmentLauncher.class, "environment launcher", EnvironmentLauncher::name, List.of());

    private static volatile Environments here;

    private final Plugins<EnvironmentLauncher> launchers;
    private final Sandbox sandbox;

    /**
     * @param launchers the launchers by kind
     * @param sandbox where every environment's process runs
     */
    public Environments(Plugins<EnvironmentLauncher> launchers, Sandbox sandbox) {
        this.launchers = Objects.requireNonNull(launchers, "launchers");
        this.sandbox = Objects.requireNonNull(sandbox, "sandbox");
    }

    /**
     * {@return the environments of this process: the launchers on the class path, in bubblewrap where it is usable and
     * unconfined where it is not}; the sandbox is looked for once
     */
    public static Environments here() throws InterruptedException {
        Environments found = here;
        if (found == null) {
            synchronized (Environments.class) {
                if (here == null) {
                    here = new Environments(LAUNCHERS, Sandboxes.detect(true, Sandboxes.ISOLATING));
                }
                found = here;
            }
        }
        return found;
    }

    /** {@return the same launchers, starting every environment in {@code other}} (a trial's container engine) */
    public Environments in(Sandbox other) {
        return new Environments(launchers, other);
    }

    /** {@return the sandbox environments run in: {@code bubblewrap}, or {@code none}} */
    public Sandbox sandbox() {
        return sandbox;
    }

    /**
     * {@return a fresh, ready environment of {@code spec}, its initial actions called}
     *
     * @param timeout the most its start and each later request may take
     * @throws AssayException {@code environment.unsupported} when no launcher of its kind is on the class path
     *     (assay-mcp is missing), {@code environment.initial_action_failed} when one of the spec's initial actions
     *     fails (the environment is stopped), or the launcher's {@code environment.*} problem
     */
    public Environment start(EnvironmentSpec spec, Duration timeout) throws InterruptedException {
        EnvironmentLauncher launcher = launchers
                .find(MCP)
                .orElseThrow(() -> new AssayException(Problem.of(
                        "environment.unsupported",
                        "the case names an MCP environment, and the mcp launcher (assay-mcp) is not on the class "
                                + "path")));
        Environment environment = launcher.start(spec, sandbox, timeout);
        // Set up as the case says before anything else acts on it, so that the agent's trial and a state comparison's
        // gold actions start from the same state.
        for (EnvironmentSpec.Action action : spec.initialActions()) {
            ToolResult result;
            try {
                result = environment.call(action.name(), action.arguments());
            } catch (InterruptedException | RuntimeException e) {
                environment.close();
                throw e;
            }
            if (!result.ok()) {
                environment.close();
                Problem failed = result.error();
                throw new AssayException(Problem.of(
                                "environment.initial_action_failed",
                                "the initial action " + action.name() + " failed: "
                                        + (failed == null ? result.output() : failed.message()))
                        .withDetail("action", action.name())
                        .withDetail("cause", failed == null ? "" : failed.type()));
            }
        }
        return environment;
    }
}
