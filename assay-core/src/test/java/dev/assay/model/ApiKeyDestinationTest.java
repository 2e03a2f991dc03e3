package dev.assay.model;

import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.model.openai.OpenAiSettings;
import dev.assay.testing.ScriptedOpenAiServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Where the API key goes: a key the user named goes to the server the user named, but the provider's default variable
 * is sent only to the provider's own host, never to whatever {@code --base-url} points at.
 */
class ApiKeyDestinationTest {
    private static final Map<String, String> ENV =
            Map.of("OPENAI_API_KEY", "sk-default-openai", "LOCAL_KEY", "sk-named-local");

    private static ModelRequest ask() {
        return new ModelRequest(List.of(ChatMessage.user("q")), List.of(), null, null, null, Duration.ofSeconds(10));
    }

    private static void complete(ModelOptions options) throws InterruptedException {
        try (ChatModel model = ChatModels.chatModel(options, ENV::get, line -> {})) {
            model.complete(ask());
        }
    }

    @Test
    void the_default_openai_key_is_not_sent_to_a_custom_base_url() throws Exception {
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("ok")))) {
            complete(new ModelOptions("openai:local", server.baseUrl(), null, false, null, null));

            assertThat(server.authorizations()).singleElement().asString().doesNotContain("sk-default-openai");
        }
    }

    @Test
    void a_named_key_is_sent_to_a_custom_base_url_as_a_bearer_token() throws Exception {
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("ok")))) {
            complete(new ModelOptions("openai:local", server.baseUrl(), "LOCAL_KEY", false, null, null));

            assertThat(server.authorizations()).containsExactly("Bearer sk-named-local");
        }
    }

    @Test
    void naming_the_default_variable_explicitly_sends_it_to_a_custom_base_url() throws Exception {
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("ok")))) {
            complete(new ModelOptions("openai:local", server.baseUrl(), "OPENAI_API_KEY", false, null, null));

            assertThat(server.authorizations()).containsExactly("Bearer sk-default-openai");
        }
    }

    private static ChatModel namedKeyModel(ScriptedOpenAiServer server) {
        return ChatModels.chatModel(
                new ModelOptions("openai:local", server.baseUrl(), "LOCAL_KEY", false, null, null),
                ENV::get,
                line -> {});
    }

    @Test
    void a_key_the_endpoint_quotes_back_is_masked_in_its_error_and_its_answers() throws Exception {
        try (var server = ScriptedOpenAiServer.start(
                        ScriptedOpenAiServer.always(new ScriptedOpenAiServer.Reply.QuotingFailure(401)));
                ChatModel model = namedKeyModel(server)) {
            assertThatThrownBy(() -> model.complete(ask())).isInstanceOfSatisfying(AssayException.class, e -> {
                assertThat(e.problem().type()).isEqualTo("target.auth_failed");
                assertThat(e.problem().message())
                        .contains("Incorrect API key provided: Bearer ***")
                        .doesNotContain("sk-named-local");
                assertThat(e).hasNoCause();
            });
        }
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(new ScriptedOpenAiServer.Reply.Answer(
                        "your key is sk-named-local",
                        List.of(ScriptedOpenAiServer.Call.of("echo", "{\"key\": \"sk-named-local\"}")))));
                ChatModel model = namedKeyModel(server)) {
            ModelResponse response = model.complete(ask());

            assertThat(response.text()).isEqualTo("your key is ***");
            assertThat(response.toolCalls())
                    .singleElement()
                    .satisfies(call -> assertThat(Json.write(call.arguments())).isEqualTo("{\"key\":\"***\"}"));
        }
    }

    @Test
    void a_key_the_endpoint_echoes_in_base64_or_cut_short_is_masked_in_its_error_and_its_answers() throws Exception {
        String key = "sk-proj-Qm7xT2vLk9WcR4nB8yHd3ZsF6gJp1aEu";
        Map<String, String> env = Map.of("LOCAL_KEY", key);
        String base64 =
                java.util.Base64.getUrlEncoder().encodeToString(key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        String echo = "key " + base64 + " or " + key.substring(0, 30) + " or " + key + "!";
        try (var server = ScriptedOpenAiServer.start(
                        ScriptedOpenAiServer.always(new ScriptedOpenAiServer.Reply.Saying(401, echo)));
                ChatModel model = ChatModels.chatModel(
                        new ModelOptions("openai:local", server.baseUrl(), "LOCAL_KEY", false, null, null),
                        env::get,
                        line -> {})) {
            assertThatThrownBy(() -> model.complete(ask())).isInstanceOfSatisfying(AssayException.class, e -> {
                assertThat(e.problem().type()).isEqualTo("target.auth_failed");
                assertThat(e.problem().message())
                        .doesNotContain(base64.substring(12, 32))
                        .doesNotContain(key.substring(8, 30));
            });
        }
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text(echo)));
                ChatModel model = ChatModels.chatModel(
                        new ModelOptions("openai:local", server.baseUrl(), "LOCAL_KEY", false, null, null),
                        env::get,
                        line -> {})) {
            String answer = model.complete(ask()).text();

            assertThat(answer).doesNotContain(base64.substring(12, 32)).doesNotContain(key.substring(8, 30));
            assertThat(answer).startsWith("key ").contains("***");
        }
    }

    @Test
    void the_providers_own_host_gets_the_default_key_and_refuses_to_start_without_one() {
        assertThat(ChatModels.key(ModelOptions.of("openai:gpt-4o-mini"), OpenAiSettings.DEFAULT_BASE_URL, ENV::get))
                .isEqualTo("sk-default-openai");
        assertThatThrownBy(() -> ChatModels.key(
                        ModelOptions.of("openai:gpt-4o-mini"), OpenAiSettings.DEFAULT_BASE_URL, name -> null))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("target.missing_api_key"));
    }

    @Test
    void a_look_alike_host_is_not_the_provider() {
        for (String url : List.of(
                "https://api.openai.com.evil.example/v1",
                "http://api.openai.com/v1",
                "https://api.openai.com@evil.example/v1",
                "https://api.openai.com:8443/v1")) {
            assertThat(ChatModels.key(
                            new ModelOptions("openai:m", url, null, false, null, null),
                            OpenAiSettings.DEFAULT_BASE_URL,
                            ENV::get))
                    .as(url)
                    .isEmpty();
        }
    }
}
