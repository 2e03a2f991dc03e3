package dev.assay.score.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class PassAtKTest {
    @Test
    void pass_at_1_is_the_pass_rate() {
        assertThat(PassAtK.of(10, 3, 1)).isCloseTo(0.3, within(1e-12));
    }

    @Test
    void matches_the_closed_form_with_binomials() {
        // 1 - C(7,5)/C(10,5) = 1 - 21/252
        assertThat(PassAtK.of(10, 3, 5)).isCloseTo(1 - 21.0 / 252, within(1e-12));
    }

    @Test
    void is_one_when_fewer_than_k_samples_fail() {
        assertThat(PassAtK.of(5, 3, 3)).isEqualTo(1.0);
    }

    @Test
    void mean_averages_questions() {
        assertThat(PassAtK.mean(List.of(new int[] {2, 2}, new int[] {2, 0}), 1)).isEqualTo(0.5);
    }

    @Test
    void fewer_samples_than_k_is_rejected() {
        assertThatThrownBy(() -> PassAtK.of(2, 1, 3)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void up_to_leaves_out_a_k_that_no_question_reaches() {
        var rates = PassAtK.upTo(java.util.List.of(new int[] {3, 1}, new int[] {1, 1}), 3);
        assertThat(rates.keySet()).containsExactly(1, 2, 3);
        assertThat(rates.get(1)).isCloseTo((1.0 / 3 + 1.0) / 2, within(1e-12));
        // Only the 3-sample question reaches k = 2 and 3.
        assertThat(rates.get(3)).isCloseTo(1.0, within(1e-12));
        assertThat(PassAtK.upTo(java.util.List.of(new int[] {1, 0}), 2)).containsOnlyKeys(1);
    }

    @Test
    void pass_hat_k_is_the_chance_that_k_samples_all_pass() {
        // tau-bench: C(c, k) / C(n, k). n = 5, c = 3: k = 1 -> 3/5, k = 2 -> 3/10, k = 4 -> 0.
        assertThat(PassAtK.hat(5, 3, 1)).isCloseTo(0.6, within(1e-12));
        assertThat(PassAtK.hat(5, 3, 2)).isCloseTo(0.3, within(1e-12));
        assertThat(PassAtK.hat(5, 3, 4)).isZero();
        assertThat(PassAtK.hat(4, 4, 4)).isEqualTo(1.0);
        var rates = PassAtK.hatUpTo(java.util.List.of(new int[] {5, 3}, new int[] {2, 2}), 3);
        assertThat(rates.get(2)).isCloseTo((0.3 + 1.0) / 2, within(1e-12));
        assertThat(rates.get(3)).isCloseTo(0.1, within(1e-12));
    }
}
