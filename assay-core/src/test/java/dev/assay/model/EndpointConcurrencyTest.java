package dev.assay.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class EndpointConcurrencyTest {
    /** Each test its own endpoint: the limits are shared by the whole process. */
    private final String endpoint = "test-" + UUID.randomUUID() + ":443";

    private final EndpointConcurrency concurrency = EndpointConcurrency.of(endpoint);

    @Test
    void an_endpoint_is_unlimited_until_it_first_answers_429_then_gets_half_of_what_was_in_flight() throws Exception {
        var tickets = new ArrayList<Long>();
        for (int i = 0; i < 40; i++) {
            tickets.add(concurrency.acquire());
        }
        assertThat(EndpointConcurrency.throttledEndpoints()).doesNotContainKey(endpoint);

        concurrency.refused(tickets.get(0), null);
        // The 429s of calls sent before the cut are the same burst: they do not cut again.
        concurrency.refused(tickets.get(1), null);
        concurrency.refused(tickets.get(2), null);

        assertThat(concurrency.settled()).isEqualTo(new EndpointConcurrency.Settled(20, 3));
        assertThat(EndpointConcurrency.throttledEndpoints()).containsEntry(endpoint, concurrency.settled());
        assertThat(EndpointConcurrency.of(endpoint)).isSameAs(concurrency);
    }

    @Test
    void a_429_of_a_call_sent_after_the_cut_cuts_again_and_answers_raise_the_limit_by_one_per_window()
            throws Exception {
        var first = new ArrayList<Long>();
        for (int i = 0; i < 8; i++) {
            first.add(concurrency.acquire());
        }
        concurrency.refused(first.getFirst(), null);
        assertThat(concurrency.settled().limit()).isEqualTo(4);
        first.subList(1, 8).forEach(concurrency::failed);

        long later = concurrency.acquire();
        concurrency.refused(later, null);
        assertThat(concurrency.settled().limit()).isEqualTo(1);

        // At the limit, each answer adds 1/limit: from 1, one answer makes 2; three more at the limit make 3.24.
        concurrency.answered(concurrency.acquire());
        assertThat(concurrency.settled().limit()).isEqualTo(2);
        for (int round = 0; round < 3; round++) {
            long a = concurrency.acquire();
            long b = concurrency.acquire();
            concurrency.answered(a);
            concurrency.failed(b);
        }
        assertThat(concurrency.settled().limit()).isEqualTo(3);

        // Below the limit the answers say nothing about it: it stays.
        for (int i = 0; i < 10; i++) {
            concurrency.answered(concurrency.acquire());
        }
        assertThat(concurrency.settled().limit()).isEqualTo(3);
    }

    @Test
    void a_call_that_cannot_wait_any_longer_for_its_turn_is_told_so() throws Exception {
        var sent = new ArrayList<Long>();
        for (int i = 0; i < 4; i++) {
            sent.add(concurrency.acquire());
        }
        concurrency.refused(sent.getFirst(), null);

        assertThat(concurrency.acquire(Duration.ofMillis(50))).isEmpty();
        sent.subList(1, 4).forEach(concurrency::failed);
        assertThat(concurrency.acquire(Duration.ofMillis(50))).isPresent();
    }

    @Test
    void a_retry_after_holds_every_new_call_to_the_endpoint_until_it_has_passed() throws Exception {
        long ticket = concurrency.acquire();
        concurrency.refused(ticket, Duration.ofMillis(400));
        assertThat(concurrency.heldFor()).isPositive();

        var acquired = new CountDownLatch(1);
        Thread caller = Thread.ofVirtual().start(() -> {
            try {
                concurrency.failed(concurrency.acquire());
                acquired.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });

        assertThat(acquired.await(100, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(acquired.await(10, TimeUnit.SECONDS)).isTrue();
        caller.join();
        assertThat(concurrency.heldFor()).isZero();
    }

    @Test
    void sixty_four_callers_against_an_endpoint_that_takes_eight_settle_near_eight_instead_of_storming_it()
            throws Exception {
        int capacity = 8;
        int callers = 64;
        int callsEach = 30;
        var inFlight = new AtomicInteger();
        var refusals = new AtomicLong();
        var answers = new AtomicLong();
        var loop = new RetryLoop(
                new RetryPolicy(50, Duration.ofMillis(1), Duration.ofMillis(4), Duration.ofMinutes(1)),
                line -> {},
                endpoint);
        RetryLoop.Attempt<String> call = remaining -> {
            try {
                if (inFlight.incrementAndGet() > capacity) {
                    refusals.incrementAndGet();
                    throw new IllegalStateException("429");
                }
                Thread.sleep(2);
                answers.incrementAndGet();
                return "ok";
            } finally {
                inFlight.decrementAndGet();
            }
        };

        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                done.add(threads.submit(() -> {
                    for (int k = 0; k < callsEach; k++) {
                        loop.call(null, call, e -> RetryLoop.httpFailure(429, "slow down", null));
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get(2, TimeUnit.MINUTES);
            }
        }

        assertThat(answers.get()).isEqualTo((long) callers * callsEach);
        // Sent 64 at once, seven of eight would be refused, each refused call retried until it is not: thousands of
        // 429s. Settled, only the probes past the capacity are refused.
        assertThat(refusals.get()).isLessThan(answers.get() / 5);
        assertThat(concurrency.settled().limit()).isBetween(1, 2 * capacity);
        assertThat(concurrency.settled().throttled()).isEqualTo(refusals.get());
    }
}
