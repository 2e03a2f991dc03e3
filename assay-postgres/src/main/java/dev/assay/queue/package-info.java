/**
 * Runs spread over workers on several machines: a run's cases put on a queue in PostgreSQL ({@link CaseQueue}, through
 * db-scheduler), workers that take them ({@link Worker}) under a per-endpoint limit shared through the database
 * ({@link EndpointSlots}), and the front end's side, which follows the run in the store ({@link QueuedWorkload}).
 */
package dev.assay.queue;
