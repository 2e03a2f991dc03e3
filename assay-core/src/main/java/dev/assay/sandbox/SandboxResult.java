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
 */
public record SandboxResult(
        int exitCode, String stdout, String stderr, boolean timedOut, boolean outputTruncated, Duration elapsed) {}
