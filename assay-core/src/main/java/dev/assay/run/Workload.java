package dev.assay.run;

import dev.assay.Problem;
import dev.assay.cost.Budget;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.score.Weights;
import dev.assay.store.Store;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What the engine runs: a run's items, in order, how each one is produced, and what the run computes once they have
 * ended. A capability suite ({@link CaseWorkload}: one item per case and sample) and a dialog dataset
 * ({@code dev.assay.dialog.DialogWorkload}: one item per dialog, its turns played in order) are the two kinds; the
 * engine gives both the same concurrency limit, cancel, retry of store writes, heartbeat, events and resume.
 * Implementations are thread-safe: items run on many threads at once.
 */
public interface Workload {
    /** {@return the run id asked for, or null to have one generated} */
    String requestedRunId();

    /**
     * {@return the run record to create: kind, user, system under test, suite, snapshot and tool names; the engine sets
     * its id, status, counts and start}
     *
     * @param runId the run's id
     * @param started when it starts
     */
    Run newRun(String runId, Instant started);

    /** Stores what the run record refers to (a suite's snapshot) before the record is created. */
    default void register(Store store, Instant started) {}

    /** {@return how many items the run has} */
    int itemCount();

    /** {@return how many items may run at once, >= 1} */
    int concurrency();

    /** {@return the weights of the dimension scores shown while the run goes on} */
    Weights weights();

    /**
     * {@return the extra metrics the run was asked for by name ({@link Metric}), computed over its stored items once it
     * has ended, into its record's {@code metrics}}; none by default
     */
    default List<String> metrics() {
        return List.of();
    }

    /**
     * {@return the plug-ins the run uses, its metrics among them}; by default those on the process's class path
     * ({@link RunPlugins#discovered()})
     */
    default RunPlugins plugins() {
        return RunPlugins.discovered();
    }

    /** {@return the limits on the run's cost and tokens ({@link Budget}); none by default} */
    default Budget budget() {
        return Budget.NONE;
    }

    /**
     * {@return a new tally of the rule that stops the run before its items run out (a head-to-head that stops when
     * decided), or empty to run them all}
     */
    default java.util.Optional<HeadToHead> headToHead() {
        return java.util.Optional.empty();
    }

    /**
     * {@return item {@code seq} as the engine takes it: its id and prompt, and how it runs} Asked once for each item
     * the engine runs or, resumed, skips; what an item is made from (a case read back from a large suite's scratch
     * file) is read here, once.
     */
    WorkItem item(int seq);

    /**
     * One item of a run, as the engine takes it.
     *
     * @param id the item's id, as it will be stored
     * @param prompt its prompt, as far as it is known before it runs (shown as it starts)
     * @param runner runs it, at most once, on a thread of its own
     */
    record WorkItem(String id, String prompt, ItemRunner runner) {}

    /** Runs one item. */
    @FunctionalInterface
    interface ItemRunner {
        /**
         * Runs the item and returns it, ready to store. Failures of the system under test are the item's error, not
         * exceptions; an exception is a bug, which the engine stores as the item's {@code run.internal_error}.
         *
         * @throws InterruptedException when the run was cancelled while the item could not be stored as cancelled
         */
        Item run(ItemContext context) throws InterruptedException;
    }

    /**
     * {@return whether an item stored by an earlier attempt stands when the run is resumed, so that it is not run
     * again}
     *
     * @param item the stored item
     * @param retryErrors whether items in {@code error} are to run again
     */
    default boolean keptOnResume(Item item, boolean retryErrors) {
        return item.status() != ItemStatus.CANCELLED && !(retryErrors && item.status() == ItemStatus.ERROR);
    }

    /**
     * {@return why the stored run cannot continue as this workload, or empty when it can} Asked before a resumed run
     * changes anything: a capability run whose suite changed since it started is refused ({@link StoredCases}).
     */
    default Optional<Problem> resumeRefusal(Store store, Run stored) {
        return Optional.empty();
    }

    /** Called once the item is stored: what it leaves behind (a workspace) can go. */
    default void stored(Item item) {}

    /**
     * {@return whether an item's runner stores the item itself (a queued run's, whose workers store it), so that the
     * engine counts it without writing it again}; false by default
     */
    default boolean itemsStoredByRunner() {
        return false;
    }

    /**
     * {@return the run's final record: the metrics computed over its stored items and what the run leaves besides its
     * items (files); by default the record as the engine tallied it}
     *
     * @param ended the record as the engine tallied it: status, counts and weighted dimension scores
     * @param store where the run's items are
     */
    default Run conclude(Run ended, Store store) {
        return ended;
    }
}
