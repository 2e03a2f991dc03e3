package dev.assay.cases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SelectionTest {
    private static Case evalCase(String id, String dimension, String language, String... tags) {
        return new Case(
                id,
                dimension,
                language,
                "p",
                1.0,
                null,
                List.of(Check.of("exact", TextNode.valueOf("x"))),
                List.of(),
                List.of(tags),
                Map.of(),
                null,
                null);
    }

    private static final Suite SUITE = new Suite(
            "s",
            "v1",
            List.of(
                    evalCase("t1", "tool", "en-US", "builtin"),
                    evalCase("t2", "tool", "zh-CN", "builtin", "file"),
                    evalCase("l1", "logic", "en-US", "mcq"),
                    evalCase("c1", "common", "", "mcq"),
                    evalCase("x1", "complex", "zh-CN", "file")),
            Map.of(),
            List.of());

    private static List<String> ids(Selection selection) {
        return selection.select(SUITE).cases().stream().map(Case::id).toList();
    }

    private static Selection of(List<String> dimensions, String language, List<String> tags, List<String> ids) {
        return new Selection(dimensions, language, tags, ids, null, 0);
    }

    @Test
    void everything_selects_all_cases_in_file_order() {
        assertThat(ids(Selection.ALL)).containsExactly("t1", "t2", "l1", "c1", "x1");
    }

    @Test
    void dimensions_filter_keeps_any_of_them() {
        assertThat(ids(of(List.of("tool", "complex"), "", List.of(), List.of())))
                .containsExactly("t1", "t2", "x1");
    }

    @Test
    void language_filter_keeps_cases_without_a_language() {
        assertThat(ids(of(List.of(), "zh-cn", List.of(), List.of()))).containsExactly("t2", "c1", "x1");
    }

    @Test
    void tags_filter_keeps_cases_with_any_of_the_tags() {
        assertThat(ids(of(List.of(), "", List.of("mcq", "file"), List.of()))).containsExactly("t2", "l1", "c1", "x1");
    }

    @Test
    void ids_filter_keeps_file_order_not_the_order_asked() {
        assertThat(ids(of(List.of(), "", List.of(), List.of("x1", "t1", "missing"))))
                .containsExactly("t1", "x1");
    }

    @Test
    void filters_combine_with_and() {
        assertThat(ids(of(List.of("tool"), "en-US", List.of("builtin"), List.of())))
                .containsExactly("t1");
    }

    @Test
    void limit_without_seed_keeps_the_first_cases() {
        assertThat(ids(new Selection(List.of(), "", List.of(), List.of(), null, 2)))
                .containsExactly("t1", "t2");
    }

    @Test
    void same_seed_gives_the_same_order() {
        var big = new Suite(
                "big",
                "v",
                IntStream.range(0, 30)
                        .mapToObj(i -> evalCase("c" + i, "logic", ""))
                        .toList(),
                Map.of(),
                List.of());
        var seeded = new Selection(List.of(), "", List.of(), List.of(), 7L, 10);

        var first = seeded.select(big).cases();
        var second = seeded.select(big).cases();

        assertThat(first).hasSize(10).isEqualTo(second);
        assertThat(first).isNotEqualTo(big.cases().subList(0, 10));
    }

    @Test
    void different_seeds_give_different_orders() {
        var big = new Suite(
                "big",
                "v",
                IntStream.range(0, 30)
                        .mapToObj(i -> evalCase("c" + i, "logic", ""))
                        .toList(),
                Map.of(),
                List.of());

        assertThat(new Selection(List.of(), "", List.of(), List.of(), 1L, 0)
                        .select(big)
                        .cases())
                .isNotEqualTo(new Selection(List.of(), "", List.of(), List.of(), 2L, 0)
                        .select(big)
                        .cases());
    }

    @Test
    void selection_keeps_the_suite_name_and_version() {
        Suite selected = of(List.of("logic"), "", List.of(), List.of()).select(SUITE);

        assertThat(selected.name()).isEqualTo("s");
        assertThat(selected.version()).isEqualTo("v1");
    }

    @Test
    void negative_limit_is_refused() {
        assertThatThrownBy(() -> new Selection(List.of(), "", List.of(), List.of(), null, -1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
