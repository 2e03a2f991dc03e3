package dev.assay.score;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How sure a dimension score is: the standard error of the mean item score and a 95 % confidence interval (Student's t,
 * clipped to [0, 1]). Unclustered, items are treated as independent draws; cases that share a scenario then make the
 * interval too narrow, and {@link #clustered} gives the cluster-robust (CR1) standard error instead
 * (docs/statistics.md). Skipped and cancelled items do not count, as in {@link Scores}.
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

    /**
     * {@return the spread of each dimension's scored items with cluster-robust standard errors}
     *
     * @param entries the items
     * @param clusters the cluster of each entry, in the same order (a case field's value; items of one case share it)
     */
    public static Map<String, Spread> byDimension(List<Scores.Entry> entries, List<String> clusters) {
        if (entries.size() != clusters.size()) {
            throw new IllegalArgumentException("one cluster per entry: " + entries.size() + " != " + clusters.size());
        }
        var values = new TreeMap<String, java.util.ArrayList<Double>>();
        var keys = new TreeMap<String, java.util.ArrayList<String>>();
        for (int i = 0; i < entries.size(); i++) {
            Scores.Entry entry = entries.get(i);
            if (entry.scored()) {
                values.computeIfAbsent(entry.dimension(), dimension -> new java.util.ArrayList<>())
                        .add(entry.score());
                keys.computeIfAbsent(entry.dimension(), dimension -> new java.util.ArrayList<>())
                        .add(clusters.get(i));
            }
        }
        var spreads = new TreeMap<String, Spread>();
        values.forEach((dimension, list) -> spreads.put(dimension, clustered(list, keys.get(dimension))));
        return spreads;
    }

    /**
     * {@return the spread of values with the CR1 cluster-robust standard error of their mean}: with n values in G
     * clusters, {@code SE² = G/(G-1) · Σ_g (Σ_{i∈g} (x_i − x̄))² / n²} (statsmodels' {@code cov_type='cluster'} of an
     * OLS on a constant; its second factor {@code (n-1)/(n-k)} is 1 with k = 1). The interval is Student's t with G − 1
     * degrees of freedom. With one cluster the standard error is 0, as with one value.
     *
     * @param values the values
     * @param clusters each value's cluster, in the same order
     */
    public static Spread clustered(List<Double> values, List<String> clusters) {
        return clipped(values.size(), clusteredInterval(values, clusters));
    }

    /** {@return the spread of these values, treated as independent draws} */
    public static Spread of(List<Double> values) {
        return clipped(values.size(), tInterval(values));
    }

    /** {@return a spread from mean, standard error and half-width, its interval clipped to the scores' [0, 1]} */
    private static Spread clipped(int n, double[] interval) {
        return new Spread(
                n,
                interval[0],
                interval[1],
                Math.max(0, interval[0] - interval[2]),
                Math.min(1, interval[0] + interval[2]));
    }

    /**
     * {@return mean, CR1 cluster-robust standard error and the 95 % half-width (Student's t, G − 1 degrees of freedom)
     * of values in G clusters} ({@link #clustered}); 0 spread with one cluster
     */
    static double[] clusteredInterval(List<Double> values, List<String> clusters) {
        if (values.size() != clusters.size()) {
            throw new IllegalArgumentException("one cluster per value: " + values.size() + " != " + clusters.size());
        }
        int n = values.size();
        double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        var sums = new java.util.HashMap<String, Double>();
        for (int i = 0; i < n; i++) {
            sums.merge(clusters.get(i), values.get(i) - mean, Double::sum);
        }
        int groups = sums.size();
        if (groups < 2) {
            return new double[] {mean, 0, 0};
        }
        double meat = sums.values().stream().mapToDouble(sum -> sum * sum).sum();
        double stderr = Math.sqrt((double) groups / (groups - 1) * meat) / n;
        return new double[] {mean, stderr, t975(groups - 1) * stderr};
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
        return new double[] {mean, stderr, t975(n - 1) * stderr};
    }

    /** {@return the 97.5 % quantile of Student's t with these degrees of freedom (at least 1); 1.96 beyond 30} */
    static double t975(int degrees) {
        return degrees <= T_975.length ? T_975[degrees - 1] : 1.96;
    }
}
