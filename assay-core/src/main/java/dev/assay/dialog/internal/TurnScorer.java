package dev.assay.dialog.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.dialog.Dialog;
import dev.assay.dialog.DialogTrace;
import dev.assay.dialog.ResolvedKey;
import dev.assay.dialog.SourceHits;
import dev.assay.dialog.TurnEvalRow;
import dev.assay.dialog.TurnPair;
import dev.assay.dialog.TurnTrace;
import dev.assay.run.MetricsProfile;
import dev.assay.run.ScoreOptions;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds the {@link TurnEvalRow}s of a dialog trace: key resolution and memory hits (M1), risk tags (M3), compliance
 * labels (M4) and rubric hits (M5), exactly as docs/dialog-metrics.md §2 describes. Every value is computed for every
 * turn; the turn's status only decides eligibility. Never throws on malformed traces. Thread-safe (stateless).
 */
public final class TurnScorer {
    private static final Pattern PROFILE_FIELD =
            Pattern.compile("profile_gt\\.(risk_level_gt|horizon_gt|liquidity_need_gt)");
    private static final Pattern PROFILE_LIST =
            Pattern.compile("profile_gt\\.(constraints_gt|preferences_gt)\\[(\\d+)]");
    private static final Pattern HISTORY = Pattern.compile("history_turn_index:(\\d+)");
    // Python's re is Unicode-aware for \d and \s (docs/dialog-metrics.md §3, item 3).
    private static final Pattern DRAWDOWN_LIMIT = Pattern.compile("最大回撤<\\s*(\\d+)%", Pattern.UNICODE_CHARACTER_CLASS);
    private static final Pattern PERCENT = Pattern.compile("(\\d+)\\s*%", Pattern.UNICODE_CHARACTER_CLASS);
    private static final List<String> COMPLIANCE_LABELS = List.of("compliant", "minor_violation", "severe_violation");

    private TurnScorer() {}

    /**
     * {@return one row per turn of a valid dialog, in turn order; no rows for an invalid one}
     *
     * @param trace the dialog's trace, ground truth embedded
     * @param options the metrics profile and baseline option
     */
    public static List<TurnEvalRow> rows(DialogTrace trace, ScoreOptions options) {
        if (!trace.validDialog()) {
            return List.of();
        }
        List<String> userTexts = userTexts(trace);
        List<String> constraints = strings(trace.profileGt().get("constraints_gt"));
        List<String> forbidden = strings(trace.blueprint().get("forbidden_list"));
        var rows = new ArrayList<TurnEvalRow>();
        for (TurnTrace turn : trace.turns()) {
            rows.add(row(trace, turn, userTexts, constraints, forbidden, options));
        }
        return rows;
    }

    private static TurnEvalRow row(
            DialogTrace trace,
            TurnTrace turn,
            List<String> userTexts,
            List<String> constraints,
            List<String> forbidden,
            ScoreOptions options) {
        JsonNode tags = turn.gtTurnTags();
        String reply = turn.predAssistantText();

        List<String> rawKeys = options.blankMemoryKeys() ? List.of() : strings(tags.get("memory_required_keys_gt"));
        var resolved = new ArrayList<ResolvedKey>();
        for (String key : rawKeys) {
            resolved.add(resolve(key, trace, userTexts));
        }
        var flags = new ArrayList<Integer>();
        var sources = new ArrayList<List<String>>();
        int shortTerm = 0;
        int longTerm = 0;
        int profile = 0;
        for (ResolvedKey key : resolved) {
            if (!key.resolvable()) {
                if (options.profile().alignsKeyHitFlags()) {
                    flags.add(0);
                    sources.add(List.of());
                }
                continue;
            }
            List<String> found = memorySources(key.targetText(), turn.recall());
            shortTerm += found.contains("short_term") ? 1 : 0;
            longTerm += found.contains("long_term") ? 1 : 0;
            profile += found.contains("profile") ? 1 : 0;
            flags.add(found.isEmpty() ? 0 : 1);
            sources.add(found);
        }
        int resolvable = (int) resolved.stream().filter(ResolvedKey::resolvable).count();

        List<String> riskRequired = requiredRiskTags(strings(tags.get("risk_disclosure_required_gt")));
        List<String> riskPredicted = predictedRiskTags(reply);
        int riskHits = riskHits(riskRequired, riskPredicted);

        List<String> forbiddenHits = forbiddenHits(forbidden, reply, options.profile());
        String predLabel = predictedComplianceLabel(forbiddenHits, turn.compliance());
        String gtLabel = groundTruthComplianceLabel(tags.get("compliance_label_gt"));

        List<String> rubric = strings(tags.get("explainability_rubric_gt"));
        List<String> rubricHits =
                rubric.stream().filter(item -> rubricHit(item, reply)).toList();

        boolean ok = turn.ok();
        return new TurnEvalRow(
                DialogTrace.VERSION,
                trace.runId(),
                trace.dialogId(),
                turn.turnPairId(),
                ok && resolvable > 0,
                false,
                ok && !riskRequired.isEmpty(),
                ok,
                ok && !rubric.isEmpty(),
                rawKeys,
                resolved,
                flags,
                sources,
                new SourceHits(shortTerm, longTerm, profile),
                contradiction(reply, constraints),
                riskRequired,
                riskPredicted,
                riskHits,
                forbiddenHits,
                predLabel,
                gtLabel,
                rubric,
                rubricHits,
                judgeScore(rubricHits.size(), rubric.size()));
    }

