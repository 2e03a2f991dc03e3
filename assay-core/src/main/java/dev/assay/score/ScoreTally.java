package dev.assay.score;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@link Scores} kept up to date one item at a time, so a run of N items costs O(N) in all rather than O(N) per
 * item. Not thread-safe: its owner guards it.
 */
public final class ScoreTally {
    private final Map<String, Sum> sums = new TreeMap<>();

    /** Counts one item; skipped and cancelled items ({@code scored == false}) leave the denominators alone. */
    public void add(Scores.Entry entry) {
        if (entry.scored()) {
            sums.computeIfAbsent(entry.dimension(), dimension -> new Sum()).add(entry);
        }
    }

    /** {@return the dimension scores and the total of the items counted so far} */
    public Scores scores(Weights weights) {
        var dimensionScores = new LinkedHashMap<String, Double>();
        sums.forEach((dimension, sum) -> dimensionScores.put(dimension, sum.mean()));
        double weighted = 0;
        double totalWeight = 0;
        for (var entry : dimensionScores.entrySet()) {
            double weight = weights.of(entry.getKey());
            weighted += weight * entry.getValue();
            totalWeight += weight;
        }
        Double total = dimensionScores.isEmpty() ? null
                : totalWeight > 0 ? weighted / totalWeight
                : dimensionScores.values().stream().mapToDouble(Double::doubleValue).average().orElse(0);
        return new Scores(dimensionScores, total);
    }

    /** A dimension's scored items so far. */
    private static final class Sum {
        private double weighted;
        private double weight;
        private double plain;
        private int count;

        void add(Scores.Entry entry) {
            weighted += entry.weight() * entry.score();
            weight += entry.weight();
            plain += entry.score();
            count++;
        }

        /** All-zero case weights would leave 0/0; such a dimension is scored unweighted instead of dropped. */
        double mean() {
            return weight > 0 ? weighted / weight : plain / count;
        }
    }
}
