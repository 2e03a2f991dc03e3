package dev.assay.model;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Metrics;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How many calls one endpoint is sent at once, learnt from its answers (additive increase, multiplicative decrease, as
 * TCP does): unlimited until the endpoint first answers 429, then half of what was in flight; halved again on each
 * later 429 of a call sent since the last cut (the 429s of one burst count once), and raised by one for each limit's
 * worth of answered calls while the limit is what holds calls back. A {@code Retry-After} holds every new call to the
 * endpoint, not only the one refused, until it has passed. So {@code --concurrency 256} against an endpoint that takes
 * 20 at a time settles near 20 instead of storming it with retries. One per endpoint (host and port) in a process,
 * shared by all its runs: a server's runs against one API share what it takes. Thread-safe.
 */
public final class EndpointConcurrency {
    private static final Map<String, EndpointConcurrency> BY_ENDPOINT = new ConcurrentHashMap<>();

    private final String endpoint;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private double limit = Double.POSITIVE_INFINITY;
    private int inFlight;
    // System.nanoTime() of the last cut, compared by difference as nanoTime must be; long ago until the first.
    private long lastCut = System.nanoTime() - Duration.ofDays(365).toNanos();
    // System.nanoTime() of the end of a Retry-After; meaningful only while holding.
    private boolean holding;
    private long heldUntil;
    private long throttled;

    private static final EndpointConcurrency UNLEARNT = new EndpointConcurrency("", false);

    private final boolean learns;

    private EndpointConcurrency(String endpoint) {
        this(endpoint, true);
    }

    private EndpointConcurrency(String endpoint, boolean learns) {
        this.endpoint = endpoint;
        this.learns = learns;
    }

    /**
     * {@return a limit that never learns (never holds a call back)}: for calls whose try is not the whole call, such as
     * opening an agent service's event stream, which is then read for minutes outside the try
     */
    public static EndpointConcurrency unlearnt() {
        return UNLEARNT;
    }

    /** {@return the limit of the endpoint (a host and port), the same object for every caller in this process} */
    public static EndpointConcurrency of(String endpoint) {
        return BY_ENDPOINT.computeIfAbsent(endpoint, EndpointConcurrency::new);
    }

    /**
     * What an endpoint's limit settled on.
     *
     * @param limit the calls it is sent at once now
     * @param throttled how many calls it answered 429
     */
    public record Settled(int limit, long throttled) {}

    /** {@return the endpoints of this process that answered 429, by endpoint, with the limit each settled on} */
    public static Map<String, Settled> throttledEndpoints() {
        var settled = new TreeMap<String, Settled>();
        BY_ENDPOINT.forEach((endpoint, concurrency) -> {
            Settled now = concurrency.settled();
            if (now.throttled() > 0) {
                settled.put(endpoint, now);
            }
        });
        return settled;
    }

    /** {@return the limit now and the 429s so far} */
    public Settled settled() {
        lock.lock();
        try {
            return new Settled(Double.isInfinite(limit) ? Integer.MAX_VALUE : (int) limit, throttled);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until the endpoint may be sent one more call, and counts it as in flight; each call is then ended by one of
     * {@link #answered}, {@link #refused} or {@link #failed}.
     *
     * @return the call's ticket: when it was sent
     */
    public long acquire() throws InterruptedException {
        return acquire(null).orElseThrow();
    }

    /**
     * Waits until the endpoint may be sent one more call, at most {@code maxWait}, and counts it as in flight.
     *
     * @param maxWait how long to wait at most; null for as long as it takes
     * @return the call's ticket (when it was sent), or empty when the wait ran out first
     */
    public OptionalLong acquire(Duration maxWait) throws InterruptedException {
        long giveUp = maxWait == null ? 0 : System.nanoTime() + maxWait.toNanos();
        lock.lockInterruptibly();
        try {
            while (true) {
                long hold = holding ? heldUntil - System.nanoTime() : 0;
                boolean free = hold <= 0 && inFlight < limit;
                if (free) {
                    break;
                }
                long left = maxWait == null ? Long.MAX_VALUE : giveUp - System.nanoTime();
                if (left <= 0) {
                    return OptionalLong.empty();
                }
                if (hold > 0) {
                    changed.awaitNanos(Math.min(hold, left));
                } else if (maxWait == null) {
                    changed.await();
                } else {
                    changed.awaitNanos(left);
                }
            }
            inFlight++;
            return OptionalLong.of(System.nanoTime());
        } finally {
            lock.unlock();
        }
    }

    /**
     * The call was answered: while the limit is what holds calls back, it grows by one per limit's worth of answers.
     */
    public void answered(long ticket) {
        lock.lock();
        try {
            // Only calls sent since the last cut, at the limit, say the endpoint takes more.
            if (learns && ticket - lastCut > 0 && inFlight >= limit - 1) {
                limit += 1 / limit;
            }
            end();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The endpoint answered 429: the limit is cut unless it already was after this call was sent, and a
     * {@code Retry-After} holds every new call until it has passed.
     *
     * @param retryAfter the server's {@code Retry-After}; null when it gave none
     */
    public void refused(long ticket, Duration retryAfter) {
        lock.lock();
        try {
            throttled++;
            if (learns && ticket - lastCut > 0) {
                if (Double.isInfinite(limit)) {
                    registerGauge();
                }
                limit = Math.max(1, Math.min(limit, inFlight) / 2);
                lastCut = System.nanoTime();
            }
            if (learns && retryAfter != null) {
                long until = System.nanoTime() + retryAfter.toNanos();
                heldUntil = holding && heldUntil - until > 0 ? heldUntil : until;
                holding = true;
            }
            end();
        } finally {
            lock.unlock();
        }
    }

    /** The call failed otherwise (an error, a timeout, a cancel): it says nothing about the endpoint's capacity. */
    public void failed(long ticket) {
        lock.lock();
        try {
            end();
        } finally {
            lock.unlock();
        }
    }

    private void end() {
        inFlight--;
        changed.signalAll();
    }

    private void registerGauge() {
        Gauge.builder(
                        "assay.endpoint.concurrency",
                        this,
                        concurrency -> concurrency.settled().limit())
                .description("Calls an endpoint is sent at once, learnt from its 429s")
                .tag("endpoint", endpoint)
                .baseUnit("calls")
                .register(Metrics.globalRegistry);
    }

    /** For tests: how long a new call would wait for a {@code Retry-After} now. */
    Duration heldFor() {
        lock.lock();
        try {
            return Duration.ofNanos(holding ? Math.max(0, heldUntil - System.nanoTime()) : 0);
        } finally {
            lock.unlock();
        }
    }
}
