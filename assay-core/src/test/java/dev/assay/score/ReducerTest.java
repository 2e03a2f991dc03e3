package dev.assay.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReducerTest {
    private static final List<Double> SAMPLES = List.of(1.0, 0.0, 1.0, 0.5);

    @Test
    void each_reducer_makes_the_case_score_from_its_samples() {
        // Three of four passed? No: 1.0, 1.0 passed, 0.5 is partial; two passed.
        assertThat(Reducer.MEAN.reduce(SAMPLES, 2, 2)).isEqualTo(0.625);
        assertThat(Reducer.MAX.reduce(SAMPLES, 2, 2)).isEqualTo(1.0);
        assertThat(Reducer.MAJORITY.reduce(SAMPLES, 2, 2)).isEqualTo(0.0);
        assertThat(Reducer.MAJORITY.reduce(SAMPLES, 3, 2)).isEqualTo(1.0);
        // pass@2 = 1 - C(2,2)/C(4,2) = 5/6; pass^2 = C(2,2)/C(4,2) = 1/6
        assertThat(Reducer.PASS_AT_K.reduce(SAMPLES, 2, 2)).isCloseTo(5.0 / 6, within(1e-12));
        assertThat(Reducer.PASS_HAT_K.reduce(SAMPLES, 2, 2)).isCloseTo(1.0 / 6, within(1e-12));
    }

    @Test
    void names_read_as_written_and_unknown_ones_are_refused() {
        assertThat(Reducer.of("pass_hat_k")).isEqualTo(Reducer.PASS_HAT_K);
        assertThat(Reducer.MAJORITY.wireName()).isEqualTo("majority");
        assertThatThrownBy(() -> Reducer.of("median")).isInstanceOf(IllegalArgumentException.class);
    }
}
