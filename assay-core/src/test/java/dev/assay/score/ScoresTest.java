package dev.assay.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScoresTest {
    private static final Weights EQUAL = new Weights(Map.of("tool", 1.0, "logic", 1.0));

    private static Scores.Entry scored(String dimension, double weight, double score) {
        return new Scores.Entry(dimension, weight, score, true);
    }

    @Test
    void skipped_items_are_left_out_of_the_denominator() {
        Scores scores = Scores.of(List.of(scored("tool", 1, 1.0), new Scores.Entry("tool", 1, 0, false)), EQUAL);

        assertThat(scores.dimensionScores()).containsEntry("tool", 1.0);
    }

    @Test
    void a_dimension_score_is_weighted_by_case_weight() {
        Scores scores = Scores.of(List.of(scored("tool", 3, 1.0), scored("tool", 1, 0.0)), EQUAL);

        assertThat(scores.dimensionScores().get("tool")).isCloseTo(0.75, within(1e-12));
    }

    @Test
    void a_dimension_whose_case_weights_are_all_zero_is_scored_unweighted() {
        Scores scores = Scores.of(List.of(scored("tool", 0, 1.0), scored("tool", 0, 0.5)), EQUAL);

        assertThat(scores.dimensionScores().get("tool")).isCloseTo(0.75, within(1e-12));
    }

    @Test
    void the_total_is_renormalised_over_the_dimensions_present() {
        Scores scores = Scores.of(List.of(scored("logic", 1, 0.5)), Weights.defaults());

        assertThat(scores.total()).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void the_total_weighs_dimensions_by_their_weights() {
        var weights = new Weights(Map.of("tool", 3.0, "logic", 1.0));

        Scores scores = Scores.of(List.of(scored("tool", 1, 1.0), scored("logic", 1, 0.0)), weights);

        assertThat(scores.total()).isCloseTo(0.75, within(1e-12));
    }

    @Test
    void dimensions_all_weighted_zero_give_the_plain_mean_as_total() {
        var weights = new Weights(Map.of("tool", 0.0, "logic", 0.0));

        Scores scores = Scores.of(List.of(scored("tool", 1, 1.0), scored("logic", 1, 0.0)), weights);

        assertThat(scores.total()).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void nothing_scored_gives_no_dimension_and_no_total() {
        Scores scores = Scores.of(List.of(new Scores.Entry("tool", 1, 0, false)), EQUAL);

        assertThat(scores.dimensionScores()).isEmpty();
        assertThat(scores.total()).isNull();
    }
}