    /** The aligned user texts that {@code history_turn_index:n} refers to; the trace's own turns when no raw turns. */
    private static List<String> userTexts(DialogTrace trace) {
        if (trace.rawTurns().isArray() && !trace.rawTurns().isEmpty()) {
            return Dialog.align(trace.rawTurns()).stream()
                    .map(TurnPair::userText)
                    .toList();
        }
        return trace.turns().stream().map(TurnTrace::userText).toList();
    }

    static ResolvedKey resolve(String key, DialogTrace trace, List<String> userTexts) {
        JsonNode profile = trace.profileGt();
        Matcher field = PROFILE_FIELD.matcher(key);
        if (field.matches()) {
            JsonNode value = profile.get(field.group(1));
            return value == null || value.isNull()
                    ? ResolvedKey.unresolved(key)
                    : new ResolvedKey(key, true, pythonStr(value), "profile_field");
        }
        Matcher list = PROFILE_LIST.matcher(key);
        if (list.matches()) {
            JsonNode values = profile.get(list.group(1));
            int index = index(list.group(2));
            if (values == null || !values.isArray() || index < 0 || index >= values.size()) {
                return ResolvedKey.unresolved(key);
            }
            return new ResolvedKey(key, true, pythonStr(values.get(index)), list.group(1));
        }
        Matcher history = HISTORY.matcher(key);
        if (history.matches()) {
            int n = index(history.group(1));
            if (n >= 1 && n <= userTexts.size()) {
                return new ResolvedKey(key, true, userTexts.get(n - 1), "history_user_turn");
            }
            JsonNode raw = trace.rawTurns();
            if (n >= 1 && raw.isArray() && n <= raw.size()) {
                String text = Dialog.text(raw.get(n - 1));
                if (!text.isEmpty()) {
                    return new ResolvedKey(key, true, text, "history_abs_turn");
                }
            }
        }
        return ResolvedKey.unresolved(key);
    }

    /** {@return the memory sources containing the text, in the order short_term, long_term, profile} */
    static List<String> memorySources(String target, JsonNode recall) {
        if (recall == null || !recall.isObject()) {
            return List.of();
        }
        var longTerm = new ArrayList<String>();
        for (JsonNode item : recall.path("items")) {
            longTerm.add(pythonStrOrEmpty(item.get("content")));
        }
        var found = new ArrayList<String>();
        if (pythonStrOrEmpty(recall.get("short_term_context")).contains(target)) {
            found.add("short_term");
        }
        if (String.join("\n", longTerm).contains(target)) {
            found.add("long_term");
        }
        if (pythonStrOrEmpty(recall.get("profile_context")).contains(target)) {
            found.add("profile");
        }
        return found;
    }

    /** {@return 1 when the reply triggers a constraint rule (docs/dialog-metrics.md §2.2, coarse by design), else 0} */
    static int contradiction(String reply, List<String> constraints) {
        if (reply.isEmpty() || constraints.isEmpty()) {
            return 0;
        }
        boolean guarded = ReferenceTables.CONTRADICTION_GUARDS.stream().anyMatch(reply::contains);
        for (String constraint : constraints) {
            if (constraint.startsWith("最大回撤<")) {
                Matcher limit = DRAWDOWN_LIMIT.matcher(constraint);
                if (limit.find() && reply.contains("回撤") && anyPercentAbove(reply, new BigInteger(limit.group(1)))) {
                    return 1;
                }
            }
            List<String> keywords = ReferenceTables.CONTRADICTION_KEYWORDS.get(constraint);
            if (!guarded && keywords != null && keywords.stream().anyMatch(reply::contains)) {
                return 1;
            }
        }
        return 0;
    }

