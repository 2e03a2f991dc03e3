package dev.assay.score.internal;

import dev.assay.score.Scores;
import dev.assay.score.Weights;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@link Scores} kept up to date one item at a time, so a run of N items costs O(N) in all rather than O(N) per item.
 * Not thread-safe: its owner guards it.
 */
public final class ScoreTally {
    private final Map<String, Sum> sums = new TreeMap<>();

    /** Counts one item; skipped and cancelled items ({@code scored == false}) leave the denominators alone. */
    public void add(Scores.Entry entry) {
        if (entry.scored()) {
            sums.computeIfAbsent(entry.dimension(), dimension -> new Sum()).add(entry);
        }
    }

    /** {@return the dimension scores and the total of the items counted so far, under the weights' total rule} */
    public Scores scores(Weights weights) {
        return weights.scoring() == Weights.Scoring.REFERENCE ? referenceScores(weights) : assayScores(weights);
    }

    private Scores assayScores(Weights weights) {
        var dimensionScores = new LinkedHashMap<String, Double>();
        sums.forEach((dimension, sum) -> dimensionScores.put(dimension, sum.mean()));
        double weighted = 0;
        double totalWeight = 0;
        for (var entry : dimensionScores.entrySet()) {
            double weight = weights.of(entry.getKey());
            weighted += weight * entry.getValue();
            totalWeight += weight;
        }
        Double total = dimensionScores.isEmpty()
                ? null
                : totalWeight > 0
                        ? weighted / totalWeight
                        : dimensionScores.values().stream()
                                .mapToDouble(Double::doubleValue)
                                .average()
                                .orElse(0);
        return new Scores(dimensionScores, total);
    }

    /**
     * The reference server's rules: pass/fail items, a dimension whose case weights are all 0 dropped, and the total
     * divided by the weight of every configured dimension (plus any other dimension the run scored), so a dimension
     * with nothing judged counts 0.
     */
    private Scores referenceScores(Weights weights) {
        var dimensionScores = new LinkedHashMap<String, Double>();
        sums.forEach((dimension, sum) -> {
            if (sum.weight > 0) {
                dimensionScores.put(dimension, sum.passedWeight / sum.weight);
            }
        });
        if (sums.isEmpty()) {
            return new Scores(dimensionScores, null);
        }
        double totalWeight = weights.byDimension().values().stream()
                .mapToDouble(Double::doubleValue)
                .sum();
        for (String dimension : sums.keySet()) {
            if (!weights.byDimension().containsKey(dimension)) {
                totalWeight += weights.of(dimension);
            }
        }
        double weighted = 0;
        for (var dimension : dimensionScores.entrySet()) {
            weighted += weights.of(dimension.getKey()) * dimension.getValue();
        }
        return new Scores(dimensionScores, totalWeight > 0 ? weighted / totalWeight : 0.0);
    }

    /** A dimension's scored items so far. */
    private static final class Sum {
        private double weighted;
        private double passedWeight;
        private double weight;
        private double plain;
        private int count;

        void add(Scores.Entry entry) {
            weighted += entry.weight() * entry.score();
            passedWeight += entry.passed() ? entry.weight() : 0;
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
