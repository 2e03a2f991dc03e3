package dev.assay.tools.environment;

import dev.assay.sandbox.Sandbox;
import java.time.Duration;

/**
 * Starts environments of one kind, found by name through {@link dev.assay.Plugins}
 * ({@code META-INF/services/dev.assay.tools.environment.EnvironmentLauncher}): {@code mcp} (assay-mcp) is Assay's own.
 * Implementations are thread-safe.
 */
public interface EnvironmentLauncher {
    /** {@return the kind, as the case's {@code environment} field names it ({@code mcp})} */
    String name();

    /**
     * Starts a fresh server and waits until it is ready (initialised, its tools listed).
     *
     * @param sandbox where the server's process runs: an isolating sandbox when one is usable here
     * @param timeout the most the start and each later request may take
     * @throws dev.assay.AssayException {@code environment.start_failed} when the server does not start or answer its
     *     initialisation, {@code environment.timeout} when it does not within {@code timeout}
     */
    Environment start(EnvironmentSpec spec, Sandbox sandbox, Duration timeout) throws InterruptedException;
}
