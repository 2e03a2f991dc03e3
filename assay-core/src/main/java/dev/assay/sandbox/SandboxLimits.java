package dev.assay.sandbox;

import dev.assay.AssayException;
import dev.assay.Problem;
import java.time.Duration;
import java.util.Map;

/**
 * Resource limits of one sandboxed command.
 *
 * @param wallTime wall-clock limit; the whole process group is killed when it passes
 * @param memoryBytes address-space limit per process
 * @param maxProcesses process (and thread) limit
 * @param maxOutputBytes stdout and stderr are each cut at this many bytes
 * @param tmpBytes size of the private {@code /tmp} (a tmpfs, so memory): a write past it fails with "no space left"
 * @param workspaceBytes what the work directory may hold; a command that makes it hold more is stopped and its result
 *     says so ({@link SandboxResult#workspaceOverLimit()})
 */
public record SandboxLimits(
        Duration wallTime,
        long memoryBytes,
        int maxProcesses,
        long maxOutputBytes,
        long tmpBytes,
        long workspaceBytes) {
    /** Default size of {@code /tmp}: eight sandboxes at once (a run with {@code -c 8}) pin at most 2 GiB of memory. */
    static final long DEFAULT_TMP_BYTES = 256L << 20;
    /** Default size of a workspace: eight at once hold at most 4 GiB of disk. */
    static final long DEFAULT_WORKSPACE_BYTES = 512L << 20;

    /** The environment variable that sets the size of {@code /tmp}, in MiB. */
    public static final String TMP_ENV = "ASSAY_SANDBOX_TMP_MIB";
    /** The environment variable that sets what a workspace may hold, in MiB. */
    public static final String WORKSPACE_ENV = "ASSAY_SANDBOX_WORKSPACE_MIB";

    public SandboxLimits {
        if (tmpBytes <= 0 || workspaceBytes <= 0) {
            throw new IllegalArgumentException("the sandbox's /tmp and workspace limits must be positive");
        }
    }

    /** Limits with the host's disk limits ({@link #TMP_ENV}, {@link #WORKSPACE_ENV}, else their defaults). */
    public SandboxLimits(Duration wallTime, long memoryBytes, int maxProcesses, long maxOutputBytes) {
        this(wallTime, memoryBytes, maxProcesses, maxOutputBytes, hostTmpBytes(), hostWorkspaceBytes());
    }

    /**
     * 10 s, 1 GiB, 64 processes, 1 MiB of output, and the host's disk limits: 256 MiB of {@code /tmp} and 512 MiB of
     * workspace unless {@link #TMP_ENV} or {@link #WORKSPACE_ENV} say otherwise.
     *
     * @throws AssayException {@code sandbox.bad_limit} when one of those variables is not a positive number of MiB
     */
    public static SandboxLimits defaults() {
        return new SandboxLimits(Duration.ofSeconds(10), 1L << 30, 64, 1L << 20);
    }

    public SandboxLimits withWallTime(Duration newWallTime) {
        return new SandboxLimits(newWallTime, memoryBytes, maxProcesses, maxOutputBytes, tmpBytes, workspaceBytes);
    }

    private static long hostTmpBytes() {
        return mebibytes(System.getenv(), TMP_ENV, DEFAULT_TMP_BYTES);
    }

    private static long hostWorkspaceBytes() {
        return mebibytes(System.getenv(), WORKSPACE_ENV, DEFAULT_WORKSPACE_BYTES);
    }

    /** {@return the size {@code env} gives {@code name}, in bytes, or {@code fallback} when it is unset or empty} */
    static long mebibytes(Map<String, String> env, String name, long fallback) {
        String value = env.getOrDefault(name, "").strip();
        if (value.isEmpty()) {
            return fallback;
        }
        try {
            long mib = Long.parseLong(value);
            if (mib > 0 && mib <= (Long.MAX_VALUE >> 20)) {
                return mib << 20;
            }
        } catch (NumberFormatException e) {
            // Reported below with the other values that are no size.
        }
        throw new AssayException(
                Problem.of("sandbox.bad_limit", name + " must be a positive whole number of MiB, got '" + value + "'")
                        .withDetail("variable", name));
    }
}
