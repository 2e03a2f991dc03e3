package dev.assay.server;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One live run's SSE events with increasing ids (from 1), a bounded buffer of the latest ones for {@code Last-Event-ID}
 * replay, and the subscribers they fan out to. Publishing never blocks: each subscriber has a bounded queue, and one
 * whose queue is full is dropped (its stream closes; the browser reconnects with {@code Last-Event-ID} and catches up
 * from the buffer). Thread-safe.
 */
final class EventLog {
    /** One SSE event; {@code data} is JSON text. */
    record Event(long id, String name, String data) {}

    private final int bufferSize;
    private final int queueSize;
    private final ArrayDeque<Event> buffer = new ArrayDeque<>();
    private final Set<Subscriber> subscribers = ConcurrentHashMap.newKeySet();
    private long lastId;
    private boolean closed;

    /**
     * @param bufferSize events kept for replay
     * @param queueSize events a subscriber may fall behind before it is dropped
     */
    EventLog(int bufferSize, int queueSize) {
        this.bufferSize = bufferSize;
        this.queueSize = queueSize;
    }

    synchronized void publish(String name, String data) {
        if (closed) {
            return;
        }
        var event = new Event(++lastId, name, data);
        buffer.addLast(event);
        if (buffer.size() > bufferSize) {
            buffer.removeFirst();
        }
        // A full queue is a consumer too slow to keep: it is dropped (and told so) rather than holding the run up.
        subscribers.removeIf(subscriber -> {
            boolean full = !subscriber.queue.offer(event);
            if (full) {
                subscriber.dropped = true;
            }
            return full;
        });
    }

    /** Publishes the last event and ends every subscription once its queue is drained. */
    synchronized void close(String name, String data) {
        publish(name, data);
        closed = true;
        for (Subscriber subscriber : subscribers) {
            subscriber.ended = true;
        }
        subscribers.clear();
    }

    synchronized long lastId() {
        return lastId;
    }

    /**
     * Subscribes after event {@code afterId}. The result's {@code replay} holds the buffered events after it;
     * {@code complete} is false when some of them are no longer buffered (the caller then sends the current state).
     * Atomic with {@link #publish}: every later event reaches the queue, none twice.
     */
    synchronized Subscription subscribe(long afterId) {
        var replay = new ArrayList<Event>();
        for (Event event : buffer) {
            if (event.id() > afterId) {
                replay.add(event);
            }
        }
        long oldest = buffer.isEmpty() ? lastId + 1 : buffer.peekFirst().id();
        boolean complete = afterId >= oldest - 1;
        var subscriber = new Subscriber(queueSize);
        if (closed) {
            subscriber.ended = true;
        } else {
            subscribers.add(subscriber);
        }
        return new Subscription(
                List.copyOf(replay), complete, closed ? buffer.peekLast() : null, lastId, subscriber, this);
    }

    void unsubscribe(Subscriber subscriber) {
        subscribers.remove(subscriber);
    }

    /**
     * @param replay buffered events after the requested id
     * @param complete whether {@code replay} holds every event after the requested id
     * @param finalEvent the run's last event ({@code eval_finished}) when it had already ended; null while it runs
     * @param lastId the id of the latest event at subscription time
     */
    record Subscription(
            List<Event> replay, boolean complete, Event finalEvent, long lastId, Subscriber subscriber, EventLog log)
            implements AutoCloseable {
        @Override
        public void close() {
            log.unsubscribe(subscriber);
        }
    }

    /** A subscriber's queue; read by one stream thread. */
    static final class Subscriber {
        private final ArrayBlockingQueue<Event> queue;
        private volatile boolean dropped;
        private volatile boolean ended;

        Subscriber(int capacity) {
            this.queue = new ArrayBlockingQueue<>(capacity);
        }

        /** {@return the next event, or null when none came within {@code wait}} */
        Event poll(Duration wait) throws InterruptedException {
            return queue.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
        }

        /** {@return whether the subscriber fell too far behind and was removed} */
        boolean dropped() {
            return dropped;
        }

        /** {@return whether the run ended and every queued event has been taken} */
        boolean finished() {
            return ended && queue.isEmpty();
        }
    }
}
