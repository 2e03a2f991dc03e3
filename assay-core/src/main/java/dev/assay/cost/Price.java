package dev.assay.cost;

import dev.assay.transcript.Usage;

/**
 * What one model's tokens cost, in US dollars per million tokens.
 *
 * @param input an uncached prompt token
 * @param cachedInput a prompt token read from the provider's prompt cache; providers without a cache price it as input
 * @param output a completion token (reasoning tokens included, as the providers bill them)
 */
public record Price(double input, double cachedInput, double output) {
    /** A model that costs nothing (the offline {@code mock}). */
    public static final Price FREE = new Price(0, 0, 0);

    public Price {
        if (!(input >= 0) || !(cachedInput >= 0) || !(output >= 0)) {
            throw new IllegalArgumentException("prices are non-negative USD per million tokens, got " + input + ", "
                    + cachedInput + ", " + output);
        }
    }

    /**
     * {@return what {@code usage} costs, in USD}: cached prompt tokens at the cached price, the rest at the input price
     */
    public double cost(Usage usage) {
        long cached = Math.min(usage.cachedInputTokens(), usage.inputTokens());
        return ((usage.inputTokens() - cached) * input + cached * cachedInput + usage.outputTokens() * output)
                / 1_000_000.0;
    }
}
