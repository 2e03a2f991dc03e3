package dev.assay.report.internal;

import dev.assay.cost.ItemCost;
import dev.assay.report.Coverage;
import dev.assay.report.RunReport;
import dev.assay.result.Item;
import dev.assay.score.Spread;
import java.util.List;

/** Short human texts about an item, shared by the text formats so they tell the same story. */
final class ItemText {
    private ItemText() {}

    /** {@return why the item did not pass: the error, else the first failing check's message; empty when passed} */
    static String reason(Item item) {
        List<String> reasons = item.reasons();
        return reasons.isEmpty() ? "" : reasons.getFirst();
    }

    /** {@return a skipped case's reason with what is known about each missing tool} */
    static String skipReason(Coverage.Skip skip) {
        var text = new StringBuilder(skip.type().isEmpty() ? "skipped" : skip.type());
        if (!skip.reason().isEmpty()) {
            text.append(": ").append(skip.reason());
        }
        skip.missingTools().forEach((tool, why) -> {
            if (!why.isEmpty()) {
                text.append("; ").append(why);
            }
        });
        return text.toString();
    }

    /** {@return the text cut to {@code max} characters with an ellipsis} */
    static String cut(String text, int max) {
        if (text == null) {
            return "";
        }
        return text.length() <= max ? text : text.substring(0, max) + "…";
    }

    static String percent(Double score) {
        return score == null ? "–" : "%.1f%%".formatted(score * 100);
    }

    /**
     * {@return a dimension's 95 % interval as the text formats show it, "61.2%–80.3% (SE 4.9)"}, after its own score
     * when the intervals reduce samples (the score beside it in the table is then another); "–" below two values
     */
    static String interval(RunReport.Intervals intervals, String dimension) {
        Spread spread = intervals.dimensions().get(dimension);
        if (spread == null || spread.n() < 2) {
            return "–";
        }
        String range =
                "%s–%s (SE %.1f)".formatted(percent(spread.low()), percent(spread.high()), spread.stderr() * 100);
        return intervals.reducer() == null ? range : percent(spread.mean()) + ": " + range;
    }

    /** {@return what the text formats say the intervals are over, a sentence} */
    static String intervalNote(RunReport.Intervals intervals) {
        String over = intervals.reducer() == null
                ? "the dimension's item scores"
                : "the dimension's cases, each case's samples reduced by "
                        + intervals.reducer().wireName();
        return "The 95% interval is Student's t over " + over
                + (intervals.clusterBy() == null
                        ? (intervals.reducer() == null ? ", taken as independent." : ".")
                        : ", its standard error clustered by " + intervals.clusterBy() + " (CR1).");
    }

    /**
     * {@return the run's scoring preset as its spec records it, with the weights}: {@code assay} for runs stored before
     * presets existed
     */
    static String scoring(dev.assay.result.Run run) {
        var weights = dev.assay.run.EvalSpec.of(run).scoring().weights();
        return weights.scoring().wireName() + " " + dev.assay.Json.tree(weights.byDimension());
    }

    /**
     * {@return "0.012345 USD (subject 0.010000, judge 0.002345); 1200 input tokens (300 cached), 450 output"}, with the
     * models that had no price named and the tokens of the answers found in the response cache
     */
    static String cost(ItemCost cost) {
        var text = new StringBuilder(usd(cost.totalUsd()));
        var roles = new java.util.ArrayList<String>();
        cost.costUsd().forEach((role, usd) -> roles.add(role.wireName() + " " + "%.6f".formatted(usd)));
        if (roles.size() > 1) {
            text.append(" (").append(String.join(", ", roles)).append(')');
        }
        var tokens = cost.totalUsage();
        text.append("; ")
                .append(tokens.inputTokens())
                .append(" input tokens (")
                .append(tokens.cachedInputTokens())
                .append(" cached), ")
                .append(tokens.outputTokens())
                .append(" output");
        if (!cost.unpriced().isEmpty()) {
            text.append("; no price for ").append(String.join(", ", cost.unpriced()));
        }
        var replayed = cost.fromResponseCache();
        if (replayed.totalTokens() > 0) {
            text.append("; from the response cache, not paid: ")
                    .append(replayed.inputTokens())
                    .append(" input tokens, ")
                    .append(replayed.outputTokens())
                    .append(" output");
        }
        return text.toString();
    }

    /** {@return "0.012345 USD"} */
    static String usd(double usd) {
        return "%.6f USD".formatted(usd);
    }

    /** {@return "pass@1 = 66.7%, pass@2 = 83.3%"} */
    static String passAtK(java.util.Map<Integer, Double> rates) {
        var parts = new java.util.ArrayList<String>();
        rates.forEach((k, value) -> parts.add("pass@" + k + " = " + percent(value)));
        return String.join(", ", parts);
    }
}
