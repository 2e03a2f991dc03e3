package dev.assay.transcript;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Token counts of one model call or a whole transcript.
 *
 * @param inputTokens prompt tokens, those read from the provider's prompt cache included; 0 when unknown
 * @param outputTokens completion tokens; 0 when unknown
 * @param cachedInputTokens the part of {@code inputTokens} the provider read from its prompt cache (OpenAI's
 *     {@code prompt_tokens_details.cached_tokens}, Anthropic's {@code cache_read_input_tokens}), billed at the cached
 *     price; 0 when none or unknown (then every input token is priced as uncached)
 * @param fromResponseCache whether the answer was not asked for but found in the run's response cache (Assay's own,
 *     {@code assay run --cache} or a resumed run's replay): its tokens are those of the call that was paid for once,
 *     shown but neither priced nor budgeted again; written only when true
 */
public record Usage(
        long inputTokens,
        long outputTokens,
        long cachedInputTokens,
        @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean fromResponseCache) {
    public static final Usage NONE = new Usage(0, 0, 0);

    /** Counts of a call sent. */
    public Usage(long inputTokens, long outputTokens, long cachedInputTokens) {
        this(inputTokens, outputTokens, cachedInputTokens, false);
    }

    /** Counts of a call sent, without a cache read. */
    public Usage(long inputTokens, long outputTokens) {
        this(inputTokens, outputTokens, 0);
    }

    /** {@return these counts, of an answer found in the response cache} */
    public Usage servedFromCache() {
        return new Usage(inputTokens, outputTokens, cachedInputTokens, true);
    }

    /** {@return the counts added}, a tally of calls rather than one answer: not {@link #fromResponseCache} */
    public Usage plus(Usage other) {
        return new Usage(
                inputTokens + other.inputTokens,
                outputTokens + other.outputTokens,
                cachedInputTokens + other.cachedInputTokens);
    }

    /** {@return input and output tokens together} */
    public long totalTokens() {
        return inputTokens + outputTokens;
    }
}
