package dev.assay.run;

import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.subject.TrialObserver;

/**
 * Follows runs for a system outside Assay, such as a tracing backend (assay-otel exports them to OpenTelemetry): the
 * engine tells it when a run starts and ends, when each of its trials (items) starts and ends, and, through the trial's
 * {@link TrialObserver}, of each model and tool call of Assay's agent loop. {@link #NONE}, which does nothing, is an
 * engine's observer unless it is given another ({@link Engine#observedBy}); an observer is made by a
 * {@link RunObserverFactory} found by name. Thread-safe: trials of a run are told from several threads at once. Its
 * methods must not block and must not throw: an observer follows a run, it never changes or fails it.
 */
public interface RunObserver extends AutoCloseable {
    /** Observes nothing. */
    RunObserver NONE = new RunObserver() {};

    /**
     * A run started, or a stopped one is continued.
     *
     * @param run the run record as the run starts
     * @return what follows this run until it ends
     */
    default Observation runStarted(Run run) {
        return Observation.NONE;
    }

    /** Sends what is still held (spans not yet exported), waiting a bounded time, and releases the observer. */
    @Override
    default void close() {}

    /** One run, observed. */
    interface Observation {
        /** Observes nothing. */
        Observation NONE = new Observation() {};

        /**
         * A trial started: an item of the run (a case, a sample of one, a dialog).
         *
         * @param itemId its id
         * @return what follows the trial until it ends
         */
        default Trial trialStarted(String itemId) {
            return Trial.NONE;
        }

        /** The run ended; {@code run} is its final record. */
        default void runEnded(Run run) {}
    }

    /** One trial, observed: its model and tool calls, then its end. */
    interface Trial extends TrialObserver {
        /** Observes nothing. */
        Trial NONE = new Trial() {};

        /**
         * The trial ended.
         *
         * @param item what it left; null when it left none (the run was cancelled under it, or the engine failed)
         */
        default void ended(Item item) {}
    }
}
