package dev.assay.subject.sse.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.subject.sse.EventMapping;
import dev.assay.subject.sse.SseAgentSettings;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestBodyTest {
    private static final Map<String, JsonNode> VALUES = Map.of(
            "prompt", TextNode.valueOf("say \"hi\""),
            "tool_names", Json.parse("[\"read_file\"]"),
            "config_overrides", Json.parse("{\"max_rounds\": 3}"));

    @Test
    void a_string_that_is_one_placeholder_takes_the_values_json_type() {
        JsonNode filled = RequestBody.fill(
                Json.parse("{\"tools\": \"{{tool_names}}\", \"cfg\": " + "\"{{config_overrides}}\"}"), VALUES);

        assertThat(filled).isEqualTo(Json.parse("{\"tools\": [\"read_file\"], \"cfg\": {\"max_rounds\": 3}}"));
    }

    @Test
    void placeholders_inside_longer_strings_are_replaced_by_text_and_unknown_ones_stay() {
        JsonNode filled =
                RequestBody.fill(Json.parse("{\"messages\": [{\"content\": \"Q: {{prompt}} {{nope}}\"}]}"), VALUES);

        assertThat(filled.at("/messages/0/content").asText()).isEqualTo("Q: say \"hi\" {{nope}}");
    }

    @Test
    void a_call_fills_the_reference_body_with_its_values_and_the_settings_own() {
        var settings = new SseAgentSettings(
                URI.create("http://127.0.0.1:9/wunder"),
                null,
                "qwen",
                "zh-CN",
                List.of("read_file"),
                null,
                null,
                null,
                null,
                false,
                null,
                null,
                null,
                1);

        JsonNode body = RequestBody.of(settings, new RequestBody.Call("你好", "eval_session_d1", "", "r1", "", "", ""));

        assertThat(body).isEqualTo(Json.parse("""
                {"user_id": "assay", "question": "你好", "tool_names": ["read_file"], "stream": true,
                 "session_id": "eval_session_d1", "model_name": "qwen", "language": "zh-CN",
                 "config_overrides": {}}"""));
    }

    @Test
    void an_unknown_mapping_key_is_a_configuration_error() {
        assertThatThrownBy(() -> new EventMapping(Map.of("finale", "done"), Map.of()))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("config.invalid_agent_mapping"));
    }

    @Test
    void a_mapping_path_must_be_a_json_pointer() {
        assertThatThrownBy(() -> new EventMapping(Map.of(), Map.of("final.answer", "result.text")))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().details()).containsEntry("key", "final.answer"));
    }
}
