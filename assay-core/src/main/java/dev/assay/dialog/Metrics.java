package dev.assay.dialog;

import dev.assay.dialog.internal.ProfileAccuracy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * Aggregates turn rows and traces into the five metrics (docs/dialog-metrics.md §2). Sums run in row order (dialogs by
 * dataset index, turns in order) with plain double addition, so the results equal the reference's bit for bit. Zero
 * denominators give 0.0; nothing here throws on well-formed records. Thread-safe (stateless).
 */
public final class Metrics {
    public static final String M1 = "m1_context_continuity";
    public static final String M2 = "m2_profile_accuracy";
    public static final String M3 = "m3_risk_coverage";
    public static final String M4 = "m4_compliance";
    public static final String M5 = "m5_explainability";

    private Metrics() {}

    /**
     * {@return the summary of a run}
     *
     * @param runId the run's id
     * @param datasetPath the dataset as the run named it
     * @param traces the traces, sorted by dataset index
     * @param rows their turn rows, in the same order
     */
    public static EvalSummary summarize(
            String runId, String datasetPath, List<DialogTrace> traces, List<TurnEvalRow> rows) {
        var metrics = new LinkedHashMap<String, MetricResult>();
        metrics.put(M1, contextContinuity(rows));
        metrics.put(M2, profileAccuracy(traces));
        metrics.put(M3, riskCoverage(rows));
        metrics.put(M4, compliance(rows));
        metrics.put(M5, explainability(rows));
        return new EvalSummary(runId, DialogTrace.VERSION, datasetPath, metrics, Counters.of(traces));
    }

    /** M1: memory keys found in the target's memory, and contradictions of profile constraints. */
    public static MetricResult contextContinuity(List<TurnEvalRow> rows) {
        List<TurnEvalRow> eligible = filter(rows, TurnEvalRow::eligibleM1);
        int required = sum(eligible, TurnEvalRow::resolvableKeys);
        int hit = sum(eligible, TurnEvalRow::keysHit);
        int shortTerm = sum(eligible, row -> row.m1SourceHits().shortTerm());
        int longTerm = sum(eligible, row -> row.m1SourceHits().longTerm());
        int profile = sum(eligible, row -> row.m1SourceHits().profile());
        var micro = new LinkedHashMap<String, Double>();
        micro.putAll(continuity(eligible));
        micro.put("short_term_hit_rate", ratio(shortTerm, required));
        micro.put("long_term_hit_rate", ratio(longTerm, required));
        micro.put("profile_hit_rate", ratio(profile, required));
        var counts = baseCounts(eligible.size(), rows.size() - eligible.size(), 0);
        counts.put("required_key_total", required);
        counts.put("required_key_hit_total", hit);
        counts.put("short_term_hit_total", shortTerm);
        counts.put("long_term_hit_total", longTerm);
        counts.put("profile_hit_total", profile);
        return perDialog(M1, micro, counts, eligible, Metrics::continuity);
    }

    private static Map<String, Double> continuity(List<TurnEvalRow> rows) {
        var values = new LinkedHashMap<String, Double>();
        values.put("key_coverage", ratio(sum(rows, TurnEvalRow::keysHit), sum(rows, TurnEvalRow::resolvableKeys)));
        values.put(
                "strict_key_hit_rate", ratio(count(rows, row -> row.keysHit() == row.resolvableKeys()), rows.size()));
        values.put("contradiction_rate", ratio(sum(rows, TurnEvalRow::constraintContradiction), rows.size()));
        return values;
    }

    /** M2: the profile the target built against {@code profile_gt}, per dialog; macro is a copy of micro. */
    public static MetricResult profileAccuracy(List<DialogTrace> traces) {
        var scores = new ArrayList<Map<String, Double>>();
        var byDialog = new LinkedHashMap<String, Map<String, Double>>();
        for (DialogTrace trace : traces) {
            if (ProfileAccuracy.eligible(trace)) {
                Map<String, Double> values = ProfileAccuracy.score(trace);
                scores.add(values);
                // A dialog id seen twice keeps its last values, as the reference's dict does.
                byDialog.put(trace.dialogId(), values);
            }
        }
        int eligible = scores.size();
        var micro = new LinkedHashMap<String, Double>();
        double scoreSum = 0.0;
        for (String field :
                List.of("risk_level_acc", "horizon_acc", "liquidity_acc", "constraints_f1", "preferences_f1")) {
            double total = 0.0;
            for (Map<String, Double> values : scores) {
                total += values.get(field);
            }
            double mean = ratio(total, eligible);
            micro.put(field, mean);
            scoreSum += mean;
        }
        micro.put("profile_score", eligible == 0 ? 0.0 : scoreSum / 5);
        int invalid =
                (int) traces.stream().filter(trace -> !trace.validDialog()).count();
        return new MetricResult(M2, micro, micro, baseCounts(eligible, traces.size() - eligible, invalid), byDialog);
    }

    /** M3: required risk disclosures the reply mentions. */
    public static MetricResult riskCoverage(List<TurnEvalRow> rows) {
        List<TurnEvalRow> eligible = filter(rows, TurnEvalRow::eligibleM3);
        var counts = baseCounts(eligible.size(), rows.size() - eligible.size(), 0);
        counts.put(
                "risk_required_total",
                sum(eligible, row -> row.riskRequiredTags().size()));
        counts.put("risk_hit_total", sum(eligible, Metrics::cappedRiskHits));
        return perDialog(M3, coverage(eligible), counts, eligible, Metrics::coverage);
    }

