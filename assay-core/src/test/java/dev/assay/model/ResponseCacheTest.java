package dev.assay.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import dev.assay.transcript.Usage;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResponseCacheTest {
    private static final ModelResponse ANSWER = new ModelResponse(
            "Paris \"quoted\" é",
            "thinking",
            List.of(new ToolCallRequest("call-1", "read_file", Json.parse("{\"path\":\"a.txt\",\"n\":1.5,\"x\":[1]}"))),
            new Usage(10, 3),
            "tool_calls");

    @Test
    void an_answer_written_as_text_is_the_text_of_its_tree_and_reads_back_whole() {
        // A store keeps an answer's text written straight from the record (StoredResponses); other caches, its tree.
        assertThat(Json.write(ANSWER)).isEqualTo(Json.write(Json.tree(ANSWER)));
        assertThat(Json.MAPPER.convertValue(Json.parse(Json.write(ANSWER)), ModelResponse.class))
                .isEqualTo(ANSWER);
    }

    @Test
    void a_cache_that_keeps_trees_keeps_a_model_answer_as_its_tree() {
        var trees = new MapResponseCache(true);

        trees.keep("k", ANSWER);

        assertThat(trees.answers()).containsEntry("k", Json.tree(ANSWER));
    }
}
