package dev.assay.cost;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.result.Item;
import dev.assay.result.TrialId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A run's cost, summed as its items stream through: in all, by dimension and by case (a case's samples together).
 * Thread-safe: the engine adds items from their own threads.
 */
public final class CostTally {
    private final String subjectModel;
    private final PriceTable prices;
    private final int samples;
    private ItemCost total = ItemCost.NONE;
    private final Map<String, ItemCost> byDimension = new TreeMap<>();
    private final Map<String, ItemCost> byCase = new LinkedHashMap<>();

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
        byCase.merge(TrialId.parse(item.caseId(), samples).caseId(), cost, ItemCost::plus);
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

    /** {@return the cost by case id, a case's samples ({@code id#k}) together} */
    public synchronized Map<String, ItemCost> byCase() {
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byCase));
    }

    /**
     * {@return the run's cost as report.json holds it: the total's fields ({@link ItemCost#toJson}), then
     * {@code by_dimension} and {@code by_case}, each {@code cost_usd} and tokens, and the price table's date}
     */
    public synchronized ObjectNode toJson() {
        ObjectNode node = total.toJson();
        ObjectNode dimensions = node.putObject("by_dimension");
        byDimension.forEach((dimension, cost) -> dimensions.set(dimension, brief(cost)));
        ObjectNode cases = node.putObject("by_case");
        byCase.forEach((caseId, cost) -> cases.set(caseId, brief(cost)));
        node.put("prices_taken_on", prices.takenOn());
        return node;
    }

    private static ObjectNode brief(ItemCost cost) {
        ObjectNode node = cost.toJson();
        node.remove("by_role");
        return node;
    }
}