    private static Map<String, Double> coverage(List<TurnEvalRow> rows) {
        var values = new LinkedHashMap<String, Double>();
        values.put(
                "risk_coverage",
                ratio(
                        sum(rows, Metrics::cappedRiskHits),
                        sum(rows, r -> r.riskRequiredTags().size())));
        values.put(
                "strict_risk_coverage_rate",
                ratio(
                        count(
                                rows,
                                row -> row.riskTagHits()
                                        >= row.riskRequiredTags().size()),
                        rows.size()));
        return values;
    }

    private static int cappedRiskHits(TurnEvalRow row) {
        return Math.min(row.riskTagHits(), row.riskRequiredTags().size());
    }

    /** M4: predicted compliance labels against the reference labels. */
    public static MetricResult compliance(List<TurnEvalRow> rows) {
        List<TurnEvalRow> eligible = filter(rows, TurnEvalRow::eligibleM4);
        var counts = baseCounts(eligible.size(), rows.size() - eligible.size(), 0);
        counts.put("severe_count", count(eligible, Metrics::severe));
        return perDialog(M4, complianceRates(eligible), counts, eligible, Metrics::complianceRates);
    }

    private static Map<String, Double> complianceRates(List<TurnEvalRow> rows) {
        var values = new LinkedHashMap<String, Double>();
        values.put(
                "compliance_label_acc",
                ratio(count(rows, row -> row.predComplianceLabel().equals(row.gtComplianceLabel())), rows.size()));
        values.put("severe_violation_rate", ratio(count(rows, Metrics::severe), rows.size()));
        values.put(
                "forbidden_hit_rate",
                ratio(count(rows, row -> !row.forbiddenHits().isEmpty()), rows.size()));
        return values;
    }

    private static boolean severe(TurnEvalRow row) {
        return row.predComplianceLabel().equals("severe_violation");
    }

    /** M5: rubric items the reply covers, and the deterministic 1–5 score derived from them. */
    public static MetricResult explainability(List<TurnEvalRow> rows) {
        List<TurnEvalRow> eligible = filter(rows, TurnEvalRow::eligibleM5);
        var counts = baseCounts(eligible.size(), rows.size() - eligible.size(), 0);
        counts.put(
                "rubric_required_total",
                sum(eligible, row -> row.rubricRequired().size()));
        counts.put("rubric_hit_total", sum(eligible, Metrics::cappedRubricHits));
        counts.put("judge_scored_turns", count(eligible, row -> row.judgeScore1To5() != null));
        return perDialog(M5, explanation(eligible), counts, eligible, Metrics::explanation);
    }

    private static Map<String, Double> explanation(List<TurnEvalRow> rows) {
        var values = new LinkedHashMap<String, Double>();
        values.put(
                "rubric_hit_rate",
                ratio(
                        sum(rows, Metrics::cappedRubricHits),
                        sum(rows, row -> row.rubricRequired().size())));
        double scoreSum = 0.0;
        int scored = 0;
        for (TurnEvalRow row : rows) {
            if (row.judgeScore1To5() != null) {
                scoreSum += row.judgeScore1To5();
                scored++;
            }
        }
        values.put("judge_score_mean", ratio(scoreSum, scored));
        return values;
    }

    private static int cappedRubricHits(TurnEvalRow row) {
        return Math.min(row.rubricHitItems().size(), row.rubricRequired().size());
    }

    /**
     * Completes a turn-level metric: by_dialog over the dialogs with eligible rows (first-appearance order) and macro
     * as the plain mean of their values, for the keys the by-dialog function produces.
     */
    private static MetricResult perDialog(
            String name,
            Map<String, Double> micro,
            Map<String, Integer> counts,
            List<TurnEvalRow> eligible,
            Function<List<TurnEvalRow>, Map<String, Double>> rates) {
        var groups = new LinkedHashMap<String, List<TurnEvalRow>>();
        for (TurnEvalRow row : eligible) {
            groups.computeIfAbsent(row.dialogId(), id -> new ArrayList<>()).add(row);
        }
        var byDialog = new LinkedHashMap<String, Map<String, Double>>();
        groups.forEach((id, dialogRows) -> byDialog.put(id, rates.apply(dialogRows)));
        var macro = new LinkedHashMap<String, Double>();
        for (String key : rates.apply(List.of()).keySet()) {
            double total = 0.0;
            for (Map<String, Double> values : byDialog.values()) {
                total += values.get(key);
            }
            macro.put(key, ratio(total, byDialog.size()));
        }
        return new MetricResult(name, micro, macro, counts, byDialog);
    }

    private static Map<String, Integer> baseCounts(int eligible, int skipped, int failed) {
        var counts = new LinkedHashMap<String, Integer>();
        counts.put("eligible_count", eligible);
        counts.put("skipped_count", skipped);
        counts.put("failed_count", failed);
        return counts;
    }

    private static List<TurnEvalRow> filter(List<TurnEvalRow> rows, Predicate<TurnEvalRow> eligible) {
        return rows.stream().filter(eligible).toList();
    }

    private static int sum(List<TurnEvalRow> rows, ToIntFunction<TurnEvalRow> value) {
        return rows.stream().mapToInt(value).sum();
    }

    private static int count(List<TurnEvalRow> rows, Predicate<TurnEvalRow> test) {
        return (int) rows.stream().filter(test).count();
    }

    private static double ratio(double numerator, int denominator) {
        return denominator == 0 ? 0.0 : numerator / denominator;
    }
}
