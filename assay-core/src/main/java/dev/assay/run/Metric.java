package dev.assay.run;

import dev.assay.result.Item;
import dev.assay.run.internal.WeightedScore;
import dev.assay.score.Scores;

/**
 * A metric over a run's items, found by name ({@link RunPlugins#metrics()}): the weighted dimension score
 * ({@link WeightedScore}), the dialog metrics profiles ({@code memfin-v1}, {@code memfin-v1-corrected}) and plug-ins
 * ({@code META-INF/services/dev.assay.run.Metric}). A run computes its metrics by streaming its items through a
 * {@link Tally}, one item at a time in the order they are stored or read, so that a run of any size is never held in
 * memory for a metric's sake. The run's own metric gives its {@code dimension_scores} and {@code total_score}; an extra
 * metric named for a run ({@code --metric NAME}) gives the run's {@code metrics.NAME}, its {@link Scores#total()}.
 * Implementations are thread-safe: one metric serves many runs at once.
 */
public interface Metric {
    /** {@return the name users type ({@code --metric NAME}) and the run record's {@code metrics} key} */
    String name();

    /**
     * {@return an empty tally of this metric over one run}
     *
     * @throws dev.assay.AssayException when the metric does not apply to the run (the problem says why)
     */
    Tally begin(MetricContext context);

    /**
     * One computation of a metric over one run's items. Not thread-safe: its caller feeds it from one thread at a time.
     */
    interface Tally {
        /** Counts one of the run's items. */
        void accept(Item item);

        /**
         * {@return the metric over the items counted so far}: named values (dimension scores for a score metric) and
         * the metric's one number, null while nothing counted. It may be asked after every item (the weighted score is
         * shown as a run goes on), so it is cheap to ask again.
         */
        Scores result();
    }
}
