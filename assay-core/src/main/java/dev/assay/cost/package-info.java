/**
 * What a run costs: the price table per model ({@link dev.assay.cost.PriceTable}, shipped and overridable in
 * {@code assay.yaml}), the cost of an item's model calls by role ({@link dev.assay.cost.ItemCost}), their sums over a
 * run ({@link dev.assay.cost.CostTally}) and the limits on them ({@link dev.assay.cost.Budget}). docs/cost.md.
 */
package dev.assay.cost;
