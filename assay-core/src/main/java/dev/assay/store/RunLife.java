package dev.assay.store;

import java.time.Instant;

/**
 * What the store knows of a running run's process: who runs it and when it last gave a sign of life.
 *
 * @param runId the run
 * @param owner the process that last wrote it; null for a run stored before owners were
 * @param lastSign its last heartbeat or write, else its start
 */
public record RunLife(String runId, RunOwner owner, Instant lastSign) {}
