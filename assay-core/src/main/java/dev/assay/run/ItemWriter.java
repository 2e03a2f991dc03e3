package dev.assay.run;

import dev.assay.run.internal.GroupCommit;
import dev.assay.run.internal.StoreWrites;
import dev.assay.store.Store;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The item writes of one run in a process that follows it (a queued run's worker), grouped into commits
 * ({@link Engine#itemWriter}, used by {@link Engine#runItem}). Thread-safe.
 */
public final class ItemWriter {
    private final Store store;
    private final Duration storeOutageLimit;
    private final String runId;
    private final Store.ItemGate gate;
    private final Consumer<String> log;
    private Commits commits;

    /** One outage's span and the grouped writes it governs. */
    record Commits(StoreWrites writes, GroupCommit group) {}

    ItemWriter(Store store, Duration storeOutageLimit, String runId, Store.ItemGate gate, Consumer<String> log) {
        this.store = store;
        this.storeOutageLimit = storeOutageLimit;
        this.runId = runId;
        this.gate = gate;
        this.log = log;
    }

    /**
     * {@return the writes of the items about to run} An outage that outlasted its limit failed the items then in
     * flight; the next items start afresh, as a worker outlives an outage of its database.
     */
    synchronized Commits commits() {
        if (commits == null || commits.writes().gaveUp()) {
            var writes = new StoreWrites(storeOutageLimit, log);
            commits = new Commits(writes, new GroupCommit(store, writes, gate));
        }
        return commits;
    }

    /** {@return the id of the run whose items this writes} */
    String runId() {
        return runId;
    }
}
