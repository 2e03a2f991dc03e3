package dev.assay.score.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.score.SamplePlan;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The stop rule's error rates in simulation (seeded). Synthetic suites: each case has its own difficulty p ~ U(0.15,
 * 0.95), the chance model a passes it; model b passes with p + shift. Repetitions are sized so that the checks mean
 * something and the class runs in well under a second: 2 000 null runs put the standard error of a 5 % rate at 0.5
 * point; 300 runs 5 points apart measure the mean stopping time to within a few percent.
 */
class SequentialTestTest {
    private static final double ALPHA = 0.05;

    private record Stopped(SequentialTest.Decision decision, int cases) {}

    private static Stopped simulate(SplittableRandom random, double shift, int suite) {
        var test = new SequentialTest(ALPHA, 5);
        for (int i = 0; i < suite; i++) {
            double p = 0.15 + 0.8 * random.nextDouble();
            double a = random.nextDouble() < p ? 1 : 0;
            double b = random.nextDouble() < p + shift ? 1 : 0;
            if (test.add(a, b) != SequentialTest.Decision.CONTINUE) {
                return new Stopped(test.decision(), test.cases());
            }
        }
        return new Stopped(test.end(), test.cases());
    }

    @Test
    void under_no_difference_the_false_decision_rate_stays_within_alpha() {
        var random = new SplittableRandom(33);
        int runs = 2000;
        int decided = 0;
        for (int run = 0; run < runs; run++) {
            if (simulate(random, 0, 1000).decision() != SequentialTest.Decision.UNDECIDED) {
                decided++;
            }
        }
        // Ville's bound is alpha whatever the number of looks; three standard errors of slack for the simulation.
        assertThat((double) decided / runs).isLessThan(ALPHA + 3 * Math.sqrt(ALPHA * (1 - ALPHA) / runs));
    }

    @Test
    void five_points_apart_it_decides_right_with_fewer_cases_than_the_fixed_design() {
        var random = new SplittableRandom(34);
        // The fixed design `assay plan --mde 5` recommends from a baseline run of model a on 2 000 such cases.
        var baseline = new ArrayList<List<Double>>();
        for (int i = 0; i < 2000; i++) {
            double p = 0.15 + 0.8 * random.nextDouble();
            baseline.add(List.of(random.nextDouble() < p ? 1.0 : 0.0));
        }
        long fixed = SamplePlan.of(baseline, 5, 0.8, ALPHA).options().get(0).cases();
        int runs = 300;
        int right = 0;
        int wrong = 0;
        long used = 0;
        for (int run = 0; run < runs; run++) {
            Stopped outcome = simulate(random, 0.05, (int) (2 * fixed));
            used += outcome.cases();
            if (outcome.decision() == SequentialTest.Decision.B_BETTER) {
                right++;
            } else if (outcome.decision() == SequentialTest.Decision.A_BETTER) {
                wrong++;
            }
        }
        assertThat((double) right / runs).isGreaterThanOrEqualTo(0.8);
        assertThat(wrong).isLessThanOrEqualTo(runs / 100);
        assertThat((double) used / runs).isLessThan((double) fixed);
    }

    @Test
    void a_decision_is_final_and_running_out_is_undecided() {
        var test = new SequentialTest(ALPHA, 50);
        SequentialTest.Decision decision = SequentialTest.Decision.CONTINUE;
        for (int i = 0; i < 100 && decision == SequentialTest.Decision.CONTINUE; i++) {
            decision = test.add(0, 1);
        }
        assertThat(decision).isEqualTo(SequentialTest.Decision.B_BETTER);
        int cases = test.cases();
        assertThat(test.add(1, 0)).isEqualTo(SequentialTest.Decision.B_BETTER);
        assertThat(test.cases()).isEqualTo(cases);
        var undecided = new SequentialTest(ALPHA, 5);
        undecided.add(1, 1);
        assertThat(undecided.end()).isEqualTo(SequentialTest.Decision.UNDECIDED);
    }
}
