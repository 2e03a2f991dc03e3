package dev.assay.transcript;

import dev.assay.Problem;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Append-only recorder a target fills while it works on one case. Thread-safe, because a target may record from a
 * stream-reading thread while the engine reads a partial transcript on timeout or cancellation.
 */
public final class TranscriptBuilder {
    /** The problem type of a case whose model turns used more tokens than its limit. */
    public static final String TOKEN_LIMIT_EXCEEDED = "case.token_limit_exceeded";

    private final List<TranscriptEvent> events = new ArrayList<>();
    private final long tokenLimit;
    private long tokens;

    /** A recorder without a token limit. */
    public TranscriptBuilder() {
        this(0);
    }

    /**
     * @param tokenLimit the most tokens (input and output) the recorded model turns may use together; 0 for no limit.
     *     Going over it is reported by {@link #overTokenLimit}; the subject stops at its next turn, the case runner
     *     after it
     */
    public TranscriptBuilder(long tokenLimit) {
        this.tokenLimit = tokenLimit;
    }

    public synchronized TranscriptBuilder add(TranscriptEvent event) {
        events.add(event);
        if (event instanceof TranscriptEvent.ModelTurn turn) {
            tokens += turn.usage().totalTokens();
        }
        return this;
    }

    /**
     * {@return why the case must stop ({@code case.token_limit_exceeded}, with {@code case_max_tokens} and
     * {@code tokens}) once its model turns used more tokens than the limit, or empty}
     */
    public synchronized Optional<Problem> overTokenLimit() {
        if (tokenLimit <= 0 || tokens <= tokenLimit) {
            return Optional.empty();
        }
        return Optional.of(Problem.of(
                        TOKEN_LIMIT_EXCEEDED,
                        "the case used " + tokens + " tokens, more than its limit of " + tokenLimit
                                + " (--case-max-tokens); it was stopped")
                .withDetail("case_max_tokens", tokenLimit)
                .withDetail("tokens", tokens));
    }

    /** {@return an immutable snapshot of what was recorded so far} */
    public synchronized Transcript build() {
        return new Transcript(events);
    }
}
