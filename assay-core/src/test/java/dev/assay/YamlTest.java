package dev.assay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.testing.HostileYaml;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class YamlTest {
    @Test
    void alias_reads_as_the_value_of_its_anchor() throws Exception {
        JsonNode tree = Yaml.MAPPER.readTree("""
                answer: &ans 42
                rubric: &rubric {checker: exact, expected: [a, b]}
                first: {expected: *ans, check: *rubric}
                """);

        assertThat(tree.at("/first/expected").intValue()).isEqualTo(42);
        assertThat(tree.at("/first/check")).isEqualTo(tree.get("rubric"));
    }

    @Test
    void alias_inside_an_anchored_value_is_replayed_expanded() throws Exception {
        JsonNode tree = Yaml.MAPPER.readTree("""
                base: &base [1, 2]
                outer: &outer {list: *base, more: [*base, x]}
                again: *outer
                """);

        assertThat(tree.get("again")).isEqualTo(Json.parse("{\"list\": [1, 2], \"more\": [[1, 2], \"x\"]}"));
    }

    @Test
    void replayed_tokens_are_located_at_the_alias() throws Exception {
        try (JsonParser parser = Yaml.MAPPER.getFactory().createParser("""
                shared: &shared
                  id: x
                cases:
                  - *shared
                """)) {
            JsonToken token;
            do {
                token = parser.nextToken();
            } while (!(token == JsonToken.START_OBJECT
                    && parser.getParsingContext().getParent().inArray()));

            assertThat(parser.currentTokenLocation().getLineNr()).isEqualTo(4);
        }
    }

    @Test
    void alias_without_an_anchor_is_refused_with_its_line() {
        assertThatThrownBy(() -> Yaml.MAPPER.readTree("a: 1\nb: *nowhere\n"))
                .isInstanceOf(JsonParseException.class)
                .hasMessageContaining("*nowhere has no anchor")
                .satisfies(
                        e -> assertThat(((JsonParseException) e).getLocation().getLineNr())
                                .isEqualTo(2));
    }

    @Test
    void alias_inside_its_own_anchor_is_refused() {
        assertThatThrownBy(() -> Yaml.MAPPER.readTree("a: &loop [1, *loop]\n"))
                .isInstanceOf(JsonParseException.class)
                .hasMessageContaining("inside the value of its own anchor");
    }

    @Test
    void billion_laughs_is_refused_quickly_at_the_alias_that_crosses_the_bound() {
        long started = System.nanoTime();

        assertThatThrownBy(() -> Yaml.MAPPER.readTree(HostileYaml.BILLION_LAUGHS))
                .isInstanceOf(JsonParseException.class)
                .hasMessageContaining("billion laughs")
                .satisfies(
                        e -> assertThat(((JsonParseException) e).getLocation().getLineNr())
                                .isBetween(2, 10));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }
}
