package dev.assay.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class SpreadTest {
    @Test
    void stderr_and_t_interval_of_a_small_sample() {
        // scores 1, 0, 1, 1: mean 0.75, sample sd 0.5, stderr 0.25, t(3) = 3.182
        Spread spread = Spread.of(List.of(1.0, 0.0, 1.0, 1.0));
        assertThat(spread.mean()).isEqualTo(0.75);
        assertThat(spread.stderr()).isCloseTo(0.25, within(1e-12));
        assertThat(spread.low()).isEqualTo(0.0);
        assertThat(spread.high()).isEqualTo(1.0);
    }

    @Test
    void a_large_sample_uses_the_normal_quantile() {
        var values = new java.util.ArrayList<Double>();
        for (int i = 0; i < 100; i++) {
            values.add(i % 2 == 0 ? 1.0 : 0.0);
        }
        Spread spread = Spread.of(values);
        double stderr = Math.sqrt(25.0 / 99) / 10;
        assertThat(spread.stderr()).isCloseTo(stderr, within(1e-12));
        assertThat(spread.low()).isCloseTo(0.5 - 1.96 * stderr, within(1e-12));
    }

    @Test
    void one_item_has_no_spread_and_skipped_items_do_not_count() {
        var spreads = Spread.byDimension(List.of(
                new Scores.Entry("logic", 1, 1.0, true, true), new Scores.Entry("logic", 1, 0.0, false, false)));
        assertThat(spreads.get("logic")).isEqualTo(new Spread(1, 1.0, 0, 1.0, 1.0));
    }
}
