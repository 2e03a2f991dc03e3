package dev.assay.report;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.run.Item;
import dev.assay.run.Run;
import dev.assay.store.Store;
import java.util.ArrayList;
import java.util.List;

/**
 * A run with all its items: what reporters write.
 *
 * @param run   the run record
 * @param items its items in selection order
 */
public record RunReport(Run run, List<Item> items) {
    private static final int PAGE = 500;

    public RunReport {
        items = List.copyOf(items);
    }

    /**
     * {@return the run and every item, read page by page}
     *
     * @throws AssayException {@code run.not_found} when there is no such run
     */
    public static RunReport load(Store store, String runId) {
        Run run = store.findRun(runId).orElseThrow(() -> new AssayException(
                Problem.of("run.not_found", "no run with id " + runId).withDetail("run_id", runId)));
        var items = new ArrayList<Item>();
        for (int offset = 0; ; offset += PAGE) {
            List<Item> page = store.listItems(runId, offset, PAGE);
            items.addAll(page);
            if (page.size() < PAGE) {
                return new RunReport(run, items);
            }
        }
    }
}
