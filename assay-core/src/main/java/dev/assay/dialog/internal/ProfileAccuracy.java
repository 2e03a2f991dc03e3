package dev.assay.dialog.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.dialog.DialogTrace;
import dev.assay.dialog.TurnTrace;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * M2 for one dialog: how well the profile the target built (its last profile snapshot, else its replies) matches
 * {@code profile_gt} (docs/dialog-metrics.md §2.3). Thread-safe (stateless).
 */
public final class ProfileAccuracy {
    static final String UNKNOWN = "unknown";

    private ProfileAccuracy() {}

    /** {@return whether M2 scores the dialog: valid, with a non-empty {@code profile_gt}} */
    public static boolean eligible(DialogTrace trace) {
        return trace.validDialog()
                && trace.profileGt().isObject()
                && !trace.profileGt().isEmpty();
    }

    /** {@return the dialog's six values in the written order} */
    public static Map<String, Double> score(DialogTrace trace) {
        JsonNode gt = trace.profileGt();
        String gtRisk = normalise(gt.get("risk_level_gt"), ReferenceTables.RISK_LEVELS);
        String gtHorizon = normalise(gt.get("horizon_gt"), ReferenceTables.HORIZONS);
        String gtLiquidity = normalise(gt.get("liquidity_need_gt"), ReferenceTables.LIQUIDITY_NEEDS);
        Set<String> gtConstraints = new HashSet<>(TurnScorer.strings(gt.get("constraints_gt")));
        Set<String> gtPreferences = new HashSet<>(TurnScorer.strings(gt.get("preferences_gt")));

        String risk = UNKNOWN;
        String horizon = UNKNOWN;
        String liquidity = UNKNOWN;
        var constraints = new HashSet<String>();
        var preferences = new HashSet<String>();
        JsonNode snapshot = lastSnapshot(trace.turns());
        if (snapshot != null && !snapshot.isEmpty()) {
            risk = normalise(snapshot.get("risk_level"), ReferenceTables.RISK_LEVELS);
            horizon = normalise(snapshot.get("investment_horizon"), ReferenceTables.HORIZONS);
            liquidity = normalise(snapshot.get("liquidity_need"), ReferenceTables.LIQUIDITY_NEEDS);
            preferences.addAll(TurnScorer.strings(snapshot.get("preferred_topics")));
            constraints.addAll(TurnScorer.strings(snapshot.get("forbidden_assets")));
        }
        // Error turns contribute "" (docs/dialog-metrics.md §3, item 4: they are not excluded).
        String replies =
                trace.turns().stream().map(TurnTrace::predAssistantText).collect(Collectors.joining("\n"));
        risk = risk.equals(UNKNOWN) ? fromText(replies, ReferenceTables.RISK_TEXT_RULES) : risk;
        horizon = horizon.equals(UNKNOWN) ? fromText(replies, ReferenceTables.HORIZON_TEXT_RULES) : horizon;
        liquidity = liquidity.equals(UNKNOWN) ? fromText(replies, ReferenceTables.LIQUIDITY_TEXT_RULES) : liquidity;
        gtConstraints.stream().filter(replies::contains).forEach(constraints::add);
        gtPreferences.stream().filter(replies::contains).forEach(preferences::add);

        double riskAcc = accuracy(risk, gtRisk);
        double horizonAcc = accuracy(horizon, gtHorizon);
        double liquidityAcc = accuracy(liquidity, gtLiquidity);
        double constraintsF1 = f1(constraints, gtConstraints);
        double preferencesF1 = f1(preferences, gtPreferences);
        var values = new LinkedHashMap<String, Double>();
        values.put("risk_level_acc", riskAcc);
        values.put("horizon_acc", horizonAcc);
        values.put("liquidity_acc", liquidityAcc);
        values.put("constraints_f1", constraintsF1);
        values.put("preferences_f1", preferencesF1);
        values.put("profile_score", (riskAcc + horizonAcc + liquidityAcc + constraintsF1 + preferencesF1) / 5);
        return values;
    }

    /** The last object snapshot; an empty one still counts as the last (and then hides earlier ones). */
    private static JsonNode lastSnapshot(List<TurnTrace> turns) {
        JsonNode last = null;
        for (TurnTrace turn : turns) {
            if (turn.profileSnapshot().isObject()) {
                last = turn.profileSnapshot();
            }
        }
        return last;
    }

    static String normalise(JsonNode value, Map<String, String> table) {
        if (value == null || value.isNull()) {
            return UNKNOWN;
        }
        return table.getOrDefault(TurnScorer.pythonStr(value).strip(), UNKNOWN);
    }

    static String fromText(String text, Map<String, List<String>> rules) {
        for (Map.Entry<String, List<String>> rule : rules.entrySet()) {
            if (rule.getValue().stream().anyMatch(text::contains)) {
                return rule.getKey();
            }
        }
        return UNKNOWN;
    }

    private static double accuracy(String predicted, String groundTruth) {
        return !groundTruth.equals(UNKNOWN) && predicted.equals(groundTruth) ? 1.0 : 0.0;
    }

    public static double f1(Set<String> predicted, Set<String> groundTruth) {
        if (groundTruth.isEmpty()) {
            return predicted.isEmpty() ? 1.0 : 0.0;
        }
        var common = new HashSet<>(predicted);
        common.retainAll(groundTruth);
        double precision = predicted.isEmpty() ? 0.0 : (double) common.size() / predicted.size();
        double recall = (double) common.size() / groundTruth.size();
        if (precision + recall == 0) {
            return 0.0;
        }
        return 2 * precision * recall / (precision + recall);
    }
}
