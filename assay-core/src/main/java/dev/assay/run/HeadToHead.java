package dev.assay.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.result.Item;
import dev.assay.score.internal.SequentialTest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The stop rule of a head-to-head run ({@code --versus B --stop-when-decided}, {@link EvalSpec.StopRule}): its items
 * are pairs, each case against A then against B, and each pair's difference of scores feeds an always-valid sequential
 * test ({@link SequentialTest}) in the order of the cases, whatever order the items end in, so that the engine, which
 * stops starting cases once the test decides, and a report, which reads the stored items again, reach the same verdict
 * after the same case. With several samples a side's score is the mean of its samples; a pair one of whose sides has no
 * scored item (skipped) tells nothing and is passed over. Thread-safe.
 */
public final class HeadToHead {
    private final List<String> labels;
    private final EvalSpec.StopRule rule;
    private final int samples;
    private final int casesPlanned;
    private final SequentialTest test;
    // By pair: A's score sum and scored items, B's, and the items counted; dropped once fed to the test.
    private final Map<Integer, double[]> pairs = new HashMap<>();
    private int nextPair;
    private int casesUsed;
    private int decidedAfter;

    private HeadToHead(List<String> labels, EvalSpec.StopRule rule, int samples, int casesPlanned) {
        this.labels = labels;
        this.rule = rule;
        this.samples = samples;
        this.casesPlanned = casesPlanned;
        this.test = new SequentialTest(rule.alpha(), rule.mde());
    }

    /**
     * {@return the stop rule of a run of {@code spec} over {@code cases} cases; empty unless the spec is a head-to-head
     * that stops when decided}
     */
    public static Optional<HeadToHead> of(EvalSpec spec, int cases) {
        List<String> labels = spec.subjectLabels();
        EvalSpec.StopRule rule = spec.limits().stopRule();
        return labels.size() == 2 && rule.stopsWhenDecided()
                ? Optional.of(new HeadToHead(labels, rule, spec.limits().samples(), cases))
                : Optional.empty();
    }

    /**
     * Counts one of the run's items (by its {@link Item#seq()}). {@return whether the test has decided}: no further
     * case need start
     */
    public synchronized boolean accept(Item item) {
        int itemsPerPair = 2 * samples;
        int pair = item.seq() / itemsPerPair;
        double[] sums = pairs.computeIfAbsent(pair, key -> new double[5]);
        int side = item.seq() / samples % 2;
        if (item.status().isScored()) {
            sums[side * 2] += item.score();
            sums[side * 2 + 1]++;
        }
        sums[4]++;
        if (sums[4] == itemsPerPair) {
            casesUsed++;
        }
        // The test sees the pairs in the cases' order: a pair that ended early waits for those before it.
        for (double[] next = pairs.get(nextPair); next != null && next[4] == itemsPerPair; next = pairs.get(nextPair)) {
            pairs.remove(nextPair);
            nextPair++;
            if (next[1] > 0 && next[3] > 0 && test.decision() == SequentialTest.Decision.CONTINUE) {
                if (test.add(next[0] / next[1], next[2] / next[3]) != SequentialTest.Decision.CONTINUE) {
                    decidedAfter = nextPair;
                }
            }
        }
        return decided();
    }

    /** {@return whether the test has decided which model is better} */
    public synchronized boolean decided() {
        return test.decision() != SequentialTest.Decision.CONTINUE;
    }

    /** {@return where the comparison stands} */
    public synchronized Summary summary() {
        SequentialTest.Decision decision = test.decision();
        return new Summary(
                labels.get(0),
                labels.get(1),
                decision == SequentialTest.Decision.A_BETTER
                        ? "a_better"
                        : decision == SequentialTest.Decision.B_BETTER ? "b_better" : "undecided",
                decidedAfter,
                casesUsed,
                casesPlanned,
                samples,
                test.meanDelta(),
                test.evidence(),
                rule.alpha(),
                rule.mde());
    }

    /**
     * Where a head-to-head run stands, as reports show it.
     *
     * @param a the first model's label (A)
     * @param b the second model's label (B, the one given by {@code --versus})
     * @param verdict {@code a_better}, {@code b_better} or {@code undecided}
     * @param decidedAfter the cases, in the run's order, after which the test decided; 0 while undecided
     * @param casesUsed the cases that ran against both models
     * @param casesPlanned the cases selected
     * @param samples answers drawn per case and model
     * @param meanDelta the mean difference B − A over the cases the test saw, in [−1, 1]
     * @param evidence the test's e-value against "no difference"; it decides at {@code 1 / alpha}
     * @param alpha the largest false-decision rate
     * @param mde the difference, in points, the test's bets are sized for
     */
    public record Summary(
            String a,
            String b,
            String verdict,
            int decidedAfter,
            int casesUsed,
            int casesPlanned,
            int samples,
            double meanDelta,
            double evidence,
            double alpha,
            double mde) {
        /** {@return the cases not run, against both models} */
        public int casesSaved() {
            return Math.max(0, casesPlanned - casesUsed);
        }

        /** {@return the model calls' items not run: two per case saved, times the samples} */
        public int itemsSaved() {
            return casesSaved() * 2 * samples;
        }

        /** {@return why the run stopped where it did, in a sentence} */
        public String reason() {
            if (decidedAfter > 0) {
                return "decided after " + decidedAfter + " of " + casesPlanned + " cases: "
                        + (verdict.equals("b_better") ? b + " (B) is better than " + a : a + " (A) is better than " + b)
                        + " (evidence " + "%.1f".formatted(evidence) + " reached 1/alpha = "
                        + "%.0f".formatted(1 / alpha) + ")";
            }
            return casesUsed >= casesPlanned
                    ? "the cases ran out before a decision: neither model is shown better at alpha " + alpha
                    : "stopped after " + casesUsed + " of " + casesPlanned + " cases, before a decision";
        }

        /** {@return the JSON reports and the API give under {@code head_to_head}} */
        public ObjectNode toJson() {
            ObjectNode node = Json.object();
            node.put("a", a);
            node.put("b", b);
            node.put("verdict", verdict);
            node.put("reason", reason());
            node.put("stopped_early", decidedAfter > 0 && casesUsed < casesPlanned);
            if (decidedAfter > 0) {
                node.put("decided_after_cases", decidedAfter);
            }
            node.put("cases_used", casesUsed);
            node.put("cases_planned", casesPlanned);
            node.put("cases_saved", casesSaved());
            node.put("items_saved", itemsSaved());
            node.put("mean_delta", meanDelta);
            node.put("evidence", evidence);
            node.put("alpha", alpha);
            node.put("mde_points", mde);
            return node;
        }
    }
}
