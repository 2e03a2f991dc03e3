package dev.assay.run.internal;

import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.run.Metric;
import dev.assay.run.MetricContext;
import dev.assay.score.Scores;
import dev.assay.score.Weights;
import dev.assay.score.internal.ScoreTally;

/**
 * The weighted dimension score (README.md, "Scoring"): each dimension's weighted mean item score and the total under
 * the run's {@link Weights} and their scoring ({@code --scoring assay|reference}). The engine keeps it up to date as
 * items finish, so that a run shows its scores as it goes on. Thread-safe (stateless).
 */
public final class WeightedScore implements Metric {
    /** Its name. */
    public static final String NAME = "weighted-score";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Tally begin(MetricContext context) {
        return tally(context.workload().weights());
    }

    /** {@return an empty tally of the weighted score under {@code weights}} */
    public static Tally tally(Weights weights) {
        var tally = new ScoreTally();
        return new Tally() {
            @Override
            public void accept(Item item) {
                tally.add(new Scores.Entry(
                        item.dimension(),
                        item.weight(),
                        item.score(),
                        item.status().isScored(),
                        item.status() == ItemStatus.PASSED));
            }

            @Override
            public Scores result() {
                return tally.scores(weights);
            }
        };
    }
}
