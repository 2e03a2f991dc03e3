package dev.assay.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import java.time.Duration;

/**
 * Bounded exponential backoff for transient model-API failures (429 honouring {@code Retry-After}, 5xx, connection
 * errors, timeouts, malformed responses). After the attempts or the total wait run out, the failure becomes the item's
 * error and the run goes on.
 *
 * @param maxAttempts calls in all, the first included; at least 1 (default 4)
 * @param initialDelay the wait before the first retry, doubled for each further one (default 1 s)
 * @param maxDelay the cap on one wait, {@code Retry-After} included (default 30 s)
 * @param maxTotalWait the cap on all waits of one call together (default {@value #DEFAULT_MAX_TOTAL_WAIT_S} s)
 */
public record RetryPolicy(int maxAttempts, Duration initialDelay, Duration maxDelay, Duration maxTotalWait) {
    /** Calls in all unless a source says otherwise: the first and three retries. */
    public static final int DEFAULT_MAX_ATTEMPTS = 4;
    /** Seconds all waits of one call may take together unless a source says otherwise. */
    public static final int DEFAULT_MAX_TOTAL_WAIT_S = 120;

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be >= 1");
        }
    }

    public static RetryPolicy defaults() {
        return new RetryPolicy(
                DEFAULT_MAX_ATTEMPTS,
                Duration.ofSeconds(1),
                Duration.ofSeconds(30),
                Duration.ofSeconds(DEFAULT_MAX_TOTAL_WAIT_S));
    }

    /** {@return the same backoff with {@code given} calls in all} */
    public RetryPolicy withMaxAttempts(int given) {
        return new RetryPolicy(given, initialDelay, maxDelay, maxTotalWait);
    }

    /** {@return the same backoff with all waits of one call capped at {@code given} together} */
    public RetryPolicy withMaxTotalWait(Duration given) {
        return new RetryPolicy(maxAttempts, initialDelay, maxDelay, given);
    }

    public static RetryPolicy none() {
        return new RetryPolicy(1, Duration.ZERO, Duration.ZERO, Duration.ZERO);
    }

    /** {@return the policy as a run's configuration snapshot holds it, in seconds} */
    public ObjectNode describe() {
        return Json.object()
                .put("max_attempts", maxAttempts)
                .put("initial_delay_s", initialDelay.toMillis() / 1000.0)
                .put("max_delay_s", maxDelay.toMillis() / 1000.0)
                .put("max_total_wait_s", maxTotalWait.toMillis() / 1000.0);
    }

    /** {@return the policy {@link #describe()} wrote; a wait it does not hold is null} */
    public static RetryPolicy read(JsonNode node) {
        return new RetryPolicy(
                node.path("max_attempts").asInt(1),
                seconds(node.path("initial_delay_s")),
                seconds(node.path("max_delay_s")),
                seconds(node.path("max_total_wait_s")));
    }

    private static Duration seconds(JsonNode value) {
        return value.isNumber() ? Duration.ofMillis(Math.round(value.asDouble() * 1000)) : null;
    }

    /**
     * {@return the wait before retry number {@code retry} (1-based): the server's {@code Retry-After} when it gave one,
     * else exponential backoff; capped by {@link #maxDelay}}
     */
    public Duration delayBefore(int retry, Duration retryAfter) {
        Duration backoff = retryAfter != null ? retryAfter : initialDelay.multipliedBy(1L << Math.min(20, retry - 1));
        return backoff.compareTo(maxDelay) > 0 ? maxDelay : backoff;
    }
}
