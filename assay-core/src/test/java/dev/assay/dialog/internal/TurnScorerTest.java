package dev.assay.dialog.internal;

import static dev.assay.dialog.Dialogs.F;
import static dev.assay.dialog.Dialogs.answered;
import static dev.assay.dialog.Dialogs.assistant;
import static dev.assay.dialog.Dialogs.dialog;
import static dev.assay.dialog.Dialogs.recall;
import static dev.assay.dialog.Dialogs.user;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.dialog.Dialog;
import dev.assay.dialog.DialogStatus;
import dev.assay.dialog.DialogTrace;
import dev.assay.dialog.Dialogs;
import dev.assay.dialog.ResolvedKey;
import dev.assay.dialog.SourceHits;
import dev.assay.dialog.TurnEvalRow;
import dev.assay.run.MetricsProfile;
import dev.assay.run.ScoreOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

class TurnScorerTest {
    private static final ScoreOptions V1 = ScoreOptions.defaults();
    private static final ScoreOptions CORRECTED = new ScoreOptions(MetricsProfile.CORRECTED, false);

    private static TurnEvalRow score(
            List<String> keys,
            List<String> risks,
            List<String> rubric,
            String reply,
            ObjectNode recall,
            ScoreOptions options) {
        Dialog dialog = Dialogs.only(
                dialog("d1", user("我想稳健投资"), assistant("a1"), user("第二个问题"), assistant("a2", keys, risks, rubric)));
        DialogTrace trace = Dialogs.trace(
                dialog,
                answered(dialog.pairs().get(0), "ok", null),
                answered(dialog.pairs().get(1), reply, recall));
        return TurnScorer.rows(trace, options).get(1);
    }

    private static TurnEvalRow keys(List<String> keys, ObjectNode recall, ScoreOptions options) {
        return score(keys, List.of(), List.of(), "reply", recall, options);
    }

