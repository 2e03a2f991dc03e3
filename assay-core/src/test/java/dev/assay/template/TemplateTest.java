package dev.assay.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TemplateTest {
    @Test
    void variables_and_filters_render_as_nunjucks_renders_them() {
        assertThat(Template.render("Q: {{ question | upper }} ({{ n + 1 }})", Map.of("question", "why?", "n", 2)))
                .isEqualTo("Q: WHY? (3)");
        assertThat(Template.render(
                        "{% for c in choices %}{{ loop.index }}. {{ c }}\n{% endfor %}",
                        Map.of("choices", List.of("red", "blue"))))
                .isEqualTo("1. red\n2. blue\n");
        assertThat(Template.render("{{ missing }}|{{ name | default('anon') }}", Map.of()))
                .isEqualTo("|anon");
    }

    @Test
    void nothing_is_html_escaped() {
        assertThat(Template.render("{{ code }}", Map.of("code", "a < b && c > \"d\"")))
                .isEqualTo("a < b && c > \"d\"");
    }

    @Test
    void a_value_is_inserted_as_written_never_rendered_again() {
        assertThat(Template.render("{{ row }}", Map.of("row", "{{ 7 * 7 }} {% if true %}x{% endif %}")))
                .isEqualTo("{{ 7 * 7 }} {% if true %}x{% endif %}");
    }

    @Test
    void dump_writes_json_as_json_stringify_does() {
        Map<String, Object> vars = Map.of(
                "v",
                Json.MAPPER
                        .createObjectNode()
                        .put("a", 1)
                        .set("b", Json.MAPPER.createArrayNode().add("x")));
        assertThat(Template.render("{{ v | dump }}", vars)).isEqualTo("{\"a\":1,\"b\":[\"x\"]}");
        assertThat(Template.render("{{ v | dump(2) }}", vars))
                .isEqualTo("{\n  \"a\": 1,\n  \"b\": [\n    \"x\"\n  ]\n}");
    }

    @Test
    void jackson_trees_are_read_as_the_plain_values_they_hold() {
        var row = Json.MAPPER.createObjectNode().put("city", "Lima").put("rank", 3);
        assertThat(Template.render("{{ row.city }} #{{ row.rank }}", Map.of("row", row)))
                .isEqualTo("Lima #3");
    }

    @Test
    void a_syntax_error_is_a_problem_naming_the_line() {
        assertThatThrownBy(() -> Template.render("line one\n{% if x %}never closed", Map.of("x", true)))
                .isInstanceOfSatisfying(AssayException.class, e -> {
                    assertThat(e.problem().type()).isEqualTo(Template.INVALID);
                    assertThat(e.problem().message()).contains("line");
                });
    }

    @Test
    void a_plain_prompt_passes_through_untouched() {
        assertThat(Template.render("no tags here", Map.of())).isEqualTo("no tags here");
    }
}
