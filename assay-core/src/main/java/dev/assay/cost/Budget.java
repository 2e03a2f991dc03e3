package dev.assay.cost;

import dev.assay.Problem;
import java.util.Optional;

/**
 * The limits on what a run may spend. A run that has reached one starts no further case; the cases already running
 * finish (they are paid for up to their end), and the run ends {@code interrupted} with {@code run.budget_exhausted}
 * naming the limit; resuming it with a higher limit continues it, its stored items kept. docs/cost.md.
 *
 * @param maxCostUsd the most the run's model calls may cost, every role together, in US dollars; null for no limit
 * @param maxTokens the most tokens (input and output, every role) the run may use; null for no limit
 * @param caseMaxTokens the most tokens the system under test may use on one case; a case that goes over is stopped and
 *     stored as an error item ({@code case.token_limit_exceeded}); null for no limit
 */
public record Budget(Double maxCostUsd, Long maxTokens, Long caseMaxTokens) {
    /** No limit. */
    public static final Budget NONE = new Budget(null, null, null);

    /** The problem type of a run stopped by a limit. */
    public static final String EXHAUSTED = "run.budget_exhausted";

    public Budget {
        if (maxCostUsd != null && !(maxCostUsd >= 0)) {
            throw new IllegalArgumentException("max_cost_usd must be >= 0, got " + maxCostUsd);
        }
        if (maxTokens != null && maxTokens < 0) {
            throw new IllegalArgumentException("run_max_tokens must be >= 0, got " + maxTokens);
        }
        if (caseMaxTokens != null && caseMaxTokens < 1) {
            throw new IllegalArgumentException("case_max_tokens must be >= 1, got " + caseMaxTokens);
        }
    }

    /** {@return this budget's limits, and {@code lower}'s where this one sets none} */
    public Budget over(Budget lower) {
        return new Budget(
                maxCostUsd != null ? maxCostUsd : lower.maxCostUsd,
                maxTokens != null ? maxTokens : lower.maxTokens,
                caseMaxTokens != null ? caseMaxTokens : lower.caseMaxTokens);
    }

    /**
     * {@return why no further case may start once {@code spent} is spent ({@code run.budget_exhausted}, its details the
     * {@code limit} reached, {@code max_cost_usd} or {@code run_max_tokens}, its value and what was spent), or empty}
     */
    public Optional<Problem> exhausted(ItemCost spent) {
        return exhausted(spent.totalUsd(), spent.totalUsage().totalTokens());
    }

    /**
     * {@return why no further case may start once {@code spentUsd} and {@code tokens} are spent, or empty}, as
     * {@link #exhausted(ItemCost)}: for a tally kept as two sums (a queued run's, across its workers)
     */
    public Optional<Problem> exhausted(double spentUsd, long tokens) {
        if (maxCostUsd != null && spentUsd >= maxCostUsd) {
            return Optional.of(Problem.of(
                            EXHAUSTED,
                            String.format(
                                    java.util.Locale.ROOT,
                                    "the run reached its cost limit: %.6f USD spent of --max-cost %s USD; resume it "
                                            + "with a higher --max-cost to finish it",
                                    spentUsd,
                                    maxCostUsd))
                    .withDetail("limit", "max_cost_usd")
                    .withDetail("max_cost_usd", maxCostUsd)
                    .withDetail("spent_usd", spentUsd));
        }
        if (maxTokens != null && tokens >= maxTokens) {
            return Optional.of(Problem.of(
                            EXHAUSTED,
                            "the run reached its token limit: " + tokens + " tokens used of --run-max-tokens "
                                    + maxTokens + "; resume it with a higher --run-max-tokens to finish it")
                    .withDetail("limit", "run_max_tokens")
                    .withDetail("run_max_tokens", maxTokens)
                    .withDetail("spent_tokens", tokens));
        }
        return Optional.empty();
    }
}