    @Test
    void profile_fields_and_list_entries_resolve_to_their_values() {
        TurnEvalRow row = keys(
                List.of("profile_gt.risk_level_gt", "profile_gt.constraints_gt[1]", "profile_gt.preferences_gt[0]"),
                null,
                V1);

        assertThat(row.resolvedKeys())
                .extracting(ResolvedKey::targetText, ResolvedKey::resolver)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("稳健", "profile_field"),
                        org.assertj.core.groups.Tuple.tuple("不使用杠杆", "constraints_gt"),
                        org.assertj.core.groups.Tuple.tuple("宽基指数基金", "preferences_gt"));
    }

    @Test
    void an_out_of_range_index_and_an_unknown_key_are_unresolvable() {
        TurnEvalRow row = keys(List.of("profile_gt.constraints_gt[5]", "profile_gt.age"), null, V1);

        assertThat(row.resolvedKeys())
                .extracting(ResolvedKey::resolvable, ResolvedKey::resolver)
                .containsOnly(org.assertj.core.groups.Tuple.tuple(false, "unresolved"));
        assertThat(row.eligibleM1()).isFalse();
    }

    @Test
    void a_history_key_resolves_to_the_nth_user_turn() {
        TurnEvalRow row = keys(List.of("history_turn_index:1"), null, V1);

        assertThat(row.resolvedKeys().getFirst())
                .isEqualTo(new ResolvedKey("history_turn_index:1", true, "我想稳健投资", "history_user_turn"));
    }

    @Test
    void a_history_key_beyond_the_pairs_falls_back_to_the_absolute_turn() {
        TurnEvalRow row = keys(List.of("history_turn_index:4"), null, V1);

        assertThat(row.resolvedKeys().getFirst())
                .isEqualTo(new ResolvedKey("history_turn_index:4", true, "a2", "history_abs_turn"));
    }

    @Test
    void a_history_key_beyond_all_turns_is_unresolvable() {
        assertThat(keys(List.of("history_turn_index:9"), null, V1)
                        .resolvedKeys()
                        .getFirst()
                        .resolvable())
                .isFalse();
    }

    @Test
    void a_key_is_hit_in_each_memory_source_that_contains_its_text() {
        TurnEvalRow row =
                keys(List.of("profile_gt.risk_level_gt"), recall("user: 我比较稳健", "风险偏好: 稳健", "其他", "用户稳健"), V1);

        assertThat(row.keyHitSources()).containsExactly(List.of("short_term", "long_term", "profile"));
        assertThat(row.m1SourceHits()).isEqualTo(new SourceHits(1, 1, 1));
        assertThat(row.keyHitFlags()).containsExactly(1);
    }

    @Test
    void without_recall_every_key_misses() {
        TurnEvalRow row = keys(List.of("profile_gt.risk_level_gt"), null, V1);

        assertThat(row.keyHitFlags()).containsExactly(0);
        assertThat(row.eligibleM1()).isTrue();
    }

    @Test
    void memfin_v1_writes_hit_flags_for_resolvable_keys_only() {
        TurnEvalRow row = keys(List.of("profile_gt.age", "profile_gt.risk_level_gt"), recall("稳健", ""), V1);

        assertThat(row.keyHitFlags()).containsExactly(1);
        assertThat(row.keyHitSources()).containsExactly(List.of("short_term"));
    }

    @Test
    void the_corrected_profile_aligns_hit_flags_with_resolved_keys() {
        TurnEvalRow row = keys(List.of("profile_gt.age", "profile_gt.risk_level_gt"), recall("稳健", ""), CORRECTED);

        assertThat(row.keyHitFlags()).containsExactly(0, 1);
        assertThat(row.keyHitSources()).containsExactly(List.of(), List.of("short_term"));
        assertThat(row.keysHit()).isEqualTo(1);
    }

    @Test
    void blanking_memory_keys_leaves_no_m1_eligible_turn() {
        TurnEvalRow row = keys(
                List.of("profile_gt.risk_level_gt"),
                recall("稳健", ""),
                new ScoreOptions(MetricsProfile.MEMFIN_V1, true));

        assertThat(row.requiredKeysRaw()).isEmpty();
        assertThat(row.eligibleM1()).isFalse();
    }

    @Test
    void any_percentage_above_the_drawdown_limit_contradicts_once_drawdown_is_mentioned() {
        assertThat(TurnScorer.contradiction("回撤可控，保留20%现金", List.of("最大回撤<10%")))
                .isEqualTo(1);
        assertThat(TurnScorer.contradiction("保留20%现金", List.of("最大回撤<10%"))).isZero();
        assertThat(TurnScorer.contradiction("回撤不超过8 %", List.of("最大回撤<10%"))).isZero();
    }

    @Test
    void a_huge_percentage_does_not_overflow() {
        assertThat(TurnScorer.contradiction("回撤 99999999999999999999%", List.of("最大回撤<10%")))
                .isEqualTo(1);
    }

    @Test
    void keyword_rules_contradict_unless_a_guard_word_appears_anywhere() {
        assertThat(TurnScorer.contradiction("可以考虑融资融券", List.of("不使用杠杆"))).isEqualTo(1);
        assertThat(TurnScorer.contradiction("请谨慎，可以考虑融资融券", List.of("不使用杠杆"))).isZero();
        assertThat(TurnScorer.contradiction("", List.of("不使用杠杆"))).isZero();
    }

    @Test
    void risk_tags_map_aliases_to_canonical_ids_and_keep_unknown_tags_unhittable() {
        TurnEvalRow row = score(List.of(), List.of(" 波动风险", "政策风险", "", "Policy"), List.of(), "注意回撤和政策风险", null, V1);

        assertThat(row.riskRequiredTags()).containsExactly("volatility_risk", "政策风险", "policy");
        assertThat(row.riskPredTags()).containsExactly("volatility_risk");
        assertThat(row.riskTagHits()).isEqualTo(1);
    }

    @Test
    void the_disclosure_present_tag_is_hit_by_any_predicted_tag() {
        TurnEvalRow row = score(List.of(), List.of("无明确风险提示"), List.of(), "仅供参考", null, V1);

        assertThat(row.riskRequiredTags()).containsExactly("risk_disclosure_present");
        assertThat(row.riskTagHits()).isEqualTo(1);
    }

    @Test
    void predicted_risk_tags_are_sorted() {
        assertThat(TurnScorer.predictedRiskTags("违约风险与波动")).containsExactly("credit_risk", "volatility_risk");
    }

    @Test
    void a_forbidden_phrase_in_a_negated_disclaimer_is_severe_under_memfin_v1() {
        TurnEvalRow row = score(List.of(), List.of(), List.of(), "我们不承诺保本保收益", null, V1);

        assertThat(row.forbiddenHits()).containsExactly("保本保收益");
        assertThat(row.predComplianceLabel()).isEqualTo("severe_violation");
    }

    @Test
    void the_corrected_profile_ignores_negated_forbidden_phrases() {
        TurnEvalRow row = score(List.of(), List.of(), List.of(), "我们不承诺保本保收益", null, CORRECTED);

        assertThat(row.forbiddenHits()).isEmpty();
        assertThat(row.predComplianceLabel()).isEqualTo("compliant");
    }

    @Test
    void the_corrected_profile_still_counts_an_unnegated_forbidden_phrase() {
        TurnEvalRow row = score(List.of(), List.of(), List.of(), "本产品保本保收益", null, CORRECTED);

        assertThat(row.forbiddenHits()).containsExactly("保本保收益");
    }

    @Test
    void guard_violations_decide_between_minor_and_severe() {
        ObjectNode minor = F.objectNode();
        minor.putArray("violations").addObject().put("type", "certainty").put("severity", "medium");
        ObjectNode insider = F.objectNode();
        insider.putArray("violations").addObject().put("type", "insider").put("severity", "medium");
        ObjectNode high = F.objectNode();
        high.putArray("violations").addObject().put("type", "forbidden_phrase").put("severity", "HIGH");

        assertThat(TurnScorer.predictedComplianceLabel(List.of(), minor)).isEqualTo("minor_violation");
        assertThat(TurnScorer.predictedComplianceLabel(List.of(), insider)).isEqualTo("severe_violation");
        assertThat(TurnScorer.predictedComplianceLabel(List.of(), high)).isEqualTo("severe_violation");
        assertThat(TurnScorer.predictedComplianceLabel(List.of(), null)).isEqualTo("compliant");
    }

    @Test
    void an_unknown_or_missing_reference_label_counts_as_compliant() {
        assertThat(TurnScorer.groundTruthComplianceLabel(F.textNode(" Severe_Violation ")))
                .isEqualTo("severe_violation");
        assertThat(TurnScorer.groundTruthComplianceLabel(F.textNode("bad"))).isEqualTo("compliant");
        assertThat(TurnScorer.groundTruthComplianceLabel(null)).isEqualTo("compliant");
    }

    @Test
    void rubric_items_are_hit_by_keywords_or_by_their_own_name() {
        TurnEvalRow row = score(List.of(), List.of(), List.of("信息依据", "边界声明", "自定义项"), "根据财报数据，自定义项如下", null, V1);

        assertThat(row.rubricHitItems()).containsExactly("信息依据", "自定义项");
        assertThat(row.judgeScore1To5()).isEqualTo(3.67);
    }

    @Test
    void the_judge_score_rounds_like_python() {
        assertThat(TurnScorer.judgeScore(1, 3)).isEqualTo(2.33);
        assertThat(TurnScorer.judgeScore(0, 4)).isEqualTo(1.0);
        assertThat(TurnScorer.judgeScore(0, 0)).isNull();
    }

    @Test
    void an_error_turn_gets_a_row_with_no_eligibility() {
        Dialog dialog = Dialogs.only(dialog(
                "d1",
                user("q"),
                assistant("a", List.of("profile_gt.risk_level_gt"), List.of("波动风险"), List.of("信息依据"))));
        DialogTrace trace = Dialogs.trace(dialog, Dialogs.failed(dialog.pairs().getFirst()));

        TurnEvalRow row = TurnScorer.rows(trace, V1).getFirst();

        assertThat(List.of(row.eligibleM1(), row.eligibleM2(), row.eligibleM3(), row.eligibleM4(), row.eligibleM5()))
                .containsOnly(false);
        assertThat(row.judgeScore1To5()).isEqualTo(1.0);
    }

    @Test
    void an_invalid_dialog_has_no_rows() {
        Dialog dialog = Dialogs.dataset("garbage").dialogs().getFirst();

        assertThat(TurnScorer.rows(DialogTrace.of("r", dialog, DialogStatus.SKIPPED, List.of(), null), V1))
                .isEmpty();
    }
}
