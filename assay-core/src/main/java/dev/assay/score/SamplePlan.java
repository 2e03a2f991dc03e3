package dev.assay.score;

import dev.assay.score.internal.Normal;
import java.util.ArrayList;
import java.util.List;

/**
 * How many cases (and samples per case) a paired comparison needs to detect a given difference, from a baseline run's
 * observed variance (docs/statistics.md, "Planning"). Normal approximation of a two-sided paired test: {@code n =
 * (z_{1−α/2} + z_{power})² · σ_D² / δ²}, with the variance of a case's paired difference taken as {@code σ_D² = 2 (σ_b²
 * + σ_w² / k)}: σ_b² the between-case variance of the case means, σ_w² the within-case variance of samples, k samples
 * per case, and the two runs assumed to vary alike and independently (their correlation is unknown from one run; a
 * positive one, usual when cases differ in difficulty, makes the figure conservative).
 *
 * @param mde the smallest difference to detect, in score points (0..100)
 * @param power the chance of detecting it
 * @param alpha the two-sided false-positive rate
 * @param baselineCases the baseline's scored cases
 * @param baselineSamples samples per case in the baseline (the most any case has)
 * @param betweenVariance σ_b², in squared score units (scores in [0, 1])
 * @param withinVariance σ_w²; 0 with one sample per case (it is then part of σ_b²)
 * @param options cases needed for k = 1 .. max(1, baselineSamples) samples per case
 */
public record SamplePlan(
        double mde,
        double power,
        double alpha,
        int baselineCases,
        int baselineSamples,
        double betweenVariance,
        double withinVariance,
        List<Option> options) {

    /**
     * One design.
     *
     * @param samples samples per case (k)
     * @param cases cases needed (n), at least 2
     * @param calls n · k per run
     */
    public record Option(int samples, long cases, long calls) {}

    /**
     * {@return the plan}
     *
     * @param cases each baseline case's scored samples' scores, in [0, 1]; cases without one are ignored
     * @param mde the difference to detect, in points (0 &lt; mde ≤ 100)
     * @param power in (0, 1)
     * @param alpha in (0, 1)
     * @throws IllegalArgumentException when an argument is out of range or fewer than two cases were scored
     */
    public static SamplePlan of(List<List<Double>> cases, double mde, double power, double alpha) {
        if (!(mde > 0 && mde <= 100) || !(power > 0 && power < 1) || !(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException(
                    "need 0 < mde <= 100, 0 < power < 1, 0 < alpha < 1; got " + mde + ", " + power + ", " + alpha);
        }
        var scored = cases.stream().filter(scores -> !scores.isEmpty()).toList();
        if (scored.size() < 2) {
            throw new IllegalArgumentException("the baseline needs at least two scored cases, has " + scored.size());
        }
        int samples = scored.stream().mapToInt(List::size).max().orElseThrow();
        var means = new ArrayList<Double>();
        double within = 0;
        int withinCases = 0;
        for (List<Double> scores : scored) {
            double mean =
                    scores.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
            means.add(mean);
            if (scores.size() > 1) {
                within += variance(scores, mean);
                withinCases++;
            }
        }
        within = withinCases == 0 ? 0 : within / withinCases;
        double grandMean =
                means.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        // The case means' variance holds the between-case part and σ_w² / k of the samples' noise.
        double between = Math.max(0, variance(means, grandMean) - within / samples);
        double z = Normal.quantile(1 - alpha / 2) + Normal.quantile(power);
        double delta = mde / 100;
        var options = new ArrayList<Option>();
        for (int k = 1; k <= samples; k++) {
            double differenceVariance = 2 * (between + within / k);
            long n = Math.max(2, (long) Math.ceil(z * z * differenceVariance / (delta * delta)));
            options.add(new Option(k, n, n * k));
        }
        return new SamplePlan(mde, power, alpha, scored.size(), samples, between, within, List.copyOf(options));
    }

    private static double variance(List<Double> values, double mean) {
        return values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum() / (values.size() - 1);
    }
}
