package dev.assay.sandbox;

import java.util.Optional;

/**
 * A kind of sandbox, found by name through {@link dev.assay.Plugins} ({@code META-INF/services/
 * dev.assay.sandbox.SandboxProvider}): {@code bubblewrap} and {@code none} are Assay's own. Assay runs commands and
 * code in the first isolating kind usable on the machine (bubblewrap first, then plug-ins), and in {@code none} only on
 * the user's explicit word ({@link Sandboxes#detect}). Implementations are thread-safe.
 */
public interface SandboxProvider {
    /** {@return the kind's name, as its sandboxes' {@link Sandbox#kind()} and the run's snapshot record it} */
    String name();

    /** {@return whether this kind confines commands; one that does not is used only when the user allowed it} */
    boolean isolating();

    /** {@return a sandbox of this kind if one is usable on this machine, else empty} */
    Optional<? extends Sandbox> find() throws InterruptedException;

    /**
     * {@return the container engine of this kind, when it is one ({@code docker}, {@code podman}): it runs the trials
     * of cases that name an image}
     */
    default Optional<ContainerEngine> containers() {
        return Optional.empty();
    }
}
