package dev.assay.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DeadlinesTest {
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    @AfterEach
    void close() {
        threads.shutdownNow();
    }

    @Test
    void work_that_ends_in_time_gives_its_result() throws Exception {
        assertThat(Deadlines.await(threads.submit(() -> "done"), Duration.ofSeconds(30)))
                .isEqualTo("done");
        assertThat(Deadlines.await(CompletableFuture.completedFuture(7), Duration.ZERO))
                .isEqualTo(7);
    }

    @Test
    void work_past_its_deadline_times_out_and_is_interrupted() throws Exception {
        var interrupted = new CountDownLatch(1);
        Future<String> work = threads.submit(() -> {
            try {
                Thread.sleep(Duration.ofMinutes(5));
                return "too late";
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
        });
        assertThatThrownBy(() -> Deadlines.await(work, Duration.ofMillis(50)))
                .isInstanceOf(TimeoutException.class)
                .hasMessageContaining("PT0.05S");
        assertThat(work.isCancelled()).isTrue();
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void work_that_fails_in_its_own_way_when_cancelled_at_its_deadline_times_out() {
        // As the JDK's HTTP client does: cancelling an exchange completes it with a wrapped CancellationException.
        var exchange = new CompletableFuture<String>() {
            @Override
            public boolean cancel(boolean mayInterruptIfRunning) {
                return completeExceptionally(new CompletionException(new CancellationException("Request cancelled")));
            }
        };
        assertThatThrownBy(() -> Deadlines.await(exchange, Duration.ofMillis(20)))
                .isInstanceOf(TimeoutException.class);
    }

    @Test
    void a_failure_or_a_cancellation_by_someone_else_is_not_a_timeout() {
        var failed = CompletableFuture.<String>failedFuture(new IllegalStateException("broken"));
        assertThatThrownBy(() -> Deadlines.await(failed, Duration.ofSeconds(30)))
                .isInstanceOf(ExecutionException.class)
                .hasRootCauseMessage("broken");
        var cancelled = new CompletableFuture<String>();
        cancelled.cancel(true);
        assertThatThrownBy(() -> Deadlines.await(cancelled, Duration.ofSeconds(30)))
                .isInstanceOf(CancellationException.class);
    }

    @Test
    void an_interrupted_waiter_stops_waiting_and_leaves_the_work_running() throws Exception {
        var work = new CompletableFuture<String>();
        var interrupted = new AtomicBoolean();
        Thread waiter = Thread.ofVirtual().start(() -> {
            try {
                Deadlines.await(work, Duration.ofMinutes(5));
            } catch (InterruptedException e) {
                interrupted.set(true);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException(e);
            }
        });
        waiter.interrupt();
        waiter.join(Duration.ofSeconds(10));
        assertThat(interrupted).isTrue();
        assertThat(work.isDone()).isFalse();
    }

    @Test
    void a_deadline_too_far_to_count_in_nanoseconds_waits_as_long_as_the_work_takes() throws Exception {
        Future<String> work = threads.submit(() -> {
            Thread.sleep(20);
            return "eventually";
        });
        assertThat(Deadlines.await(work, Duration.ofDays(365L * 1_000))).isEqualTo("eventually");
    }

    @Test
    void a_deadline_that_passes_interrupts_its_thread_and_closing_it_clears_the_interrupt() throws Exception {
        Future<String> blocked = threads.submit(() -> {
            Deadlines.Deadline deadline = Deadlines.interruptAfter(Duration.ofMillis(50));
            String outcome;
            try (deadline) {
                Thread.sleep(30_000);
                outcome = "slept";
            } catch (InterruptedException e) {
                outcome = "interrupted";
            }
            return outcome + ", expired " + deadline.expired() + ", interrupted after " + Thread.interrupted();
        });

        assertThat(blocked.get(10, TimeUnit.SECONDS)).isEqualTo("interrupted, expired true, interrupted after false");
    }

    @Test
    void a_deadline_that_passes_while_the_thread_is_busy_leaves_no_interrupt_once_closed() throws Exception {
        Future<String> busy = threads.submit(() -> {
            Deadlines.Deadline deadline = Deadlines.interruptAfter(Duration.ZERO);
            try (deadline) {
                spin(100);
            }
            return outcome(deadline);
        });

        assertThat(busy.get(10, TimeUnit.SECONDS)).isEqualTo("expired true, interrupted after false");
    }

    @Test
    void a_deadline_closed_in_time_never_interrupts() throws Exception {
        Future<String> quick = threads.submit(() -> {
            Deadlines.Deadline deadline = Deadlines.interruptAfter(Duration.ofMillis(50));
            try (deadline) {
                // ends at once
            }
            Thread.sleep(200);
            return "expired " + deadline.expired();
        });

        assertThat(quick.get(10, TimeUnit.SECONDS)).isEqualTo("expired false");
    }

    @Test
    void an_interrupt_from_elsewhere_is_left_to_the_thread_when_the_deadline_passes_after_it() throws Exception {
        Future<String> interrupted = threads.submit(() -> {
            Deadlines.Deadline deadline = Deadlines.interruptAfter(Duration.ofMillis(50));
            try (deadline) {
                Thread.currentThread().interrupt(); // a cancellation, before the deadline
                spin(150);
            }
            return outcome(deadline);
        });

        assertThat(interrupted.get(10, TimeUnit.SECONDS)).isEqualTo("expired false, interrupted after true");
    }

    /** Busy without waiting: nothing but the interrupt flag is at play, which a sleep would consume. */
    private static void spin(long millis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    private static String outcome(Deadlines.Deadline deadline) {
        return "expired " + deadline.expired() + ", interrupted after "
                + Thread.currentThread().isInterrupted();
    }
}
