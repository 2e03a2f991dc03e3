package dev.assay.model;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.model.internal.ModelMeters;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Calls something under a {@link RetryPolicy} and a deadline: transient failures are retried after the policy's backoff
 * (or the server's {@code Retry-After}), the rest and the last failure become an {@link AssayException} with the
 * attempts and the time waited in its details. Shared by every HTTP target (OpenAI, Anthropic, SSE agents) so they
 * retry alike; each try waits its turn under the endpoint's {@link EndpointConcurrency}, which the endpoint's 429s
 * lower. Thread-safe.
 */
public final class RetryLoop {
    private final RetryPolicy policy;
    private final Consumer<String> log;
    private final String endpoint;
    private final EndpointConcurrency concurrency;

    /**
     * @param policy attempts and waits
     * @param log receives one line per retry ("retrying after target.rate_limited (attempt 2/4), waiting 1.0 s")
     * @param endpoint the host and port called ({@link dev.assay.EndpointUrl#hostAndPort}), the label of the
     *     {@code assay.model.calls} and {@code assay.model.retries} meters
     */
    public RetryLoop(RetryPolicy policy, Consumer<String> log, String endpoint) {
        this(policy, log, endpoint, EndpointConcurrency.of(endpoint));
    }

    /**
     * A loop whose tries wait their turn under the given limit ({@link EndpointConcurrency#unlearnt()} for none).
     *
     * @param concurrency the limit each try waits for
     */
    public RetryLoop(RetryPolicy policy, Consumer<String> log, String endpoint, EndpointConcurrency concurrency) {
        this.policy = policy;
        this.log = log;
        this.endpoint = endpoint;
        this.concurrency = concurrency;
    }

    /** One try; {@code remaining} is the time left before the deadline, null without one. */
    @FunctionalInterface
    public interface Attempt<T> {
        T call(Duration remaining) throws InterruptedException;
    }

    /** Failures that a connection closed at the deadline looks like, whatever the client makes of it. */
    private static final Set<String> CUT_BY_DEADLINE =
            Set.of("target.malformed_response", "target.connection", "target.truncated");

    private static final Duration DEADLINE_SLACK = Duration.ofMillis(250);

    /**
     * What went wrong in one try.
     *
     * @param problem the problem reported if this is the last try ({@code target.*})
     * @param retryable whether trying again may help (429, 5xx, connection errors, timeouts)
     * @param retryAfter the server's {@code Retry-After}; null when it gave none
     */
    public record Failure(Problem problem, boolean retryable, Duration retryAfter) {}

    /**
     * @param timeout the limit for all tries and waits together; null for none
     * @param attempt the call
     * @param classify turns an exception of the call into a failure; returns null for exceptions that are not failures
     *     of the remote side (programming errors), which propagate unchanged
     * @throws AssayException the last failure's problem with the number of tries and {@code waited_s} in its details,
     *     or {@code target.timeout} when the deadline passes between tries
     */
    public <T> T call(Duration timeout, Attempt<T> attempt, Function<RuntimeException, Failure> classify)
            throws InterruptedException {
        Instant deadline = timeout == null ? null : Instant.now().plus(timeout);
        Duration waited = Duration.ZERO;
        for (int tries = 1; ; tries++) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            Duration remaining = deadline == null ? null : Duration.between(Instant.now(), deadline);
            if (remaining != null && remaining.isNegative()) {
                throw new AssayException(
                        Problem.of("target.timeout", "no answer in time").withDetail("attempts", tries - 1));
            }
            // The wait for the endpoint's turn is part of the call's time.
            OptionalLong turn = concurrency.acquire(remaining);
            if (turn.isEmpty()) {
                throw new AssayException(Problem.of(
                                "target.timeout",
                                "no answer in time: the endpoint's turn did not come (it answered 429 to other calls)")
                        .withDetail("attempts", tries - 1));
            }
            long ticket = turn.getAsLong();
            remaining = deadline == null ? null : Duration.between(Instant.now(), deadline);
            if (remaining != null && remaining.isNegative()) {
                concurrency.failed(ticket);
                throw new AssayException(
                        Problem.of("target.timeout", "no answer in time").withDetail("attempts", tries - 1));
            }
            long started = System.nanoTime();
            boolean ended = false;
            try {
                T result = attempt.call(remaining);
                concurrency.answered(ticket);
                ended = true;
                ModelMeters.call(endpoint, "ok", System.nanoTime() - started);
                return result;
            } catch (AssayException e) {
                ModelMeters.call(endpoint, e.problem().type(), System.nanoTime() - started);
                throw e;
            } catch (RuntimeException e) {
                Failure failure = classify.apply(e);
                if (failure == null) {
                    throw e;
                }
                if (failure.problem().type().equals("target.rate_limited")) {
                    // The endpoint's hold is the wait this loop would make for it, capped as that is.
                    concurrency.refused(
                            ticket,
                            failure.retryAfter() == null ? null : policy.delayBefore(tries, failure.retryAfter()));
                    ended = true;
                }
                ModelMeters.call(endpoint, failure.problem().type(), System.nanoTime() - started);
                if (deadline != null
                        && !Instant.now().plus(DEADLINE_SLACK).isBefore(deadline)
                        && CUT_BY_DEADLINE.contains(failure.problem().type())) {
                    // The deadline closed the connection: the client reports a broken read, but the case ran out
                    // of time. The client's timer and ours read different clocks, hence the slack.
                    throw new AssayException(
                            Problem.of("target.timeout", "no answer in time")
                                    .withDetail("attempts", tries)
                                    .withDetail("waited_s", waited.toMillis() / 1000.0),
                            e);
                }
                Duration delay = policy.delayBefore(tries, failure.retryAfter());
                boolean withinBudget = waited.plus(delay).compareTo(policy.maxTotalWait()) <= 0
                        && (deadline == null || Instant.now().plus(delay).isBefore(deadline));
                if (!failure.retryable() || tries >= policy.maxAttempts() || !withinBudget) {
                    throw new AssayException(
                            failure.problem()
                                    .withDetail("attempts", tries)
                                    .withDetail("waited_s", waited.toMillis() / 1000.0),
                            e);
                }
                ModelMeters.retry(endpoint, failure.problem().type());
                log.accept("retrying after %s (attempt %d/%d), waiting %.1f s"
                        .formatted(
                                failure.problem().type(), tries + 1, policy.maxAttempts(), delay.toMillis() / 1000.0));
                if (!ended) {
                    concurrency.failed(ticket);
                    ended = true;
                }
                Thread.sleep(delay.toMillis());
                waited = waited.plus(delay);
            } finally {
                if (!ended) {
                    concurrency.failed(ticket);
                }
            }
        }
    }

    /** {@return whether an HTTP status is worth retrying: 408, 409, 429 and 5xx} */
    public static boolean retryableStatus(int status) {
        return status == 408 || status == 409 || status == 429 || status >= 500;
    }

    /**
     * {@return the failure for an HTTP error status: {@code target.rate_limited} for 429, {@code target.auth_failed}
     * for 401 and 403 (the engine stops the run on it: every further call would be refused too), else
     * {@code target.http_error}, with the status in the details}
     */
    public static Failure httpFailure(int status, String message, Duration retryAfter) {
        String type = status == 429
                ? "target.rate_limited"
                : status == 401 || status == 403 ? "target.auth_failed" : "target.http_error";
        return new Failure(
                Problem.of(type, "the API answered HTTP " + status + ": " + brief(message))
                        .withDetail("status", status),
                retryableStatus(status),
                retryAfter);
    }

    /** {@return the retryable failure for a response body the SDK could not read} */
    public static Failure malformed(String message) {
        return new Failure(
                Problem.of("target.malformed_response", "the API's response could not be read: " + brief(message)),
                true,
                null);
    }

    /**
     * {@return the retryable failure for an answer that ended (the connection closed or broke) before its end: a stream
     * before its last event, a body before its length or its last chunk; what arrived is incomplete, so it is not used}
     */
    public static Failure truncated() {
        return new Failure(
                Problem.of(
                        "target.truncated",
                        "the answer ended before it was complete (the connection closed mid-answer)"),
                true,
                null);
    }

    /**
     * {@return the retryable failure for an I/O error of a call: {@code target.timeout} when it timed out, else
     * {@code target.connection}} An error without a message (the JDK's {@code ConnectException} often has none) is
     * named by its kind.
     */
    public static Failure unreachable(Throwable e) {
        String message = e.getMessage() == null || e.getMessage().isBlank()
                ? e.getClass().getSimpleName()
                : e.getMessage();
        return new Failure(
                Problem.of(
                        timedOut(e) ? "target.timeout" : "target.connection",
                        "the API could not be reached: " + brief(message)),
                true,
                null);
    }

    /** {@return whether an I/O error of a call is a timeout rather than a broken or refused connection} */
    public static boolean timedOut(Throwable e) {
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedIOException) {
                return true;
            }
        }
        return String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("timeout");
    }

    /**
     * {@return a {@code Retry-After} header value as a wait: seconds (fractions allowed) or an HTTP date; null when
     * absent or unreadable}
     */
    public static Duration parseRetryAfter(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String trimmed = value.strip();
        try {
            return Duration.ofMillis((long) (Double.parseDouble(trimmed) * 1000));
        } catch (NumberFormatException notSeconds) {
            try {
                var when = ZonedDateTime.parse(trimmed, DateTimeFormatter.RFC_1123_DATE_TIME)
                        .toInstant();
                Duration until = Duration.between(Instant.now(), when);
                return until.isNegative() ? Duration.ZERO : until;
            } catch (RuntimeException notADate) {
                return null;
            }
        }
    }

    /** {@return a message cut to 300 characters, for problems that quote a server's answer} */
    public static String brief(String message) {
        if (message == null) {
            return "";
        }
        return message.length() > 300 ? message.substring(0, 300) + "..." : message;
    }
}
