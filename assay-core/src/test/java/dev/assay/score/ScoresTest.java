package dev.assay.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScoresTest {
    private static final Weights EQUAL = new Weights(Map.of("tool", 1.0, "logic", 1.0));

    private static Scores.Entry scored(String dimension, double weight, double score) {
        return new Scores.Entry(dimension, weight, score, true, score == 1.0);
    }

    @Test
    void skipped_items_are_left_out_of_the_denominator() {
        Scores scores = Scores.of(List.of(scored("tool", 1, 1.0), new Scores.Entry("tool", 1, 0, false, false)), EQUAL);

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
        Scores scores = Scores.of(List.of(new Scores.Entry("tool", 1, 0, false, false)), EQUAL);

        assertThat(scores.dimensionScores()).isEmpty();
        assertThat(scores.total()).isNull();
    }

    private static final Weights REFERENCE = Weights.preset(Weights.Scoring.REFERENCE);

    /** docs/checkers.md, difference S1: the reference's default weights. */
    @Test
    void the_reference_preset_has_the_reference_default_weights() {
        assertThat(REFERENCE.byDimension())
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of("tool", 30.0, "logic", 25.0, "common", 15.0, "complex", 30.0));
        assertThat(Weights.defaults().scoring()).isEqualTo(Weights.Scoring.ASSAY);
    }

    /** docs/checkers.md, difference S2: office has no tool items; the reference divides by all four weights anyway. */
    @Test
    void under_the_reference_preset_a_dimension_with_no_judged_item_counts_zero() {
        var entries = List.of(
                scored("logic", 1, 1.0),
                scored("logic", 1, 0.0),
                scored("common", 1, 1.0),
                scored("common", 1, 0.0),
                scored("complex", 1, 1.0),
                scored("complex", 1, 0.0),
                new Scores.Entry("tool", 1, 0, false, false));

        assertThat(Scores.of(entries, REFERENCE).total()).isCloseTo(0.35, within(1e-12));
        assertThat(Scores.of(entries, Weights.defaults()).total()).isCloseTo(0.5, within(1e-12));
    }

    /** docs/checkers.md, difference S3: the reference is pass or fail, so a partial item counts 0 there. */
    @Test
    void under_the_reference_preset_partial_credit_counts_zero() {
        var entries = List.of(scored("tool", 1, 1.0), new Scores.Entry("tool", 1, 0.5, true, false));

        assertThat(Scores.of(entries, REFERENCE).dimensionScores()).containsEntry("tool", 0.5);
        assertThat(Scores.of(entries, Weights.defaults()).dimensionScores()).containsEntry("tool", 0.75);
    }

    /** docs/checkers.md, difference S5: a dimension whose case weights are all 0 is dropped by the reference. */
    @Test
    void under_the_reference_preset_a_dimension_weighted_zero_throughout_is_dropped() {
        var entries = List.of(scored("tool", 0, 1.0), scored("logic", 1, 1.0));

        Scores scores = Scores.of(entries, REFERENCE);

        assertThat(scores.dimensionScores()).containsOnlyKeys("logic");
        assertThat(scores.total()).isCloseTo(0.25, within(1e-12));
    }

    @Test
    void weights_given_with_the_reference_preset_replace_its_defaults_and_keep_its_total_rule() {
        Weights weights = Weights.parse("tool=50", REFERENCE);

        assertThat(weights.byDimension()).containsEntry("tool", 50.0).containsEntry("common", 15.0);
        assertThat(weights.scoring()).isEqualTo(Weights.Scoring.REFERENCE);
    }

    @Test
    void an_unknown_preset_is_refused_with_its_field() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Weights.Scoring.of("wunder"))
                .isInstanceOfSatisfying(dev.assay.AssayException.class, e -> {
                    assertThat(e.problem().type()).isEqualTo("config.invalid_scoring");
                    assertThat(e.problem().details()).containsEntry("field", "scoring");
                });
    }
}
