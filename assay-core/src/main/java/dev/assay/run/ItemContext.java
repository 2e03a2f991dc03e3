package dev.assay.run;

import dev.assay.model.ResponseCache;
import dev.assay.subject.TrialObserver;
import java.util.concurrent.ExecutorService;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * What the engine lends a {@link Workload} for one item.
 *
 * @param runId the run's id
 * @param responses the run's stored answers: within a run and its resume every call is asked here first
 * @param subjectThreads where calls of the system under test run, so that a deadline can abandon one
 * @param log a line worth showing (retries, tool errors), prefixed with the item's id by the engine
 * @param cancelled whether the run was asked to stop; checked after an interruption to tell a cancel from a timeout
 * @param steps told of each finished step of a multi-step item (a dialog's turns): the step done and how many there are
 * @param observer told of the item's model and tool calls ({@link TrialObserver#NONE} when nothing observes the run)
 */
public record ItemContext(
        String runId,
        ResponseCache responses,
        ExecutorService subjectThreads,
        Consumer<String> log,
        BooleanSupplier cancelled,
        StepListener steps,
        TrialObserver observer) {

    /** A context whose item nothing observes. */
    public ItemContext(
            String runId,
            ResponseCache responses,
            ExecutorService subjectThreads,
            Consumer<String> log,
            BooleanSupplier cancelled,
            StepListener steps) {
        this(runId, responses, subjectThreads, log, cancelled, steps, TrialObserver.NONE);
    }

    /** Told of each finished step of an item. */
    @FunctionalInterface
    public interface StepListener {
        /**
         * @param done the steps done so far, >= 1
         * @param total how many steps the item has
         */
        void stepDone(int done, int total);
    }
}
