package dev.assay.queue;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.cost.Budget;
import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.run.CaseWorkload;
import dev.assay.run.EvalSpec;
import dev.assay.run.ItemContext;
import dev.assay.run.Workload;
import dev.assay.score.Weights;
import dev.assay.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

/**
 * A capability run whose cases workers run ({@link Worker}), as the process that started it sees it: the engine runs it
 * like any run (run record, heartbeat, progress, events, cancel, reports, exit code), but an item is not run here: the
 * first item asked for puts every case without a stored item on the {@link CaseQueue}, and each item is then awaited in
 * the store, where a worker puts it. One poller per run reads which items are stored, so following a run costs one
 * small query per {@link #POLL} whatever its size. Thread-safe.
 */
public final class QueuedWorkload implements Workload {
    /** How often the store is asked which items the workers have stored. */
    static final Duration POLL = Duration.ofMillis(500);

    private final CaseWorkload cases;
    private final CaseQueue queue;
    private final Store store;
    private final Map<Integer, CompletableFuture<Item>> awaited = new ConcurrentHashMap<>();
    private volatile Thread poller;

    /**
     * @param cases the run as it would run here; its description must be one a worker can rebuild from the stored
     *     snapshot (a model run)
     * @param queue where its cases go
     * @param store where the run is stored, the database of the queue
     * @throws AssayException {@code queue.unsupported_run} when workers could not rebuild the run from its snapshot
     */
    public QueuedWorkload(CaseWorkload cases, CaseQueue queue, Store store) {
        try {
            // The record's snapshot is the one the workers will read: what they cannot rebuild is refused now.
            EvalSpec.toResume(cases.newRun("queued", Instant.now()));
        } catch (AssayException e) {
            throw new AssayException(Problem.of(
                    "queue.unsupported_run",
                    "only a run of a model with Assay's agent loop can be queued (workers rebuild it from its stored "
                            + "description); run agent services and recordings without --queue"));
        }
        this.cases = cases;
        this.queue = queue;
        this.store = store;
    }

    @Override
    public String requestedRunId() {
        return cases.requestedRunId();
    }

    @Override
    public Run newRun(String runId, Instant started) {
        return cases.newRun(runId, started);
    }

    @Override
    public void register(Store target, Instant started) {
        cases.register(target, started);
    }

    @Override
    public int itemCount() {
        return cases.itemCount();
    }

    /** Every item may be awaited at once: the limit on the endpoint is kept by the workers ({@link EndpointSlots}). */
    @Override
    public int concurrency() {
        return Math.max(1, cases.itemCount());
    }

    @Override
    public Weights weights() {
        return cases.weights();
    }

    @Override
    public List<String> metrics() {
        return cases.metrics();
    }

    /** The run's limits, which the workers keep across them and the engine here holds the run's end to. */
    @Override
    public Budget budget() {
        return cases.budget();
    }

    /** The workers store each item, with their case's removal from the queue; the engine here only counts it. */
    @Override
    public boolean itemsStoredByRunner() {
        return true;
    }

    /** {@return the item as it would run here, run instead by awaiting what a worker stores} */
    @Override
    public WorkItem item(int seq) {
        WorkItem here = cases.item(seq);
        return new WorkItem(here.id(), here.prompt(), context -> awaitStored(seq, context));
    }

    /** {@return the item a worker stored at {@code seq}}, once stored; queues the run's cases on the first call */
    private Item awaitStored(int seq, ItemContext context) throws InterruptedException {
        CompletableFuture<Item> item = awaited.computeIfAbsent(seq, key -> new CompletableFuture<>());
        startPolling(context.runId());
        try {
            return item.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure : new IllegalStateException(e.getCause());
        }
    }

    @Override
    public Run conclude(Run ended, Store target) {
        Thread running = poller;
        if (running != null) {
            running.interrupt();
        }
        return cases.conclude(ended, target);
    }

    private synchronized void startPolling(String runId) {
        if (poller != null) {
            return;
        }
        Set<Integer> stored = new HashSet<>(store.storedSeqs(runId));
        var pending = new ArrayList<Integer>();
        for (int seq = 0; seq < cases.itemCount(); seq++) {
            if (!stored.contains(seq)) {
                pending.add(seq);
            }
        }
        queue.enqueue(runId, pending);
        poller = Thread.ofVirtual().name("assay-queue-" + runId).start(() -> poll(runId, pending));
    }

    /**
     * Hands each awaited item over once it is stored, until every item has been or the run ends: each poll reads which
     * items are stored, then those not yet handed over, in one query. Once the run's cases are all off the queue, an
     * item still not stored will not be: the workers took its case off because the run reached a limit (its item then
     * fails with {@code run.budget_exhausted}, and the engine ends the run as at its own limit) or for another reason
     * ({@code queue.case_dropped}: the run cannot end finished, and resuming it queues the case again).
     */
    private void poll(String runId, List<Integer> pending) {
        var waiting = new HashSet<>(pending);
        try {
            while (!waiting.isEmpty()) {
                Thread.sleep(POLL.toMillis());
                try {
                    // Read first: a case leaves the queue in the commit that stores its item, so an item whose case
                    // was gone then is among the items read next.
                    boolean drained = queue.casesOnQueue(runId) == 0;
                    List<Integer> arrived = store.storedSeqs(runId).stream()
                            .filter(waiting::contains)
                            .toList();
                    for (Item item : store.findItems(runId, arrived)) {
                        if (waiting.remove(item.seq())) {
                            awaited.computeIfAbsent(item.seq(), key -> new CompletableFuture<>())
                                    .complete(item);
                        }
                    }
                    if (drained && !waiting.isEmpty()) {
                        AssayException notRun = new AssayException(queue.exhausted(runId, cases.budget())
                                .orElseGet(() -> Problem.of(
                                        "queue.case_dropped",
                                        "the case was taken off the queue before it ran; resume the run to queue it "
                                                + "again")));
                        waiting.forEach(seq -> awaited.computeIfAbsent(seq, key -> new CompletableFuture<>())
                                .completeExceptionally(notRun));
                        waiting.clear();
                    }
                } catch (RuntimeException unavailable) {
                    // The database is away: the workers wait for it too; try again at the next poll.
                }
            }
        } catch (InterruptedException e) {
            // The run ended (conclude) or was cancelled.
            Thread.currentThread().interrupt();
        }
    }
}
