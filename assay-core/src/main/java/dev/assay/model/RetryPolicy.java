package dev.assay.model;

import java.time.Duration;

/**
 * Bounded exponential backoff for transient model-API failures (429 honouring {@code Retry-After}, 5xx, connection
 * errors, timeouts, malformed responses). After the attempts or the total wait run out, the failure becomes the item's
 * error and the run goes on.
 *
 * @param maxAttempts calls in all, the first included; at least 1 (default 4)
 * @param initialDelay the wait before the first retry, doubled for each further one (default 1 s)
 * @param maxDelay the cap on one wait, {@code Retry-After} included (default 30 s)
 * @param maxTotalWait the cap on all waits of one call together (default 120 s)
 */
public record RetryPolicy(int maxAttempts, Duration initialDelay, Duration maxDelay, Duration maxTotalWait) {
    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be >= 1");
        }
    }

    public static RetryPolicy defaults() {
        return new RetryPolicy(4, Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofSeconds(120));
    }

    public static RetryPolicy none() {
        return new RetryPolicy(1, Duration.ZERO, Duration.ZERO, Duration.ZERO);
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
