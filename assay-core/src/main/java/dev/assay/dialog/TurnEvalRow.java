package dev.assay.dialog;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.dialog.internal.TurnScorer;
import java.util.List;
import java.util.Objects;

/**
 * The per-turn evidence the metrics aggregate, a line of {@code turn_eval.jsonl} (docs/dialog-metrics.md §1.3), written
 * in this key order. Built by {@link TurnScorer}.
 *
 * @param traceVersion always {@code v1}
 * @param runId the run's id
 * @param dialogId the dialog's id
 * @param turnPairId 1-based pair number
 * @param eligibleM1 turn ok and at least one resolvable memory key
 * @param eligibleM2 always false (M2 is scored per dialog)
 * @param eligibleM3 turn ok and at least one required risk tag
 * @param eligibleM4 turn ok
 * @param eligibleM5 turn ok and at least one rubric item
 * @param requiredKeysRaw the turn's {@code memory_required_keys_gt} (empty when blanked by the baseline option)
 * @param resolvedKeys one resolution per raw key, in order
 * @param keyHitFlags 1/0 per key found in memory: per resolvable key only under memfin-v1 (so not index-aligned with
 *     {@code resolvedKeys}), per resolved key under the corrected profile
 * @param keyHitSources the sources ({@code short_term}, {@code long_term}, {@code profile}) per key, aligned like
 *     {@code keyHitFlags}
 * @param m1SourceHits keys hit per source
 * @param constraintContradiction 1 when the reply contradicts a profile constraint, else 0
 * @param riskRequiredTags the required risk tags, canonical where known (unknown ones lower-cased)
 * @param riskPredTags the canonical tags the reply mentions, sorted
 * @param riskTagHits required tags covered
 * @param forbiddenHits forbidden-list phrases found in the reply, in list order
 * @param predComplianceLabel compliant, minor_violation or severe_violation
 * @param gtComplianceLabel the reference label (compliant when absent or unknown)
 * @param rubricRequired the turn's rubric items
 * @param rubricHitItems the rubric items the reply covers, in required order
 * @param judgeScore1To5 {@code round(1 + 4·hits/required, 2)}; null when the turn has no rubric
 */
public record TurnEvalRow(
        String traceVersion,
        String runId,
        String dialogId,
        int turnPairId,
        boolean eligibleM1,
        boolean eligibleM2,
        boolean eligibleM3,
        boolean eligibleM4,
        boolean eligibleM5,
        List<String> requiredKeysRaw,
        List<ResolvedKey> resolvedKeys,
        List<Integer> keyHitFlags,
        List<List<String>> keyHitSources,
        SourceHits m1SourceHits,
        int constraintContradiction,
        List<String> riskRequiredTags,
        List<String> riskPredTags,
        int riskTagHits,
        List<String> forbiddenHits,
        String predComplianceLabel,
        String gtComplianceLabel,
        List<String> rubricRequired,
        List<String> rubricHitItems,
        Double judgeScore1To5) {
    public TurnEvalRow {
        Objects.requireNonNull(dialogId, "dialogId");
        requiredKeysRaw = List.copyOf(requiredKeysRaw);
        resolvedKeys = List.copyOf(resolvedKeys);
        keyHitFlags = List.copyOf(keyHitFlags);
        keyHitSources = keyHitSources.stream().map(List::copyOf).toList();
        riskRequiredTags = List.copyOf(riskRequiredTags);
        riskPredTags = List.copyOf(riskPredTags);
        forbiddenHits = List.copyOf(forbiddenHits);
        rubricRequired = List.copyOf(rubricRequired);
        rubricHitItems = List.copyOf(rubricHitItems);
    }

    /** {@return the number of resolvable memory keys (M1's per-turn denominator)} */
    public int resolvableKeys() {
        return (int) resolvedKeys.stream().filter(ResolvedKey::resolvable).count();
    }

    /** {@return the number of memory keys found in at least one source} */
    public int keysHit() {
        return (int) keyHitFlags.stream().filter(flag -> flag == 1).count();
    }

    /** {@return the row JSON in the reference's key order} */
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("trace_version", traceVersion);
        node.put("run_id", runId);
        node.put("dialog_id", dialogId);
        node.put("turn_pair_id", turnPairId);
        node.put("eligible_m1", eligibleM1);
        node.put("eligible_m2", eligibleM2);
        node.put("eligible_m3", eligibleM3);
        node.put("eligible_m4", eligibleM4);
        node.put("eligible_m5", eligibleM5);
        strings(node.putArray("required_keys_raw"), requiredKeysRaw);
        ArrayNode resolved = node.putArray("resolved_keys");
        resolvedKeys.forEach(key -> resolved.add(key.toJson()));
        ArrayNode flags = node.putArray("key_hit_flags");
        keyHitFlags.forEach(flags::add);
        ArrayNode sources = node.putArray("key_hit_sources");
        keyHitSources.forEach(list -> strings(sources.addArray(), list));
        node.set("m1_source_hits", m1SourceHits.toJson());
        node.put("constraint_contradiction", constraintContradiction);
        strings(node.putArray("risk_required_tags"), riskRequiredTags);
        strings(node.putArray("risk_pred_tags"), riskPredTags);
        node.put("risk_tag_hits", riskTagHits);
        strings(node.putArray("forbidden_hits"), forbiddenHits);
        node.put("pred_compliance_label", predComplianceLabel);
        node.put("gt_compliance_label", gtComplianceLabel);
        strings(node.putArray("rubric_required"), rubricRequired);
        strings(node.putArray("rubric_hit_items"), rubricHitItems);
        node.put("judge_score_1_5", judgeScore1To5);
        return node;
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }
}
