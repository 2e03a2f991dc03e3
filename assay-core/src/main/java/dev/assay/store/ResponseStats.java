package dev.assay.store;

import java.time.Instant;

/**
 * What the response cache holds.
 *
 * @param responses the answers kept
 * @param runs the runs they came from
 * @param oldest when the oldest was kept; null when none is
 * @param newest when the newest was kept; null when none is
 */
public record ResponseStats(long responses, long runs, Instant oldest, Instant newest) {}
