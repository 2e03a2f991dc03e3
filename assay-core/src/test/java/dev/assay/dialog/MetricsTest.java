package dev.assay.dialog;

import static dev.assay.dialog.Dialogs.F;
import static dev.assay.dialog.Dialogs.answered;
import static dev.assay.dialog.Dialogs.assistant;
import static dev.assay.dialog.Dialogs.dialog;
import static dev.assay.dialog.Dialogs.recall;
import static dev.assay.dialog.Dialogs.user;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.dialog.internal.ProfileAccuracy;
import dev.assay.run.ScoreOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MetricsTest {
    private static final List<String> KEYS = List.of("profile_gt.risk_level_gt", "profile_gt.preferences_gt[0]");
    private static final List<String> RISKS = List.of("波动风险", "不保证收益");
    private static final List<String> RUBRIC = List.of("信息依据", "边界声明");

    private static Dialog twoPairs(String id) {
        return Dialogs.only(dialog(
                id,
                user("q1"),
                assistant("a1", KEYS, RISKS, RUBRIC),
                user("q2"),
                assistant("a2", KEYS, RISKS, RUBRIC)));
    }

    private static EvalSummary summarize(DialogTrace... traces) {
        return Scoring.score(List.of(traces), Optional.empty(), "r1", "test.jsonl", ScoreOptions.defaults())
                .summary();
    }

    @Test
    void no_traces_give_zero_values_and_zero_eligible_counts() {
        EvalSummary summary = summarize();

        assertThat(summary.metrics().values()).allSatisfy(metric -> {
            assertThat(metric.micro().values()).containsOnly(0.0);
            assertThat(metric.macro().values()).containsOnly(0.0);
            assertThat(metric.counts()).containsEntry("eligible_count", 0);
            assertThat(metric.byDialog()).isEmpty();
        });
    }

    @Test
    void an_invalid_dialog_counts_as_skipped_and_failed_in_m2_only() {
        Dialog invalid = Dialogs.dataset("garbage").dialogs().getFirst();

        EvalSummary summary = summarize(DialogTrace.of("r1", invalid, DialogStatus.SKIPPED, List.of(), null));

        assertThat(summary.metric(Metrics.M2).counts())
                .containsEntry("eligible_count", 0)
                .containsEntry("skipped_count", 1)
                .containsEntry("failed_count", 1);
        assertThat(summary.metric(Metrics.M1).counts()).containsEntry("skipped_count", 0);
        assertThat(summary.counters()).isEqualTo(new Counters(1, 0, 1, 0, 0));
    }

    @Test
    void m1_pools_keys_over_eligible_turns_and_averages_strict_hits_per_turn() {
        Dialog dialog = twoPairs("d1");
        DialogTrace trace = Dialogs.trace(
                dialog,
                answered(dialog.pairs().get(0), "回答", recall("稳健 宽基指数基金", "")),
                answered(dialog.pairs().get(1), "回答", recall("稳健", "")));

        MetricResult m1 = summarize(trace).metric(Metrics.M1);

        assertThat(m1.micro())
                .containsEntry("key_coverage", 0.75)
                .containsEntry("strict_key_hit_rate", 0.5)
                .containsEntry("short_term_hit_rate", 0.75)
                .containsEntry("long_term_hit_rate", 0.0);
        assertThat(m1.counts()).containsEntry("required_key_total", 4).containsEntry("required_key_hit_total", 3);
    }

    @Test
    void error_turns_leave_the_denominators_and_count_as_skipped() {
        Dialog dialog = twoPairs("d1");
        DialogTrace trace = Dialogs.trace(
                dialog,
                answered(dialog.pairs().get(0), "回撤与不保本，根据数据", null),
                Dialogs.failed(dialog.pairs().get(1)));

        EvalSummary summary = summarize(trace);

        assertThat(summary.metric(Metrics.M3).micro()).containsEntry("risk_coverage", 1.0);
        assertThat(summary.metric(Metrics.M3).counts())
                .containsEntry("eligible_count", 1)
                .containsEntry("skipped_count", 1)
                .containsEntry("failed_count", 0);
        assertThat(summary.metric(Metrics.M4).counts()).containsEntry("eligible_count", 1);
        assertThat(summary.metric(Metrics.M5).micro())
                .containsEntry("rubric_hit_rate", 0.5)
                .containsEntry("judge_score_mean", 3.0);
    }

    @Test
    void macro_is_the_mean_of_the_by_dialog_values_while_micro_pools_turns() {
        Dialog first = Dialogs.only(dialog("d1", user("q"), assistant("a", List.of(), List.of("波动风险"), List.of())));
        Dialog second = twoPairs("d2");
        DialogTrace one = Dialogs.trace(first, answered(first.pairs().getFirst(), "回撤", null));
        DialogTrace two = Dialogs.trace(
                second,
                answered(second.pairs().get(0), "无关", null),
                answered(second.pairs().get(1), "无关", null));

        MetricResult m3 = summarize(one, two).metric(Metrics.M3);

        assertThat(m3.micro()).containsEntry("risk_coverage", 0.2);
        assertThat(m3.macro()).containsEntry("risk_coverage", 0.5);
        assertThat(m3.byDialog().keySet()).containsExactly("d1", "d2");
    }

    @Test
    void traces_are_scored_in_dataset_order_whatever_order_they_come_in() {
        Dialog first = twoPairs("d1");
        Dialog second = Dialogs.dataset("", twoPairs("d2").source().toString())
                .dialogs()
                .getFirst();
        DialogTrace one = Dialogs.trace(
                first,
                answered(first.pairs().get(0), "x", null),
                answered(first.pairs().get(1), "x", null));
        DialogTrace two = Dialogs.trace(
                second,
                answered(second.pairs().get(0), "x", null),
                answered(second.pairs().get(1), "x", null));

        assertThat(summarize(two, one).metric(Metrics.M4).byDialog().keySet()).containsExactly("d1", "d2");
    }

    @Test
    void m4_counts_forbidden_hits_and_severe_labels_per_turn() {
        Dialog dialog = twoPairs("d1");
        DialogTrace trace = Dialogs.trace(
                dialog,
                answered(dialog.pairs().get(0), "不承诺保本保收益", null),
                answered(dialog.pairs().get(1), "正常回答", null));

        MetricResult m4 = summarize(trace).metric(Metrics.M4);

        assertThat(m4.micro())
                .containsEntry("compliance_label_acc", 0.5)
                .containsEntry("severe_violation_rate", 0.5)
                .containsEntry("forbidden_hit_rate", 0.5);
        assertThat(m4.counts()).containsEntry("severe_count", 1);
    }

    private static DialogTrace withSnapshot(Dialog dialog, String reply, ObjectNode snapshot) {
        TurnPair pair = dialog.pairs().getFirst();
        var turns = new ArrayList<TurnTrace>();
        turns.add(new TurnTrace(
                pair.turnPairId(),
                pair.userTurnAbsIdx(),
                pair.gtAssistantAbsIdx(),
                pair.userText(),
                pair.gtAssistantText(),
                pair.gtTurnTags(),
                reply,
                1.0,
                TurnStatus.OK,
                null,
                null,
                null,
                null,
                snapshot));
        return DialogTrace.of("r1", dialog, DialogStatus.OK, turns, null);
    }

    @Test
    void m2_reads_the_snapshot_and_adds_catalogue_values_found_in_the_replies() {
        Dialog dialog = Dialogs.only(dialog("d1", user("q"), assistant("a")));
        ObjectNode snapshot = F.objectNode()
                .put("risk_level", "medium")
                .put("investment_horizon", "long")
                .put("liquidity_need", "low");
        snapshot.putArray("preferred_topics").add("宽基指数基金").add("期权");

        MetricResult m2 = summarize(withSnapshot(dialog, "建议不使用杠杆", snapshot)).metric(Metrics.M2);

        assertThat(m2.byDialog().get("d1"))
                .containsEntry("risk_level_acc", 1.0)
                .containsEntry("horizon_acc", 1.0)
                .containsEntry("liquidity_acc", 0.0)
                .containsEntry("constraints_f1", 2 * 1.0 * 0.5 / 1.5)
                .containsEntry("preferences_f1", 2 * 0.5 * 1.0 / 1.5);
        assertThat(m2.macro()).isEqualTo(m2.micro());
    }

    @Test
    void m2_falls_back_to_the_replies_with_the_first_matching_rule() {
        Dialog dialog = Dialogs.only(dialog("d1", user("q"), assistant("a")));

        MetricResult m2 =
                summarize(withSnapshot(dialog, "保守还是稳健？长期来看，流动性中等", null)).metric(Metrics.M2);

        assertThat(m2.byDialog().get("d1"))
                .containsEntry("risk_level_acc", 0.0)
                .containsEntry("horizon_acc", 1.0)
                .containsEntry("liquidity_acc", 1.0);
    }

    @Test
    void an_empty_last_snapshot_hides_an_earlier_one() {
        Dialog dialog = Dialogs.only(dialog("d1", user("q1"), assistant("a1"), user("q2"), assistant("a2")));
        ObjectNode real = F.objectNode().put("risk_level", "medium");
        var turns = List.of(
                new TurnTrace(1, 0, 1, "q1", "a1", null, "x", 1.0, TurnStatus.OK, null, null, null, null, real),
                new TurnTrace(
                        2, 2, 3, "q2", "a2", null, "x", 1.0, TurnStatus.OK, null, null, null, null, F.objectNode()));

        MetricResult m2 = summarize(DialogTrace.of("r1", dialog, DialogStatus.OK, turns, null))
                .metric(Metrics.M2);

        assertThat(m2.byDialog().get("d1")).containsEntry("risk_level_acc", 0.0);
    }

    @Test
    void set_f1_follows_the_reference_conventions_for_empty_sets() {
        assertThat(ProfileAccuracy.f1(java.util.Set.of(), java.util.Set.of())).isEqualTo(1.0);
        assertThat(ProfileAccuracy.f1(java.util.Set.of("a"), java.util.Set.of()))
                .isEqualTo(0.0);
        assertThat(ProfileAccuracy.f1(java.util.Set.of(), java.util.Set.of("a")))
                .isEqualTo(0.0);
    }

    @Test
    void the_benchmark_with_every_turn_answered_has_the_documented_eligibility_counts() {
        Dataset dataset = Dataset.load(SharedData.memfin().resolve("datasets/MemFinConv_24.jsonl"));
        var traces = new ArrayList<DialogTrace>();
        for (Dialog dialog : dataset.valid()) {
            traces.add(DialogTrace.of(
                    "r",
                    dialog,
                    DialogStatus.OK,
                    dialog.pairs().stream()
                            .map(pair -> answered(pair, pair.gtAssistantText(), null))
                            .toList(),
                    null));
        }

        EvalSummary summary = summarize(traces.toArray(DialogTrace[]::new));

        assertThat(summary.metric(Metrics.M1).counts())
                .containsEntry("eligible_count", 303)
                .containsEntry("required_key_total", 798);
        assertThat(summary.metric(Metrics.M3).counts())
                .containsEntry("eligible_count", 308)
                .containsEntry("risk_required_total", 720);
        assertThat(summary.metric(Metrics.M5).counts())
                .containsEntry("eligible_count", 316)
                .containsEntry("rubric_required_total", 1173);
    }
}
