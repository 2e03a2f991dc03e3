package dev.assay.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
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

    /** The key as answers kept by earlier versions were stored under: the hash of the request's JSON tree. */
    private static String treeKey(String scope, ModelRequest request) {
        ObjectNode what = Json.object()
                .put("model", MODEL.name())
                .put("endpoint", MODEL.endpoint())
                .put("scope", scope);
        what.set("messages", Json.MAPPER.valueToTree(request.messages()));
        what.set("tools", Json.MAPPER.valueToTree(request.tools()));
        what.putPOJO("temperature", request.temperature());
        what.putPOJO("seed", request.seed());
        what.putPOJO("max_tokens", request.maxTokens());
        return ResponseCache.hash(what);
    }

    @Test
    void a_key_written_straight_into_the_digest_equals_the_key_of_the_requests_json() {
        ModelRequest request = request(TOOLS, 0.2);
        assertThat(ResponseCache.key(MODEL, "c1#0", request)).isEqualTo(treeKey("c1#0", request));
        assertThat(ResponseCache.key(MODEL, "c1#0", request(List.of(), null)))
                .isEqualTo(treeKey("c1#0", request(List.of(), null)));
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
