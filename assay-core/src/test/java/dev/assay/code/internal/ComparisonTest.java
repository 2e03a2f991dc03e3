package dev.assay.code.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import org.junit.jupiter.api.Test;

class ComparisonTest {
    private static Comparison chosen(String stated, String text, String... expected) {
        return Comparison.choose(
                stated, text, java.util.Arrays.stream(expected).map(Json::parse).toList());
    }

    @Test
    void chinese_any_order_infers_unordered() {
        assertThat(chosen("", "你可以按任意顺序返回答案。", "[1]").mode()).isEqualTo(Comparison.Mode.UNORDERED);
    }

    @Test
    void stated_tolerance_infers_float_with_that_tolerance() {
        var comparison = chosen("", "Answers within 10<sup>-6</sup> of the actual answer will be accepted.", "1");

        assertThat(comparison.mode()).isEqualTo(Comparison.Mode.FLOAT);
        assertThat(comparison.tolerance()).isEqualTo(1e-6);
    }

    @Test
    void stated_mode_overrides_inference() {
        assertThat(chosen("exact", "in any order", "[1]").mode()).isEqualTo(Comparison.Mode.EXACT);
    }

    @Test
    void float_expected_values_infer_float() {
        assertThat(chosen("", "", "2.5").mode()).isEqualTo(Comparison.Mode.FLOAT);
    }

    @Test
    void exact_keeps_bool_and_int_apart_but_not_int_and_float() {
        var exact = new Comparison(Comparison.Mode.EXACT, 1e-5);

        assertThat(exact.accepts(Json.parse("1"), Json.parse("true"))).isFalse();
        assertThat(exact.accepts(Json.parse("2"), Json.parse("2.0"))).isTrue();
        assertThat(exact.accepts(Json.parse("[1,2]"), Json.parse("\"1,2\""))).isFalse();
        assertThat(exact.accepts(Json.parse("[5]"), Json.parse("5"))).isFalse();
    }

    @Test
    void unordered_compares_inner_lists_as_sets_only_where_the_expected_ones_read_as_sets() {
        var unordered = new Comparison(Comparison.Mode.UNORDERED, 1e-5);

        assertThat(unordered.accepts(Json.parse("[[1,2],[3]]"), Json.parse("[[3],[1,2]]")))
                .isTrue();
        // Sorted and distinct: groups or subsets, whose own order is free.
        assertThat(unordered.accepts(Json.parse("[[1,2],[3]]"), Json.parse("[[3],[2,1]]")))
                .isTrue();
        assertThat(unordered.accepts(
                        Json.parse("[[\"ate\",\"eat\"],[\"bat\"]]"), Json.parse("[[\"bat\"],[\"eat\",\"ate\"]]")))
                .isTrue();
        // Permutations are one set once sorted: each keeps its order, so the same one twice fails.
        assertThat(unordered.accepts(Json.parse("[[1,2],[2,1]]"), Json.parse("[[1,2],[1,2]]")))
                .isFalse();
        assertThat(unordered.accepts(Json.parse("[[1,2],[2,1]]"), Json.parse("[[2,1],[1,2]]")))
                .isTrue();
        // An inner list written out of order is a sequence: its order counts.
        assertThat(unordered.accepts(Json.parse("[[2,1],[3]]"), Json.parse("[[3],[1,2]]")))
                .isFalse();
        assertThat(unordered.accepts(Json.parse("[1,1,2]"), Json.parse("[1,2,2]")))
                .isFalse();
        assertThat(unordered.accepts(Json.parse("[[1,2],[3]]"), Json.parse("[[1,2],[3],[3]]")))
                .isFalse();
    }

    @Test
    void float_accepts_within_tolerance_only() {
        var floats = new Comparison(Comparison.Mode.FLOAT, 1e-5);

        assertThat(floats.accepts(Json.parse("9.261"), Json.parse("9.261000000000001")))
                .isTrue();
        assertThat(floats.accepts(Json.parse("-2.5"), Json.parse("-2.6"))).isFalse();
        assertThat(floats.accepts(Json.parse("[0.1]"), Json.parse("[0.1000001]")))
                .isTrue();
    }

    @Test
    void unknown_mode_is_rejected() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> chosen("fuzzy", "", "1"))
                .isInstanceOf(dev.assay.AssayException.class);
    }
}
