package dev.assay.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.assay.score.internal.Normal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SamplePlanTest {
    @Test
    void one_sample_per_case_follows_the_normal_approximation() {
        // Half the cases pass: s² = 0.25 · 100/99; σ_D² = 2 s²; (1.959964 + 0.841621)² = 7.848879.
        var cases = new ArrayList<List<Double>>();
        for (int i = 0; i < 100; i++) {
            cases.add(List.of(i % 2 == 0 ? 1.0 : 0.0));
        }
        SamplePlan plan = SamplePlan.of(cases, 5, 0.8, 0.05);
        double variance = 0.25 * 100 / 99;
        assertThat(plan.betweenVariance()).isCloseTo(variance, within(1e-12));
        assertThat(plan.withinVariance()).isZero();
        long expected = (long) Math.ceil(7.848879 * 2 * variance / 0.0025);
        assertThat(plan.options()).hasSize(1);
        assertThat(plan.options().get(0).cases()).isBetween(expected - 1, expected + 1);
    }

    @Test
    void samples_split_the_variance_and_more_samples_need_fewer_cases() {
        // Case means 0.5 or 1 (between-case), samples within a case 0/1 or 1/1 (within-case).
        var cases = new ArrayList<List<Double>>();
        for (int i = 0; i < 50; i++) {
            cases.add(i % 2 == 0 ? List.of(1.0, 0.0) : List.of(1.0, 1.0));
        }
        SamplePlan plan = SamplePlan.of(cases, 3, 0.8, 0.05);
        // σ_w² = mean of per-case variances = (0.5 + 0) / 2; var of means = 0.0625·50/49; σ_b² = that − σ_w²/2.
        assertThat(plan.withinVariance()).isCloseTo(0.25, within(1e-12));
        assertThat(plan.betweenVariance()).isCloseTo(Math.max(0, 0.0625 * 50 / 49 - 0.125), within(1e-12));
        assertThat(plan.options()).hasSize(2);
        assertThat(plan.options().get(1).cases())
                .isLessThan(plan.options().get(0).cases());
        assertThat(plan.options().get(1).calls())
                .isEqualTo(2 * plan.options().get(1).cases());
    }

    @Test
    void out_of_range_arguments_are_refused() {
        var cases = List.of(List.of(1.0), List.of(0.0));
        assertThatThrownBy(() -> SamplePlan.of(cases, 0, 0.8, 0.05)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SamplePlan.of(cases, 3, 1, 0.05)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SamplePlan.of(List.of(List.of(1.0)), 3, 0.8, 0.05))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void the_normal_quantile_matches_known_values() {
        assertThat(Normal.quantile(0.975)).isCloseTo(1.959963985, within(1e-8));
        assertThat(Normal.quantile(0.8)).isCloseTo(0.841621234, within(1e-8));
        assertThat(Normal.quantile(0.01)).isCloseTo(-2.326347874, within(1e-8));
    }
}
