package dev.assay.run;

import dev.assay.result.Item;
import dev.assay.result.Run;

/**
 * Follows a run as it happens (the CLI's progress line, the server's SSE hub). Called from the engine's worker threads,
 * possibly at once: implementations must be thread-safe and must not block (a slow consumer queues or drops, it never
 * holds the run up). Exceptions thrown here are ignored by the engine.
 */
public interface RunListener {
    RunListener NONE = new RunListener() {};

    /** The run record was created. */
    default void runStarted(Run run) {}

    /**
     * An item (a case, a sample of one, a dialog) started.
     *
     * @param itemId its id
     * @param prompt its prompt, or a dialog's first user turn
     */
    default void itemStarted(Run run, String itemId, String prompt) {}

    /**
     * A step of a multi-step item ended: a dialog's turn.
     *
     * @param itemId the item's id
     * @param done the steps done so far, >= 1
     * @param total how many steps the item has
     */
    default void stepDone(Run run, String itemId, int done, int total) {}

    /** A case ended; {@code run} carries the updated counts and scores. */
    default void itemFinished(Run run, Item item) {}

    /** A line worth showing (retries, cancellation, tool errors). */
    default void log(Run run, String message) {}

    /** The run ended (finished, failed, cancelled or interrupted); this is the final record. */
    default void runFinished(Run run) {}
}
