package dev.assay.sandbox;

import java.time.Duration;

/**
 * How a sandboxed command ended.
 *
 * @param exitCode the exit status; -1 when killed
 * @param stdout standard output, cut at the output limit
 * @param stderr standard error, cut at the output limit
 * @param timedOut whether the wall-clock limit killed it
 * @param outputTruncated whether either stream was cut
 * @param elapsed wall time spent
 * @param workspaceOverLimit whether the work directory came to hold more than {@link SandboxLimits#workspaceBytes()}
 *     (the command was stopped then, or had just ended)
 */
public record SandboxResult(
        int exitCode,
        String stdout,
        String stderr,
        boolean timedOut,
        boolean outputTruncated,
        Duration elapsed,
        boolean workspaceOverLimit) {}
