package dev.assay.score;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How sure a dimension score is: the standard error of the mean item score and a 95 % confidence interval (Student's t,
 * clipped to [0, 1]). Items are treated as independent draws; cases that share a scenario make the interval too narrow.
 * Skipped and cancelled items do not count, as in {@link Scores}.
 *
 * @param n scored items
 * @param mean the unweighted mean item score (equal to the dimension score when case weights are equal)
 * @param stderr the standard error of {@code mean}; 0 with fewer than two items
 * @param low the interval's lower end
 * @param high the interval's upper end
 */
public record Spread(int n, double mean, double stderr, double low, double high) {
    /** Two-sided 97.5 % quantiles of Student's t for 1..30 degrees of freedom; beyond, the normal 1.96. */
    private static final double[] T_975 = {
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
        2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042
    };

    /** {@return the spread of each dimension's scored items, sorted by dimension} */
    public static Map<String, Spread> byDimension(List<Scores.Entry> entries) {
        var scores = new TreeMap<String, java.util.ArrayList<Double>>();
        for (Scores.Entry entry : entries) {
            if (entry.scored()) {
                scores.computeIfAbsent(entry.dimension(), dimension -> new java.util.ArrayList<>())
                        .add(entry.score());
            }
        }
        var spreads = new TreeMap<String, Spread>();
        scores.forEach((dimension, values) -> spreads.put(dimension, of(values)));
        return spreads;
    }

    static Spread of(List<Double> values) {
        double[] interval = tInterval(values);
        return new Spread(
                values.size(),
                interval[0],
                interval[1],
                Math.max(0, interval[0] - interval[2]),
                Math.min(1, interval[0] + interval[2]));
    }

    /** {@return mean, standard error and the 95 % half-width of Student's t interval; 0 spread below two values} */
    static double[] tInterval(List<Double> values) {
        int n = values.size();
        double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        if (n < 2) {
            return new double[] {mean, 0, 0};
        }
        double squares = values.stream()
                .mapToDouble(value -> (value - mean) * (value - mean))
                .sum();
        double stderr = Math.sqrt(squares / (n - 1)) / Math.sqrt(n);
        double t = n - 1 <= T_975.length ? T_975[n - 2] : 1.96;
        return new double[] {mean, stderr, t * stderr};
    }
}
