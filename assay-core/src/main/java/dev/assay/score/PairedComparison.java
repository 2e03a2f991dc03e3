package dev.assay.score;

import java.util.List;

/**
 * Two runs compared case by case over the cases both judged: how the pass/fail verdicts moved (with McNemar's exact
 * test of whether they moved more one way than the other) and the mean score change with a 95 % paired t-interval. A
 * paired comparison is far more sensitive than comparing two totals, because each case is its own control.
 *
 * @param n cases both runs scored
 * @param bothPassed cases passed in both runs
 * @param onlyA cases passed in run a only (regressions when b is the newer run)
 * @param onlyB cases passed in run b only (improvements)
 * @param neither cases passed in neither
 * @param mcnemarP two-sided exact McNemar p-value (binomial test on the {@code onlyA + onlyB} discordant cases); 1 when
 *     there are none
 * @param meanDelta mean of (score b − score a)
 * @param deltaLow lower end of the 95 % paired t-interval of {@code meanDelta}, at least -1
 * @param deltaHigh upper end, at most 1
 * @param clusters the clusters of cases the interval is clustered by (CR1, as {@link Spread#clustered}); 0 when the
 *     cases are taken as independent
 */
public record PairedComparison(
        int n,
        int bothPassed,
        int onlyA,
        int onlyB,
        int neither,
        double mcnemarP,
        double meanDelta,
        double deltaLow,
        double deltaHigh,
        int clusters) {

    /**
     * One case in both runs.
     *
     * @param scoreA the score in run a
     * @param scoreB the score in run b
     * @param passedA whether it passed in run a
     * @param passedB whether it passed in run b
     */
    public record Pair(double scoreA, double scoreB, boolean passedA, boolean passedB) {}

    /** {@return the comparison of these pairs, the cases taken as independent} */
    public static PairedComparison of(List<Pair> pairs) {
        return of(pairs, null);
    }

    /**
     * {@return the comparison of these pairs, the interval of the mean change clustered} (CR1 on the paired
     * differences: cases that share a scenario move together, and their differences are not independent)
     *
     * @param pairs the cases both runs scored
     * @param clusters each pair's cluster, in the same order; null for none (Student's t over the pairs)
     */
    public static PairedComparison of(List<Pair> pairs, List<String> clusters) {
        int both = 0;
        int onlyA = 0;
        int onlyB = 0;
        int neither = 0;
        for (Pair pair : pairs) {
            if (pair.passedA() && pair.passedB()) {
                both++;
            } else if (pair.passedA()) {
                onlyA++;
            } else if (pair.passedB()) {
                onlyB++;
            } else {
                neither++;
            }
        }
        List<Double> differences =
                pairs.stream().map(pair -> pair.scoreB() - pair.scoreA()).toList();
        double[] delta =
                clusters == null ? Spread.tInterval(differences) : Spread.clusteredInterval(differences, clusters);
        // Scores lie in [0, 1], so no change can lie outside [-1, 1].
        return new PairedComparison(
                pairs.size(),
                both,
                onlyA,
                onlyB,
                neither,
                mcnemar(onlyA, onlyB),
                delta[0],
                Math.max(-1, delta[0] - delta[2]),
                Math.min(1, delta[0] + delta[2]),
                clusters == null ? 0 : (int) clusters.stream().distinct().count());
    }

    /**
     * {@return the comparison in a plain sentence}: which run is better and by how many points with the 95 % interval
     * when the interval excludes 0 ("B is better by 4.1 points, 95 % CI 1.2 to 7.0"), else "no difference detected"
     * with the interval, so that what a difference is small enough to hide behind is plain; a clustered interval says
     * over how many clusters ("95 % CI 1.2 to 7.0 over 12 clusters")
     */
    public String sentence() {
        if (n == 0) {
            return "no difference detected: no case was scored in both runs";
        }
        String interval = "95 %% CI %.1f to %.1f".formatted(deltaLow * 100, deltaHigh * 100)
                + (clusters > 0 ? " over %d clusters".formatted(clusters) : "");
        if (deltaLow > 0) {
            return "B is better by %.1f points, %s".formatted(meanDelta * 100, interval);
        }
        if (deltaHigh < 0) {
            return "A is better by %.1f points, %s".formatted(-meanDelta * 100, interval);
        }
        return "no difference detected: B − A = %.1f points, %s (McNemar p = %.3g)"
                .formatted(meanDelta * 100, interval, mcnemarP);
    }

    /** Exact two-sided McNemar: P(X <= min) doubled, X ~ Binomial(b + c, 1/2), capped at 1. */
    static double mcnemar(int b, int c) {
        int discordant = b + c;
        if (discordant == 0) {
            return 1.0;
        }
        int k = Math.min(b, c);
        // Sum the binomial tail in log space: discordant counts can be in the thousands.
        double logHalfPower = discordant * Math.log(0.5);
        double tail = 0;
        double logChoose = 0;
        for (int i = 0; i <= k; i++) {
            if (i > 0) {
                logChoose += Math.log(discordant - i + 1) - Math.log(i);
            }
            tail += Math.exp(logChoose + logHalfPower);
        }
        return Math.min(1.0, 2 * tail);
    }
}
