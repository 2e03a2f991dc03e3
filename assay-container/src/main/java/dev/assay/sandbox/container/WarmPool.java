package dev.assay.sandbox.container;

import dev.assay.sandbox.ContainerSpec;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;

/**
 * Started containers waiting for trials, per container spec and workspace root, bounded by {@link PoolSize}: a trial
 * takes one instead of waiting for a create and a start, and a new one is made in the background to take its place.
 * Thread-safe.
 */
final class WarmPool {
    /** Which containers can serve a trial: same spec, and a directory on the same file system as its workspace. */
    record Key(ContainerSpec spec, Path workspaceRoot) {}

    /** A started container and the host directory mounted at its workdir. */
    record Warm(String id, Path directory) {}

    /** Makes one warm container. */
    @FunctionalInterface
    interface Maker {
        Warm make(Key key) throws Exception;
    }

    private final PoolSize size;
    private final Maker maker;
    private final Consumer<Warm> discard;
    private final Map<Key, Deque<Warm>> idle = new HashMap<>();
    /** Idle and being made, per key. */
    private final Map<Key, Integer> counts = new HashMap<>();
    /** Containers are made two at a time, so that warming does not crowd out the trials' own engine calls. */
    private final Semaphore makers = new Semaphore(2);

    private int total;
    private boolean closed;

    WarmPool(PoolSize size, Maker maker, Consumer<Warm> discard) {
        this.size = size;
        this.maker = maker;
        this.discard = discard;
    }

    /** {@return a warm container for {@code key}, or null when none waits} */
    synchronized Warm take(Key key) {
        Deque<Warm> waiting = idle.get(key);
        Warm warm = waiting == null ? null : waiting.pollFirst();
        if (warm != null) {
            counts.merge(key, -1, Integer::sum);
            total--;
        }
        return warm;
    }

    /** Starts making warm containers for {@code key} in the background, up to the bounds. */
    void refill(Key key) {
        while (reserve(key)) {
            Thread.ofVirtual().name("assay-container-warm").start(() -> make(key));
        }
    }

    private synchronized boolean reserve(Key key) {
        if (closed || counts.getOrDefault(key, 0) >= size.perImage() || total >= size.total()) {
            return false;
        }
        counts.merge(key, 1, Integer::sum);
        total++;
        return true;
    }

    private void make(Key key) {
        Warm warm = null;
        try {
            makers.acquire();
            try {
                warm = maker.make(key);
            } finally {
                makers.release();
            }
        } catch (Exception e) {
            // Not warmed: a trial makes its own container and meets the failure itself, as a clear error.
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
        }
        boolean kept = false;
        synchronized (this) {
            if (warm != null && !closed) {
                idle.computeIfAbsent(key, k -> new ArrayDeque<>()).addLast(warm);
                kept = true;
            } else {
                counts.merge(key, -1, Integer::sum);
                total--;
            }
        }
        if (warm != null && !kept) {
            discard.accept(warm);
        }
    }

    /** Stops warming and {@return the containers that were waiting}, for the caller to remove */
    synchronized List<Warm> close() {
        closed = true;
        var waiting = new ArrayList<Warm>();
        idle.values().forEach(waiting::addAll);
        idle.clear();
        return waiting;
    }
}
