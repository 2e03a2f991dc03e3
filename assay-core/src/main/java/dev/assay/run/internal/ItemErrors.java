package dev.assay.run.internal;

import dev.assay.Problem;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The problem types of a run's error items, counted, with the first message of each: why a run that judged nothing
 * failed. Not thread-safe: its run's progress guards it.
 */
final class ItemErrors {
    private final Map<String, Integer> counts = new LinkedHashMap<>();
    private final Map<String, String> firstMessages = new HashMap<>();

    void count(Item item) {
        if (item.status() == ItemStatus.ERROR && item.error() != null) {
            counts.merge(item.error().type(), 1, Integer::sum);
            firstMessages.putIfAbsent(
                    item.error().type(), shortened(item.error().message()));
        }
    }

    /** An item's error message, which may quote what an endpoint answered, cut to a line's length for the run's. */
    private static String shortened(String message) {
        return message.length() <= 300 ? message : message.substring(0, 299) + "…";
    }

    /**
     * {@return why a run that judged no item measured nothing ({@code run.all_items_errored}, its detail
     * {@code error_type} the items' most frequent error type), or null when an item was judged}
     *
     * @param counted the run's items counted so far
     * @param items how many items the run has
     */
    Problem nothingJudged(Counts counted, int items) {
        if (!counted.everyJudgedItemIsAnError() || counts.isEmpty()) {
            return null;
        }
        var dominant =
                counts.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow();
        return Problem.of(
                        "run.all_items_errored",
                        "every judged item is an error (" + counted.error() + " of " + items + "), most often "
                                + dominant.getKey() + " (" + dominant.getValue() + "): "
                                + firstMessages.get(dominant.getKey()))
                .withDetail("error_type", dominant.getKey())
                .withDetail("error_type_count", dominant.getValue())
                .withDetail("errors", counted.error());
    }
}
