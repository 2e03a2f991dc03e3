package dev.assay.model.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.assay.Json;
import dev.assay.model.ChatMessage;
import dev.assay.model.ChatModel;
import dev.assay.model.MapResponseCache;
import dev.assay.model.ModelRequest;
import dev.assay.model.ModelResponse;
import dev.assay.model.ResponseCache;
import dev.assay.tools.ToolSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestKeysTest {
    private static final ChatModel MODEL = new MockChatModel();

    private static final List<ToolSpec> TOOLS = List.of(new ToolSpec(
            "read_file", "Reads a file.", Json.parse("{\"type\": \"object\", \"properties\": {\"path\": {}}}")));

    private static ModelRequest request(List<ToolSpec> tools, Double temperature) {
        return new ModelRequest(
                List.of(ChatMessage.system("be brief"), ChatMessage.user("6 x 7?")),
                tools,
                temperature,
                null,
                64,
                Duration.ofSeconds(5));
    }

    /** The key: the hash of the request's JSON tree, with the hash of the tools' JSON in place of the tools. */
    private static String treeKey(String scope, ModelRequest request) {
        return ResponseCache.hash(tree(
                scope,
                request,
                "tools_sha256",
                TextNode.valueOf(ResponseCache.sha256(Json.write(Json.MAPPER.valueToTree(request.tools()))))));
    }

    /** The key as answers kept by earlier versions were stored under: the hash of the request's JSON tree. */
    private static String legacyTreeKey(String scope, ModelRequest request) {
        return ResponseCache.hash(tree(scope, request, "tools", Json.MAPPER.valueToTree(request.tools())));
    }

    private static ObjectNode tree(String scope, ModelRequest request, String toolsField, JsonNode tools) {
        ObjectNode what = Json.object()
                .put("model", MODEL.name())
                .put("endpoint", MODEL.endpoint())
                .put("scope", scope);
        what.set("messages", Json.MAPPER.valueToTree(request.messages()));
        what.set(toolsField, tools);
        what.putPOJO("temperature", request.temperature());
        what.putPOJO("seed", request.seed());
        what.putPOJO("max_tokens", request.maxTokens());
        return what;
    }

    @Test
    void a_key_written_straight_into_the_digest_equals_the_key_of_the_requests_json() {
        for (ModelRequest request : List.of(request(TOOLS, 0.2), request(List.of(), null))) {
            assertThat(ResponseCache.key(MODEL, "c1#0", request)).isEqualTo(treeKey("c1#0", request));
            assertThat(RequestKeys.legacy(MODEL, "c1#0", request)).isEqualTo(legacyTreeKey("c1#0", request));
            assertThat(ResponseCache.key(MODEL, "c1#0", request)).isNotEqualTo(legacyTreeKey("c1#0", request));
        }
    }

    @Test
    void an_answer_kept_by_an_earlier_version_is_found_under_the_key_it_made() throws InterruptedException {
        ModelRequest request = request(TOOLS, null);
        var cache = new MapResponseCache(true);
        cache.keep(
                RequestKeys.legacy(MODEL, "c1", request), new ModelResponse("kept earlier", "", List.of(), null, ""));

        assertThat(cache.complete(MODEL, "c1", request).text()).isEqualTo("kept earlier");
        assertThat(cache.complete(MODEL, "c2", request).text()).isEqualTo(MockChatModel.ANSWER);
        assertThat(cache.answers()).containsKey(ResponseCache.key(MODEL, "c2", request));
    }

    @Test
    void a_cache_that_only_keeps_answers_makes_no_earlier_key() throws InterruptedException {
        ModelRequest request = request(TOOLS, null);
        var cache = new MapResponseCache(false);

        assertThat(cache.complete(MODEL, "c1", request).text()).isEqualTo(MockChatModel.ANSWER);
        assertThat(cache.asked()).containsExactly(ResponseCache.key(MODEL, "c1", request));
        assertThat(cache.answers()).containsOnlyKeys(ResponseCache.key(MODEL, "c1", request));
    }

    @Test
    void the_tools_count_by_their_content_whichever_list_holds_them() {
        String key = ResponseCache.key(MODEL, "c1", request(TOOLS, null));
        assertThat(ResponseCache.key(MODEL, "c1", request(new ArrayList<>(TOOLS), null)))
                .isEqualTo(key);
        assertThat(ResponseCache.key(MODEL, "c1", request(List.of(), null))).isNotEqualTo(key);
        assertThat(ResponseCache.key(MODEL, "c1", request(TOOLS, null))).isEqualTo(key);
        assertThat(ResponseCache.key(MODEL, "c2", request(TOOLS, null))).isNotEqualTo(key);
        assertThat(ResponseCache.key(MODEL, "c1", request(TOOLS, 0.5))).isNotEqualTo(key);
    }
}
