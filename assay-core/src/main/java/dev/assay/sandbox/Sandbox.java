package dev.assay.sandbox;

import dev.assay.AssayException;
import dev.assay.Problem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs an untrusted command confined: no network, read-only system, only its work directory writable, with memory,
 * process, output and time limits, and the whole process group killed at the wall-clock limit. Implementations are
 * thread-safe.
 */
public interface Sandbox {
    /**
     * {@return how commands are confined: {@code bubblewrap}, or {@code none} when the user allowed unsandboxed runs}
     */
    String kind();

    /** {@return whether this sandbox really confines commands} */
    default boolean isolating() {
        return !"none".equals(kind());
    }

    /**
     * {@return whether commands see this machine's system directories and language runtimes (bubblewrap shows them,
     * {@code none} runs on them)}: false for a container, whose commands see its image's own, so that a program is
     * named as the image's {@code PATH} finds it ({@code python3}), never by a path of this machine
     */
    default boolean hostSystem() {
        return true;
    }

    /**
     * {@return a fresh empty directory of this machine, for one command's {@link SandboxRequest#workDir()}, where this
     * sandbox can show it}: the machine's temporary directory; a container's under the trial's workspace, the one
     * directory of this machine it shows. The caller deletes it.
     */
    default Path scratch(String prefix) throws IOException {
        return Files.createTempDirectory(prefix);
    }

    /**
     * Runs one command to completion (or until a limit ends it). Never throws for what the command does.
     *
     * @throws dev.assay.AssayException {@code sandbox.unavailable} when the sandbox cannot start at all
     */
    SandboxResult run(SandboxRequest request) throws InterruptedException;

    /**
     * Starts one command and returns at once, its streams open to the caller; the request's stdin is ignored and its
     * wall-clock limit still kills the command.
     *
     * @throws dev.assay.AssayException {@code sandbox.unavailable} when the sandbox cannot start at all, and
     *     {@code sandbox.unsupported} (the default) when it cannot keep a command's streams open
     */
    default SandboxProcess start(SandboxRequest request) {
        throw new AssayException(Problem.of(
                "sandbox.unsupported", "the " + kind() + " sandbox cannot run a command with its streams open"));
    }
}
