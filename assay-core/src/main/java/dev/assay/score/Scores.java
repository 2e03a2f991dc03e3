package dev.assay.score;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Aggregates item scores into dimension scores and a total (capability-eval.md, "Dimensions and scoring"):
 * <ul>
 * <li>dimension score = weighted mean of its scored items (passed, failed, partial, error; errors count as 0),
 *     weighted by case weight; skipped and cancelled items leave the denominator;</li>
 * <li>total = weighted mean of the dimension scores over the dimensions PRESENT in the run, renormalised: a
 *     dimension with no scored item neither counts as 0 nor takes weight (unlike the reference server, whose total
 *     divided by all four weights, so a run of "logic" only could never exceed 25 %).</li>
 * </ul>
 * All scores are in [0, 1].
 *
 * @param dimensionScores dimension to score, sorted by dimension; dimensions with no scored item are absent
 * @param total           the total, or null when nothing was scored
 */
public record Scores(Map<String, Double> dimensionScores, Double total) {

    /**
     * One item as scoring sees it.
     *
     * @param dimension the case's dimension
     * @param weight    the case's weight
     * @param score     in [0, 1]
     * @param scored    whether it counts (false for skipped and cancelled)
     */
    public record Entry(String dimension, double weight, double score, boolean scored) {
    }

    public static Scores of(List<Entry> entries, Weights weights) {
        var sums = new TreeMap<String, Sum>();
        for (Entry entry : entries) {
            if (entry.scored()) {
                sums.computeIfAbsent(entry.dimension(), dimension -> new Sum()).add(entry);
            }
        }
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

        void add(Entry entry) {
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
