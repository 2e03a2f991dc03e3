package dev.assay.run.internal;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.run.SilentRuns;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One run's writes to the store, retried while the database is unavailable ({@code store.unavailable}: a server
 * restarting, a dropped connection, a SQLite file locked by another process) so that no judged item is lost to a short
 * outage. The outage is shared by the run's writers: it starts with the first failed write, ends with the first
 * successful one, and once it has lasted longer than the limit every write gives up with {@code store.outage} and the
 * run ends {@code interrupted}. Other store failures are not retried. Thread-safe.
 */
public final class StoreWrites {
    public static final Duration DEFAULT_OUTAGE_LIMIT = Duration.ofMinutes(3);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);

    /**
     * How long the run's final record is retried once the writes gave up: long enough for a database that is coming
     * back, short enough that the process ends soon after the limit (a run left running by a process that has ended is
     * recognised by the next one on its host at once, {@link SilentRuns}).
     */
    static final Duration LAST_WRITE = Duration.ofSeconds(5);

    private final Duration outageLimit;
    private final Consumer<String> log;
    private Duration window;
    private Instant outageSince;
    private boolean gaveUp;

    public StoreWrites(Duration outageLimit, Consumer<String> log) {
        this.outageLimit = outageLimit;
        this.window = outageLimit;
        this.log = log;
    }

    /** Runs a write, retrying it through an outage; see {@link #call}. */
    void write(Runnable write) throws InterruptedException {
        call(() -> {
            write.run();
            return null;
        });
    }

    /**
     * Runs a store call, retrying {@code store.unavailable} with backoff until the outage has lasted longer than the
     * limit. The store's writes are idempotent (upserts, whole-record updates), so a write that did reach the database
     * before its connection broke is harmless to repeat.
     *
     * @throws AssayException {@code store.outage} when the database stayed unavailable for longer than the limit, now
     *     or in an earlier call; any other store problem as thrown
     */
    <T> T call(Supplier<T> call) throws InterruptedException {
        Duration backoff = FIRST_BACKOFF;
        while (true) {
            synchronized (this) {
                if (gaveUp) {
                    throw outage();
                }
            }
            // The outage is timed from the start of the first failed attempt: one attempt can itself wait for
            // seconds (the pool's connection timeout, SQLite's busy timeout).
            Instant attempt = Instant.now();
            try {
                T result = call.get();
                recovered();
                return result;
            } catch (AssayException e) {
                if (!e.problem().type().equals("store.unavailable")) {
                    throw e;
                }
                if (failed(e.problem(), attempt)) {
                    throw outage();
                }
            }
            Thread.sleep(backoff.toMillis());
            backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
        }
    }

    /**
     * Gives the run's final record a window of its own after the writes gave up: the record that says
     * {@code interrupted} is worth waiting for once more ({@link #LAST_WRITE}, at most the limit), and only one record
     * is held.
     */
    synchronized void allowLastWrite() {
        if (gaveUp) {
            window = LAST_WRITE.compareTo(outageLimit) < 0 ? LAST_WRITE : outageLimit;
            // The same outage, said once: its window starts again without a second line.
            outageSince = Instant.now();
        }
        gaveUp = false;
    }

    /**
     * Waits while an outage lasts, so that no new case is started whose result could not be stored; {@return false when
     * the writes gave up or {@code stop} became true}
     */
    public boolean awaitAvailable(BooleanSupplier stop) throws InterruptedException {
        while (!stop.getAsBoolean()) {
            synchronized (this) {
                if (gaveUp) {
                    return false;
                }
                if (outageSince == null) {
                    return true;
                }
            }
            Thread.sleep(50);
        }
        return false;
    }

    /** {@return whether the database stayed unavailable for longer than the limit} */
    public synchronized boolean gaveUp() {
        return gaveUp;
    }

    /** {@return the problem a run that gave up ends with} */
    public Problem outageProblem() {
        return Problem.of(
                        "store.outage",
                        "the database was unavailable for more than " + seconds(outageLimit)
                                + "; the items stored so far are kept and the run can be resumed")
                .withDetail("outage_limit_s", outageLimit.toMillis() / 1000.0);
    }

    private static String seconds(Duration duration) {
        return duration.toMillis() % 1000 == 0
                ? duration.toSeconds() + " s"
                : "%.1f s".formatted(duration.toMillis() / 1000.0);
    }

    private AssayException outage() {
        return new AssayException(outageProblem());
    }

    /** Records a failed attempt; {@return whether the outage has now lasted too long} */
    private synchronized boolean failed(Problem problem, Instant attempt) {
        if (outageSince == null) {
            outageSince = attempt;
            // One line per outage, not per attempt: concurrent cases would otherwise repeat it.
            log.accept(problem.message() + "; holding finished items and retrying for up to " + seconds(outageLimit));
        }
        // After the line: the time its listener took is part of the outage.
        Instant now = Instant.now();
        // Giving up is said once, by the run's end (store.outage), not here too.
        if (!gaveUp && Duration.between(outageSince, now).compareTo(window) > 0) {
            gaveUp = true;
        }
        return gaveUp;
    }

    private synchronized void recovered() {
        if (outageSince != null) {
            log.accept("the database is back after %.1f s; writes resumed"
                    .formatted(Duration.between(outageSince, Instant.now()).toMillis() / 1000.0));
            outageSince = null;
        }
    }
}
