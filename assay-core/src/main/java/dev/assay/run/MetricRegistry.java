package dev.assay.run;

import dev.assay.Plugins;
import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.run.internal.WeightedScore;
import dev.assay.store.Store;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The computation of metrics over a run's stored items. The metrics themselves are a run's plug-ins
 * ({@link RunPlugins#metrics()}): Assay's own ({@link WeightedScore}; the dialog metrics profiles are services of
 * assay-core), then plug-ins. Thread-safe (stateless).
 */
public final class MetricRegistry {
    /** Items read from the store at a time: a run's items stream through its metrics, never all held at once. */
    private static final int PAGE = 500;

    private MetricRegistry() {}

    /**
     * Streams the stored items of a run, in selection order and with their transcripts, through the tallies.
     *
     * @param store where the run's items are
     * @param runId the run's id
     */
    public static void tally(Store store, String runId, List<Metric.Tally> tallies) {
        Item last = null;
        while (true) {
            List<Item> page = store.listItemsAfter(runId, last, PAGE);
            for (Item item : page) {
                tallies.forEach(tally -> tally.accept(item));
            }
            if (page.size() < PAGE) {
                return;
            }
            last = page.getLast();
        }
    }

    /**
     * {@return {@code ended} with the workload's extra metrics ({@link Workload#metrics()}), each its
     * {@link dev.assay.score.Scores#total()} over the run's stored items; {@code ended} itself when it names none}
     *
     * @throws dev.assay.AssayException {@code plugin.unknown} for a metric no longer on the class path, or a metric's
     *     own problem
     */
    public static Run withMetrics(Run ended, Workload workload, Store store) {
        List<String> names = workload.metrics();
        if (names.isEmpty()) {
            return ended;
        }
        var context = new MetricContext(ended, workload);
        var tallies = new ArrayList<Metric.Tally>();
        Plugins<Metric> metrics = workload.plugins().metrics();
        names.forEach(name -> tallies.add(metrics.get(name, "metrics").begin(context)));
        tally(store, ended.runId(), tallies);
        var values = new LinkedHashMap<String, Double>(ended.metrics());
        for (int i = 0; i < names.size(); i++) {
            values.put(names.get(i), tallies.get(i).result().total());
        }
        return ended.withMetrics(values);
    }
}
