package dev.assay.transcript;

/**
 * Token counts of one model call or a whole transcript.
 *
 * @param inputTokens prompt tokens, those read from the provider's prompt cache included; 0 when unknown
 * @param outputTokens completion tokens; 0 when unknown
 * @param cachedInputTokens the part of {@code inputTokens} the provider read from its prompt cache (OpenAI's
 *     {@code prompt_tokens_details.cached_tokens}, Anthropic's {@code cache_read_input_tokens}), billed at the cached
 *     price; 0 when none or unknown (then every input token is priced as uncached)
 */
public record Usage(long inputTokens, long outputTokens, long cachedInputTokens) {
    public static final Usage NONE = new Usage(0, 0, 0);

    /** Counts without a cache read. */
    public Usage(long inputTokens, long outputTokens) {
        this(inputTokens, outputTokens, 0);
    }

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
