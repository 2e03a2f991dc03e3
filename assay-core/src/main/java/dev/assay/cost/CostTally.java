package dev.assay.cost;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.result.Item;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * A run's cost, summed as its items stream through: in all and by dimension. Its memory does not grow with the run: the
 * cost by case, one entry per case, is streamed from the items when a report writes it ({@link #eachCase}); a tally
 * that kept it made a million-case run collect without end in its heap. Thread-safe: the engine adds items from their
 * own threads.
 */
public final class CostTally {
    private final String subjectModel;
    private final PriceTable prices;
    private final int samples;
    private ItemCost total = ItemCost.NONE;
    private final Map<String, ItemCost> byDimension = new TreeMap<>();

    /**
     * @param subjectModel the model of the system under test, as the run names it
     * @param prices the run's price table
     * @param samples the samples the run draws of each case: a sample's cost counts for its case
     */
    public CostTally(String subjectModel, PriceTable prices, int samples) {
        this.subjectModel = subjectModel;
        this.prices = prices;
        this.samples = samples;
    }

    /** {@return the item's cost, added to the tally} */
    public synchronized ItemCost add(Item item) {
        ItemCost cost = costOf(item);
        total = total.plus(cost);
        byDimension.merge(item.dimension(), cost, ItemCost::plus);
        return cost;
    }

    /** {@return an item's cost under this run's prices, not added} */
    public ItemCost costOf(Item item) {
        return ItemCost.of(item, subjectModel, prices);
    }

    /** {@return the cost of the items added so far} */
    public synchronized ItemCost total() {
        return total;
    }

    /** {@return the cost by dimension} */
    public synchronized Map<String, ItemCost> byDimension() {
        return Map.copyOf(byDimension);
    }

    /**
     * Gives each case's cost, its samples ({@code id#k}) together, in the order of {@code items}: with one sample per
     * case an item's cost as it comes, holding nothing; with several, summed by case first (the memory of one entry per
     * case).
     *
     * @param items the run's items, e.g. a report's brief items read from the store a page at a time
     */
    public void eachCase(Iterable<Item> items, BiConsumer<String, ItemCost> action) {
        if (samples == 1) {
            items.forEach(item -> action.accept(item.caseId(), costOf(item)));
            return;
        }
        var byCase = new LinkedHashMap<String, ItemCost>();
        items.forEach(item -> byCase.merge(item.trial().caseId(), costOf(item), ItemCost::plus));
        byCase.forEach(action);
    }

    /**
     * {@return the run's cost as report.json holds it but for {@code by_case} ({@link #eachCase}): the total's fields
     * ({@link ItemCost#toJson}), then {@code by_dimension}, each {@code cost_usd} and tokens, and the price table's
     * date}
     */
    public synchronized ObjectNode toJson() {
        ObjectNode node = total.toJson();
        ObjectNode dimensions = node.putObject("by_dimension");
        byDimension.forEach((dimension, cost) -> dimensions.set(dimension, brief(cost)));
        node.put("prices_taken_on", prices.takenOn());
        return node;
    }

    /** {@return a case's cost as {@code by_case} holds it: {@code cost_usd} and tokens, without the roles} */
    public static ObjectNode brief(ItemCost cost) {
        ObjectNode node = cost.toJson();
        node.remove("by_role");
        return node;
    }
}
