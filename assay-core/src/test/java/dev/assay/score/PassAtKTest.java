package dev.assay.score;

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
}
