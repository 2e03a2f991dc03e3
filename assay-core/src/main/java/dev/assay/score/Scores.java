package dev.assay.score;

import dev.assay.score.internal.ScoreTally;
import java.util.List;
import java.util.Map;

/**
 * Aggregates item scores into dimension scores and a total (README.md, "Scoring"):
 *
 * <ul>
 *   <li>dimension score = weighted mean of its scored items (passed, failed, partial, error; errors count as 0),
 *       weighted by case weight; skipped and cancelled items leave the denominator;
 *   <li>total = weighted mean of the dimension scores over the dimensions PRESENT in the run, renormalised: a dimension
 *       with no scored item neither counts as 0 nor takes weight (unlike the reference server, whose total divided by
 *       all four weights, so a run of "logic" only could never exceed 25 %).
 * </ul>
 *
 * The {@link Weights.Scoring#REFERENCE reference} preset applies the reference server's rules instead. All scores are
 * in [0, 1].
 *
 * @param dimensionScores dimension to score, sorted by dimension; dimensions with no scored item are absent
 * @param total the total, or null when nothing was scored
 */
public record Scores(Map<String, Double> dimensionScores, Double total) {

    /**
     * One item as scoring sees it.
     *
     * @param dimension the case's dimension
     * @param weight the case's weight
     * @param score in [0, 1]
     * @param scored whether it counts (false for skipped and cancelled)
     * @param passed whether its status is passed (the reference preset counts only that)
     */
    public record Entry(String dimension, double weight, double score, boolean scored, boolean passed) {}

    public static Scores of(List<Entry> entries, Weights weights) {
        var tally = new ScoreTally();
        entries.forEach(tally::add);
        return tally.scores(weights);
    }
}
