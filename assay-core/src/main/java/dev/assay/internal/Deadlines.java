package dev.assay.internal;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Waits for work with a deadline, the deadlines kept by one timer thread of the process. A timed {@link Future#get} on
 * a virtual thread schedules its wake-up with the virtual threads' scheduler and cancels it when the work ends first,
 * and each of the two wakes that scheduler's timer thread: with two such waits per case (the case's deadline and its
 * model call's) that was 3 % of a short run's CPU (bench/README.md, "Harness cost"). Here a virtual thread waits
 * without a timeout while the timer holds the deadline; deadlines that all last the same queue up behind the first, so
 * adding and removing them does not wake the timer. Thread-safe.
 */
public final class Deadlines {
    private static final ScheduledThreadPoolExecutor TIMER = timer();

    private Deadlines() {}

    /**
     * {@return the work's result}, waited for at most the timeout; when the timeout passes first the work is cancelled
     * (its thread interrupted) before the {@link TimeoutException}, so the caller has nothing left to stop
     *
     * @throws TimeoutException when the timeout passed before the work ended
     * @throws ExecutionException when the work failed
     * @throws CancellationException when the work was cancelled otherwise
     * @throws InterruptedException when the waiting thread was interrupted; the work goes on
     */
    public static <T> T await(Future<T> work, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        var expired = new AtomicBoolean();
        ScheduledFuture<?> deadline = TIMER.schedule(
                () -> {
                    expired.set(true);
                    work.cancel(true);
                },
                nanos(timeout),
                TimeUnit.NANOSECONDS);
        try {
            return work.get();
        } catch (CancellationException | ExecutionException e) {
            // Some work fails in its own way when cancelled (a read that the interrupt ended throws; the JDK's HTTP
            // client completes its exchange with a wrapped CancellationException): past the deadline, a timeout.
            if (expired.get()) {
                throw new TimeoutException("no result within " + timeout);
            }
            throw e;
        } finally {
            deadline.cancel(false);
        }
    }

    /**
     * {@return a deadline that interrupts this thread when the timeout passes}, for blocking I/O on a virtual thread,
     * which an interrupt ends by closing its socket. Close it when the work is over: closing a deadline that passed
     * clears its interrupt, so that it ends nothing the thread does next.
     */
    public static Deadline interruptAfter(Duration timeout) {
        var deadline = new Deadline(Thread.currentThread());
        deadline.timer = TIMER.schedule(deadline::expire, nanos(timeout), TimeUnit.NANOSECONDS);
        return deadline;
    }

    /** A deadline set by {@link #interruptAfter}. Used by the thread that set it, and by the timer. */
    public static final class Deadline implements AutoCloseable {
        private static final int RUNNING = 0;
        private static final int EXPIRED = 1;
        private static final int CLOSED = 2;

        private final Thread owner;
        private final AtomicInteger state = new AtomicInteger(RUNNING);
        private volatile ScheduledFuture<?> timer;
        private boolean interruptCleared;

        private Deadline(Thread owner) {
            this.owner = owner;
        }

        private void expire() {
            // A thread interrupted by someone else is ending already, for their reason: the deadline leaves the
            // interrupt to them rather than take it for its own and clear it.
            if (!owner.isInterrupted() && state.compareAndSet(RUNNING, EXPIRED)) {
                owner.interrupt();
            }
        }

        /** {@return whether the timeout passed, and interrupted the thread, before the deadline was closed} */
        public boolean expired() {
            return state.get() == EXPIRED;
        }

        @Override
        public void close() {
            if (state.compareAndSet(RUNNING, CLOSED)) {
                timer.cancel(false);
                return;
            }
            if (state.get() == EXPIRED && !interruptCleared) {
                // The timer interrupted this thread or is about to: its task is two instructions long.
                while (!timer.isDone()) {
                    Thread.onSpinWait();
                }
                Thread.interrupted();
                interruptCleared = true;
            }
        }
    }

    /** The timeout in nanoseconds, at least 0, at most about 292 years (what a long holds). */
    private static long nanos(Duration timeout) {
        try {
            return Math.max(0, timeout.toNanos());
        } catch (ArithmeticException beyondLong) {
            return timeout.isNegative() ? 0 : Long.MAX_VALUE;
        }
    }

    private static ScheduledThreadPoolExecutor timer() {
        var timer = new ScheduledThreadPoolExecutor(
                1, Thread.ofPlatform().daemon().name("assay-deadlines").factory());
        // A deadline whose work ended leaves the queue at once rather than at its time.
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }
}
