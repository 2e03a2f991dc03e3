package dev.assay.sandbox;

import java.time.Duration;

/**
 * Resource limits of one sandboxed command.
 *
 * @param wallTime wall-clock limit; the whole process group is killed when it passes
 * @param memoryBytes address-space limit per process
 * @param maxProcesses process (and thread) limit
 * @param maxOutputBytes stdout and stderr are each cut at this many bytes
 */
public record SandboxLimits(Duration wallTime, long memoryBytes, int maxProcesses, long maxOutputBytes) {
    /** 10 s, 1 GiB, 64 processes, 1 MiB of output. */
    public static SandboxLimits defaults() {
        return new SandboxLimits(Duration.ofSeconds(10), 1L << 30, 64, 1L << 20);
    }

    public SandboxLimits withWallTime(Duration newWallTime) {
        return new SandboxLimits(newWallTime, memoryBytes, maxProcesses, maxOutputBytes);
    }
}
