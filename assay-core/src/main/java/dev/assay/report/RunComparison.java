package dev.assay.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.TrialId;
import dev.assay.run.EvalSpec;
import dev.assay.score.PairedComparison;
import dev.assay.store.Store;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Two runs side by side over the cases they share: per-dimension and total score deltas (b − a), the cases whose
 * verdict changed, and a paired comparison of the cases both runs scored (McNemar's exact test, paired t-interval).
 * Reads items page by page and keeps only what it compares, so large runs stay cheap.
 */
public final class RunComparison {
    /** At most this many changed cases are listed; {@code changed_count} counts them all. */
    public static final int MAX_CHANGED = 1000;

    private static final int PAGE = 500;

    /** @param caseId the case the item holds a sample of, or the item's id in a run of one sample per case */
    private record ItemScore(String caseId, String dimension, ItemStatus status, double score) {}

    private RunComparison() {}

    /**
     * The field that makes each case a cluster of its own, its samples together: the default of runs with several
     * samples a case, whose samples are correlated (the same prompt to the same model), so that pairs taken one by one
     * would give too narrow an interval.
     */
    public static final String BY_CASE = "id";

    /** The cluster field that asks for none: every pair taken as independent, samples of one case too. */
    public static final String UNCLUSTERED = "none";

    /**
     * {@return the comparison as the API and the CLI show it}, its paired interval clustered by the field run b's spec
     * names, else run a's ({@code --cluster-by}); when neither names one, by the case ({@link #BY_CASE}) if either run
     * has several samples a case, else plain
     */
    public static ObjectNode of(Store store, Run a, Run b) {
        String clusterBy = EvalSpec.of(b).scoring().clusterBy();
        if (clusterBy == null) {
            clusterBy = EvalSpec.of(a).scoring().clusterBy();
        }
        if (clusterBy == null && Math.max(samples(a), samples(b)) > 1) {
            clusterBy = BY_CASE;
        }
        return of(store, a, b, clusterBy);
    }

    private static int samples(Run run) {
        return EvalSpec.of(run).limits().samples();
    }

    /**
     * {@return the comparison as the API and the CLI show it}: {@code a}, {@code b}, {@code dimensions}, {@code total},
     * {@code common_cases}, {@code only_in_a}, {@code only_in_b}, {@code changed_count}, {@code changed} and
     * {@code paired} (with its plain {@code sentence}, the {@code cluster_by} field and how many clusters it found)
     *
     * @param clusterBy the case field the paired interval is clustered by (read from run b's stored cases, else run
     *     a's; the samples of a case share its cluster); null or {@link #UNCLUSTERED} for the pairs taken as
     *     independent
     */
    public static ObjectNode of(Store store, Run a, Run b, String clusterBy) {
        if (UNCLUSTERED.equals(clusterBy)) {
            clusterBy = null;
        }
        Map<String, ItemScore> left = scores(store, a);
        Map<String, ItemScore> right = scores(store, b);
        ObjectNode node = Json.object();
        node.set("a", Json.tree(a));
        node.set("b", Json.tree(b));
        ArrayNode dimensions = node.putArray("dimensions");
        var names = new TreeSet<String>(a.dimensionScores().keySet());
        names.addAll(b.dimensionScores().keySet());
        for (String dimension : names) {
            dimensions.add(delta(
                    Json.object().put("dimension", dimension),
                    a.dimensionScores().get(dimension),
                    b.dimensionScores().get(dimension)));
        }
        node.set("total", delta(Json.object(), a.totalScore(), b.totalScore()));
        ArrayNode changed = node.putArray("changed");
        int common = 0;
        int changedCount = 0;
        var pairs = new java.util.ArrayList<PairedComparison.Pair>();
        var clusters = new java.util.ArrayList<String>();
        // A case's own cluster needs no stored case to find it.
        Map<String, Case> cases = clusterBy == null || clusterBy.equals(BY_CASE) ? Map.of() : sharedCases(store, a, b);
        for (Map.Entry<String, ItemScore> entry : left.entrySet()) {
            ItemScore other = right.get(entry.getKey());
            if (other == null) {
                continue;
            }
            common++;
            ItemScore mine = entry.getValue();
            if (mine.status().isScored() && other.status().isScored()) {
                pairs.add(new PairedComparison.Pair(
                        mine.score(),
                        other.score(),
                        mine.status() == ItemStatus.PASSED,
                        other.status() == ItemStatus.PASSED));
                if (clusterBy != null) {
                    String caseId = other.caseId();
                    clusters.add(RunReport.clusterOf(cases.get(caseId), caseId, clusterBy));
                }
            }
            if (mine.status() != other.status() || mine.score() != other.score()) {
                changedCount++;
                if (changed.size() < MAX_CHANGED) {
                    changed.addObject()
                            .put("case_id", entry.getKey())
                            .put("dimension", mine.dimension())
                            .put("a_status", mine.status().wireName())
                            .put("b_status", other.status().wireName())
                            .put("a_score", mine.score())
                            .put("b_score", other.score());
                }
            }
        }
        node.put("common_cases", common);
        node.put("only_in_a", left.size() - common);
        node.put("only_in_b", right.size() - common);
        node.put("changed_count", changedCount);
        PairedComparison paired = PairedComparison.of(pairs, clusterBy == null ? null : clusters);
        ObjectNode pairedNode = (ObjectNode) Json.tree(paired);
        pairedNode.put("sentence", paired.sentence());
        pairedNode.put("cluster_by", clusterBy);
        node.set("paired", pairedNode);
        return node;
    }

    /** {@return the cases of both runs' stored case sets by id, run b's where both have one} */
    private static Map<String, Case> sharedCases(Store store, Run a, Run b) {
        var cases = new LinkedHashMap<>(RunReport.storedCases(store, a));
        cases.putAll(RunReport.storedCases(store, b));
        return cases;
    }

    private static ObjectNode delta(ObjectNode node, Double a, Double b) {
        node.put("a", a);
        node.put("b", b);
        node.put("delta", a == null || b == null ? null : b - a);
        return node;
    }

    private static Map<String, ItemScore> scores(Store store, Run run) {
        var scores = new LinkedHashMap<String, ItemScore>();
        int samples = samples(run);
        for (int offset = 0; ; offset += PAGE) {
            List<Item> page = store.listItems(run.runId(), offset, PAGE);
            page.forEach(item -> scores.put(
                    item.caseId(),
                    new ItemScore(
                            TrialId.stored(item.caseId(), item.seq(), samples).caseId(),
                            item.dimension(),
                            item.status(),
                            item.score())));
            if (page.size() < PAGE) {
                return scores;
            }
        }
    }
}
