package dev.assay.sandbox;

/**
 * Runs an untrusted command confined: no network, read-only system, only its work directory writable, with
 * memory, process, output and time limits, and the whole process group killed at the wall-clock limit.
 * Implementations are thread-safe.
 */
public interface Sandbox {
    /** {@return how commands are confined: {@code bubblewrap}, or {@code none} when the user allowed unsandboxed runs} */
    String kind();

    /** {@return whether this sandbox really confines commands} */
    default boolean isolating() {
        return !"none".equals(kind());
    }

    /**
     * Runs one command to completion (or until a limit ends it). Never throws for what the command does.
     *
     * @throws dev.assay.AssayException {@code sandbox.unavailable} when the sandbox cannot start at all
     */
    SandboxResult run(SandboxRequest request) throws InterruptedException;
}
