package dev.assay.score.internal;

/**
 * An always-valid sequential test of two systems on paired cases (docs/statistics.md, "Sequential comparison"): after
 * each case it says whether the evidence already decides which is better, with a false-decision rate of at most
 * {@code alpha} however often it is looked at, so that a head-to-head run may stop as soon as it decides.
 *
 * <p>It is a test by betting (Waudby-Smith and Ramdas 2023) on the paired differences {@code d = score_b − score_a} in
 * [−1, 1]. Two wealth processes start at 1: {@code K⁺ ← K⁺ (1 + λ d)} bets that b is better, {@code K⁻ ← K⁻ (1 − λ d)}
 * that a is. With no difference in expectation each is a nonnegative martingale whatever the scores' distribution, so
 * is their mean, and by Ville's inequality {@code (K⁺ + K⁻) / 2} ever reaching {@code 1/α} has probability at most α.
 * The bet {@code λ = min(1/2, δ / (σ̂² + δ²))} is sized for the smallest difference worth detecting δ (the Kelly bet
 * for a mean δ and variance σ̂²), with σ̂² the variance of the differences seen BEFORE the case (starting from 1/4 as
 * one pseudo-observation), so it is predictable, as validity needs. Not thread-safe.
 */
public final class SequentialTest {
    /** Where a comparison stands. */
    public enum Decision {
        /** Not decided yet: run another case. */
        CONTINUE,
        /** A is better. */
        A_BETTER,
        /** B is better. */
        B_BETTER,
        /** The cases ran out before a decision. */
        UNDECIDED
    }

    private static final double PRIOR_VARIANCE = 0.25;

    private final double alpha;
    private final double delta;
    private double wealthB = 1;
    private double wealthA = 1;
    private int n;
    private double mean;
    private double squares;
    private Decision decision = Decision.CONTINUE;

    /**
     * @param alpha the largest false-decision rate, in (0, 1)
     * @param mde the smallest difference worth detecting, in points (0 &lt; mde ≤ 100): it sizes the bets
     */
    public SequentialTest(double alpha, double mde) {
        if (!(alpha > 0 && alpha < 1) || !(mde > 0 && mde <= 100)) {
            throw new IllegalArgumentException("need 0 < alpha < 1 and 0 < mde <= 100, got " + alpha + ", " + mde);
        }
        this.alpha = alpha;
        this.delta = mde / 100;
    }

    /**
     * Adds one case's pair of scores. {@return the decision after it}; once decided, later cases change nothing
     *
     * @param scoreA a's score in [0, 1]
     * @param scoreB b's score in [0, 1]
     */
    public Decision add(double scoreA, double scoreB) {
        if (!(scoreA >= 0 && scoreA <= 1 && scoreB >= 0 && scoreB <= 1)) {
            throw new IllegalArgumentException("scores must lie in [0, 1], got " + scoreA + ", " + scoreB);
        }
        if (decision != Decision.CONTINUE) {
            return decision;
        }
        double d = scoreB - scoreA;
        double variance = (PRIOR_VARIANCE + squares) / (n + 1);
        double bet = Math.min(0.5, delta / (variance + delta * delta));
        wealthB *= 1 + bet * d;
        wealthA *= 1 - bet * d;
        n++;
        double before = mean;
        mean += (d - before) / n;
        squares += (d - before) * (d - mean);
        if ((wealthA + wealthB) / 2 >= 1 / alpha) {
            decision = wealthB > wealthA ? Decision.B_BETTER : Decision.A_BETTER;
        }
        return decision;
    }

    /** {@return the final decision once the cases ran out}: {@link Decision#UNDECIDED} if none was reached */
    public Decision end() {
        if (decision == Decision.CONTINUE) {
            decision = Decision.UNDECIDED;
        }
        return decision;
    }

    /** {@return the decision so far} */
    public Decision decision() {
        return decision;
    }

    /** {@return the cases added} (those after a decision are not counted) */
    public int cases() {
        return n;
    }

    /** {@return the mean difference b − a over the cases added} */
    public double meanDelta() {
        return mean;
    }

    /** {@return the evidence against "no difference": {@code (K⁺ + K⁻) / 2}, an e-value; decides at 1/α} */
    public double evidence() {
        return (wealthA + wealthB) / 2;
    }
}
