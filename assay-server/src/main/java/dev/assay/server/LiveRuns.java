package dev.assay.server;

import dev.assay.run.RunHandle;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The runs this server started, with their event logs. A run stays here after it ends so that late and reconnecting
 * viewers still get its events from memory; the oldest ended runs are forgotten beyond {@link #KEEP_ENDED} (their
 * streams are then synthesised from the store). Thread-safe.
 */
final class LiveRuns {
    static final int KEEP_ENDED = 16;
    private static final int BUFFER = 20_000;
    private static final int QUEUE = 2_048;

    /** A run this server started. */
    record LiveRun(RunHandle handle, EventLog events) {}

    private final Map<String, LiveRun> runs = new ConcurrentHashMap<>();
    private final ArrayDeque<String> order = new ArrayDeque<>();

    static EventLog newLog() {
        return new EventLog(BUFFER, QUEUE);
    }

    void add(RunHandle handle, EventLog events) {
        synchronized (order) {
            runs.put(handle.runId(), new LiveRun(handle, events));
            // A resumed run is this server's again: once in the order, or its second entry would outlive its run.
            order.remove(handle.runId());
            order.addLast(handle.runId());
            long ended =
                    order.stream().filter(id -> runs.get(id).handle().isDone()).count();
            var iterator = order.iterator();
            while (ended > KEEP_ENDED && iterator.hasNext()) {
                String id = iterator.next();
                if (runs.get(id).handle().isDone()) {
                    runs.remove(id);
                    iterator.remove();
                    ended--;
                }
            }
        }
    }

    Optional<LiveRun> get(String runId) {
        return Optional.ofNullable(runs.get(runId));
    }

    /** {@return whether the run is known here and has not ended} */
    boolean isRunning(String runId) {
        LiveRun live = runs.get(runId);
        return live != null && !live.handle().isDone();
    }

    /** Forgets a run (it was deleted); its event log goes with it. */
    void remove(String runId) {
        synchronized (order) {
            runs.remove(runId);
            order.remove(runId);
        }
    }

    /** Cancels every run still going (server shutdown); finished items are kept by the engine. */
    void cancelAll() {
        runs.values().forEach(live -> live.handle().cancel());
    }
}