    private static boolean anyPercentAbove(String reply, BigInteger limit) {
        Matcher percent = PERCENT.matcher(reply);
        while (percent.find()) {
            // BigInteger: Python ints do not overflow, and it reads non-ASCII digits as int() does.
            if (new BigInteger(percent.group(1)).compareTo(limit) > 0) {
                return true;
            }
        }
        return false;
    }

    static List<String> requiredRiskTags(List<String> groundTruth) {
        var tags = new ArrayList<String>();
        for (String raw : groundTruth) {
            String tag = raw.strip();
            if (!tag.isEmpty()) {
                tags.add(canonicalRiskTag(tag));
            }
        }
        return tags;
    }

    private static String canonicalRiskTag(String tag) {
        for (Map.Entry<String, List<String>> entry : ReferenceTables.RISK_ALIASES.entrySet()) {
            if (entry.getKey().equals(tag) || entry.getValue().contains(tag)) {
                return entry.getKey();
            }
        }
        return tag.toLowerCase(Locale.ROOT);
    }

    static List<String> predictedRiskTags(String reply) {
        var tags = new TreeSet<String>();
        ReferenceTables.RISK_KEYWORDS.forEach((tag, keywords) -> {
            if (keywords.stream().anyMatch(reply::contains)) {
                tags.add(tag);
            }
        });
        return List.copyOf(tags);
    }

    static int riskHits(List<String> required, List<String> predicted) {
        int hits = 0;
        for (String tag : required) {
            boolean disclosure = tag.equals(ReferenceTables.RISK_DISCLOSURE_PRESENT) && !predicted.isEmpty();
            if (disclosure || predicted.contains(tag)) {
                hits++;
            }
        }
        return hits;
    }

    static List<String> forbiddenHits(List<String> forbidden, String reply, MetricsProfile profile) {
        return forbidden.stream()
                .filter(phrase -> !phrase.isEmpty())
                .filter(phrase -> profile.ignoresNegatedForbiddenPhrases()
                        ? occursUnnegated(phrase, reply)
                        : reply.contains(phrase))
                .toList();
    }

    private static boolean occursUnnegated(String phrase, String reply) {
        for (int at = reply.indexOf(phrase); at >= 0; at = reply.indexOf(phrase, at + 1)) {
            String before = reply.substring(Math.max(0, at - ReferenceTables.NEGATION_WINDOW), at);
            if (ReferenceTables.NEGATIONS.stream().noneMatch(before::contains)) {
                return true;
            }
        }
        return false;
    }

    static String predictedComplianceLabel(List<String> forbiddenHits, JsonNode compliance) {
        if (!forbiddenHits.isEmpty()) {
            return "severe_violation";
        }
        JsonNode violations = compliance == null ? null : compliance.get("violations");
        if (violations == null || !violations.isArray() || violations.isEmpty()) {
            return "compliant";
        }
        for (JsonNode violation : violations) {
            String type = pythonStrOrEmpty(violation.get("type"));
            String severity = pythonStrOrEmpty(violation.get("severity")).toLowerCase(Locale.ROOT);
            if (ReferenceTables.SEVERE_VIOLATION_TYPES.contains(type) || severity.equals("high")) {
                return "severe_violation";
            }
        }
        return "minor_violation";
    }

    static String groundTruthComplianceLabel(JsonNode label) {
        String value =
                label == null || label.isNull() ? "" : pythonStr(label).strip().toLowerCase(Locale.ROOT);
        return COMPLIANCE_LABELS.contains(value) ? value : "compliant";
    }

    static boolean rubricHit(String item, String reply) {
        List<String> keywords = ReferenceTables.RUBRIC_KEYWORDS.getOrDefault(item, List.of(item));
        return keywords.stream().anyMatch(reply::contains);
    }

    /** Python's {@code round(1 + 4 * hits / required, 2)}: half-even on the exact binary value. */
    static Double judgeScore(int hits, int required) {
        if (required == 0) {
            return null;
        }
        double raw = 1 + (4.0 * hits) / required;
        return new BigDecimal(raw).setScale(2, RoundingMode.HALF_EVEN).doubleValue();
    }

    /** {@return the string elements of a JSON array (other elements as Python's str would render them)} */
    static List<String> strings(JsonNode array) {
        if (array == null || !array.isArray()) {
            return List.of();
        }
        var values = new ArrayList<String>();
        array.forEach(element -> values.add(pythonStr(element)));
        return values;
    }

    private static int index(String digits) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }

    static String pythonStr(JsonNode value) {
        return value.isTextual() ? value.textValue() : PythonJson.line(value);
    }

    private static String pythonStrOrEmpty(JsonNode value) {
        return value == null || value.isNull() ? "" : pythonStr(value);
    }
}
