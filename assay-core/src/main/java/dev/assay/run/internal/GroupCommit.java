package dev.assay.run.internal;

import dev.assay.AssayException;
import dev.assay.result.Item;
import dev.assay.store.KeptResponse;
import dev.assay.store.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A run's item and answer writes, committed in groups: each writer queues its write and takes the commit lock; the one
 * holding it commits everything queued so far in one transaction ({@link Store#saveAll}) and tells the others, who find
 * their write done when their turn comes. Alone, a write commits at once; under load, the writes that arrive during one
 * commit share the next, so a run of many short cases makes one commit per group rather than per write (the commit, not
 * the statement, is the cost on SQLite and on PostgreSQL). An item's writer returns only once the item is stored, so
 * counts stay those of the stored items; a model answer may instead join a commit under way ({@link #response}). Writes
 * are retried through an outage by the run's {@link StoreWrites}; a group the database refuses for another reason is
 * written one by one, so that one refused item does not fail the others. Thread-safe.
 */
public final class GroupCommit {
    private final Store store;
    private final StoreWrites writes;
    private final Store.ItemGate gate;
    // Not interruptible: a writer that stopped waiting would leave its write queued, stored later but not counted.
    private final ReentrantLock committing = new ReentrantLock();
    private final ConcurrentLinkedQueue<Write> queued = new ConcurrentLinkedQueue<>();

    /** One queued write: an item or a kept answer; done with whether it was stored. */
    private record Write(Item item, KeptResponse response, CompletableFuture<Boolean> done) {
        Write(Item item, KeptResponse response) {
            this(item, response, new CompletableFuture<>());
        }
    }

    public GroupCommit(Store store, StoreWrites writes) {
        this(store, writes, (statements, items) -> true);
    }

    /** @param gate decides, in each commit's transaction, whether its items are stored ({@link Store.ItemGate}) */
    public GroupCommit(Store store, StoreWrites writes, Store.ItemGate gate) {
        this.store = store;
        this.writes = writes;
        this.gate = gate;
    }

    /**
     * {@return whether the item was stored: false when the gate refused it} Stores an item, with whatever else is
     * queued.
     *
     * @throws AssayException when it could not be stored ({@code store.outage}, or the database refused it)
     * @throws InterruptedException when the run was cancelled while the database was unavailable
     */
    public boolean item(Item item) throws InterruptedException {
        return commit(new Write(item, null), true);
    }

    /**
     * Keeps a model answer. Its case need not wait for it: while another writer commits, the answer joins the next
     * commit (at the latest its own case's item's); alone, it commits at once, as an item does. An answer lost with its
     * process before that commit is one of the calls in flight, which a resumed run makes again.
     *
     * @throws AssayException when it was committed at once and could not be stored
     * @throws InterruptedException when the run was cancelled while the database was unavailable
     */
    void response(KeptResponse response) throws InterruptedException {
        commit(new Write(null, response), false);
    }

    /**
     * Commits what is still queued: answers kept while another writer committed whose case then stored no item
     * (cancelled, or stopped by a halt) and so no commit took them along. Called once every item of a run has ended.
     *
     * @throws AssayException when they could not be stored
     * @throws InterruptedException when the run was cancelled while the database was unavailable
     */
    public void flush() throws InterruptedException {
        committing.lock();
        try {
            if (!queued.isEmpty()) {
                store(drain(), null);
            }
        } finally {
            committing.unlock();
        }
    }

    /** @param waitForTurn whether to wait for a commit under way, else leave the write queued for the next one */
    private boolean commit(Write mine, boolean waitForTurn) throws InterruptedException {
        queued.add(mine);
        if (waitForTurn) {
            committing.lock();
        } else if (!committing.tryLock()) {
            return false;
        }
        try {
            if (!mine.done().isDone()) {
                store(drain(), mine);
            }
            takeAlongQueued(mine);
        } finally {
            committing.unlock();
        }
        return await(mine);
    }

    /**
     * Commits what queued up during this writer's commit, at most two more rounds: answers do not wait for their turn,
     * and are taken along now rather than left to the next writer. This writer's own write is done by then, so a
     * failure of these rounds is not its own: each write of a failed group hears of it through its future, and a group
     * interrupted by a cancellation is queued again for the next writer.
     */
    private void takeAlongQueued(Write mine) {
        for (int round = 0; round < 2 && !queued.isEmpty(); round++) {
            try {
                store(drain(), mine);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException failedTheirWrites) {
                return;
            }
        }
    }

    private List<Write> drain() {
        List<Write> group = new ArrayList<>();
        for (Write write = queued.poll(); write != null; write = queued.poll()) {
            group.add(write);
        }
        return group;
    }

    private static boolean await(Write mine) throws InterruptedException {
        try {
            return mine.done().get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AssayException refused) {
                throw refused;
            }
            throw new IllegalStateException("a group commit failed", e.getCause());
        }
    }

    /**
     * Commits a group and completes each of its writes, whatever happens: a write left neither done nor queued would
     * keep its writer waiting for ever.
     */
    private void store(List<Write> group, Write mine) throws InterruptedException {
        try {
            boolean stored = writes.call(() -> store.saveAll(responses(group), items(group), gate));
            group.forEach(write -> write.done().complete(write.item() == null || stored));
        } catch (AssayException e) {
            if (group.size() == 1 || e.problem().type().equals("store.outage")) {
                group.forEach(write -> write.done().completeExceptionally(e));
                return;
            }
            for (int i = 0; i < group.size(); i++) {
                Write write = group.get(i);
                try {
                    write.done()
                            .complete(writes.call(
                                    () -> store.saveAll(responses(List.of(write)), items(List.of(write)), gate)));
                } catch (AssayException refused) {
                    write.done().completeExceptionally(refused);
                } catch (InterruptedException interrupted) {
                    requeue(group.subList(i, group.size()), mine);
                    throw interrupted;
                }
            }
        } catch (InterruptedException e) {
            // This writer's run was cancelled while it waited for the database: the others' writes are queued again
            // for the next writer to take the lock.
            requeue(group, mine);
            throw e;
        } catch (RuntimeException | Error e) {
            // A bug or an exhausted heap: every writer of the group hears of it rather than waiting.
            group.forEach(write -> write.done().completeExceptionally(e));
            throw e;
        }
    }

    private void requeue(List<Write> group, Write mine) {
        group.stream().filter(write -> !write.equals(mine)).forEach(queued::add);
    }

    private static List<Item> items(List<Write> group) {
        return group.stream()
                .filter(write -> write.item() != null)
                .map(Write::item)
                .toList();
    }

    private static List<KeptResponse> responses(List<Write> group) {
        return group.stream()
                .filter(write -> write.response() != null)
                .map(Write::response)
                .toList();
    }
}
