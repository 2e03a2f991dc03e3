package dev.assay.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RetryLoopTest {
    private static final class Flaky extends RuntimeException {
        final int status;

        Flaky(int status) {
            this.status = status;
        }
    }

    private static RetryLoop.Failure classify(RuntimeException e) {
        return e instanceof Flaky flaky ? RetryLoop.httpFailure(flaky.status, "flaky", null) : null;
    }

    @Test
    void retry_after_reads_seconds_and_http_dates() {
        assertThat(RetryLoop.parseRetryAfter("1.5")).isEqualTo(Duration.ofMillis(1500));
        String inTenSeconds = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(10));
        assertThat(RetryLoop.parseRetryAfter(inTenSeconds)).isBetween(Duration.ofSeconds(8), Duration.ofSeconds(10));
        assertThat(RetryLoop.parseRetryAfter("soon")).isNull();
    }

    @Test
    void a_transient_failure_is_retried_and_logged_until_the_call_succeeds() throws Exception {
        var lines = new ArrayList<String>();
        var calls = new AtomicInteger();
        var loop = new RetryLoop(
                new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofSeconds(1)),
                lines::add,
                "test:0");

        String result = loop.call(
                null,
                remaining -> {
                    if (calls.incrementAndGet() < 3) {
                        throw new Flaky(503);
                    }
                    return "ok";
                },
                RetryLoopTest::classify);

        assertThat(result).isEqualTo("ok");
        assertThat(lines).hasSize(2);
    }

    @Test
    void a_wait_beyond_the_total_budget_ends_the_retries() {
        var calls = new AtomicInteger();
        var loop = new RetryLoop(
                new RetryPolicy(5, Duration.ofMillis(200), Duration.ofSeconds(1), Duration.ofMillis(300)),
                line -> {},
                "test:0");

        assertThatThrownBy(() -> loop.call(
                        null,
                        remaining -> {
                            calls.incrementAndGet();
                            throw new Flaky(500);
                        },
                        RetryLoopTest::classify))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().details()).containsEntry("attempts", 2));
        assertThat(calls).hasValue(2);
    }

    @Test
    void an_exception_the_classifier_does_not_know_propagates_unchanged() {
        var loop = new RetryLoop(RetryPolicy.defaults(), line -> {}, "test:0");

        assertThatThrownBy(() -> loop.call(
                        null,
                        remaining -> {
                            throw new IllegalStateException("bug");
                        },
                        RetryLoopTest::classify))
                .isInstanceOf(IllegalStateException.class);
    }
}
