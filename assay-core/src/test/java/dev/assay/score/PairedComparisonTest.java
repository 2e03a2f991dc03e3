package dev.assay.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PairedComparisonTest {
    @Test
    void mcnemar_exact_p_values_match_the_binomial_tail() {
        // 1 regression against 9 improvements: 2 * P(X <= 1), X ~ Bin(10, 1/2) = 2 * 11/1024
        assertThat(PairedComparison.mcnemar(1, 9)).isCloseTo(22.0 / 1024, within(1e-12));
        assertThat(PairedComparison.mcnemar(5, 5)).isEqualTo(1.0);
        assertThat(PairedComparison.mcnemar(0, 0)).isEqualTo(1.0);
        assertThat(PairedComparison.mcnemar(0, 3000)).isLessThan(1e-300 + 1e-12);
    }

    @Test
    void verdict_movements_and_the_paired_score_change_are_counted() {
        var pairs = new ArrayList<PairedComparison.Pair>();
        pairs.add(new PairedComparison.Pair(1, 1, true, true));
        pairs.add(new PairedComparison.Pair(0, 1, false, true));
        pairs.add(new PairedComparison.Pair(0, 1, false, true));
        pairs.add(new PairedComparison.Pair(1, 0, true, false));
        pairs.add(new PairedComparison.Pair(0, 0.5, false, false));
        var comparison = PairedComparison.of(pairs);
        assertThat(List.of(
                        comparison.n(),
                        comparison.bothPassed(),
                        comparison.onlyA(),
                        comparison.onlyB(),
                        comparison.neither()))
                .containsExactly(5, 1, 1, 2, 1);
        assertThat(comparison.meanDelta()).isCloseTo(0.3, within(1e-12));
        assertThat(comparison.deltaLow()).isLessThan(0.3);
        assertThat(comparison.deltaHigh()).isGreaterThan(0.3);
        assertThat(comparison.mcnemarP()).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void the_sentence_names_the_better_run_only_when_the_interval_excludes_zero() {
        var better = new java.util.ArrayList<PairedComparison.Pair>();
        for (int i = 0; i < 40; i++) {
            better.add(new PairedComparison.Pair(i % 4 == 0 ? 1 : 0, 1, i % 4 == 0, true));
        }
        assertThat(PairedComparison.of(better).sentence()).startsWith("B is better by 75.0 points, 95 % CI");
        var same = List.of(
                new PairedComparison.Pair(1, 0, true, false),
                new PairedComparison.Pair(0, 1, false, true),
                new PairedComparison.Pair(1, 1, true, true));
        assertThat(PairedComparison.of(same).sentence()).startsWith("no difference detected");
        var worse = better.stream()
                .map(pair -> new PairedComparison.Pair(pair.scoreB(), pair.scoreA(), pair.passedB(), pair.passedA()))
                .toList();
        assertThat(PairedComparison.of(worse).sentence()).startsWith("A is better by 75.0 points");
    }
}
