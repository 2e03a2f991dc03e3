package dev.assay.queue;

import dev.assay.AssayException;
import dev.assay.Problem;
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

    /** Hands each awaited item over once it is stored, until every item has been or the run ends. */
    private void poll(String runId, List<Integer> pending) {
        var waiting = new HashSet<>(pending);
        try {
            while (!waiting.isEmpty()) {
                Thread.sleep(POLL.toMillis());
                List<Integer> seqs;
                try {
                    seqs = store.storedSeqs(runId);
                } catch (RuntimeException unavailable) {
                    // The database is away: the workers wait for it too; try again at the next poll.
                    continue;
                }
                for (Integer seq : seqs) {
                    if (waiting.contains(seq)) {
                        try {
                            store.findItem(runId, seq).ifPresent(item -> {
                                awaited.computeIfAbsent(seq, key -> new CompletableFuture<>())
                                        .complete(item);
                                waiting.remove(seq);
                            });
                        } catch (RuntimeException unavailable) {
                            break;
                        }
                    }
                }
            }
        } catch (InterruptedException e) {
            // The run ended (conclude) or was cancelled.
            Thread.currentThread().interrupt();
        }
    }
}
