package dev.assay.model;

import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.model.anthropic.AnthropicSettings;
import dev.assay.testing.ScriptedAnthropicServer;
import dev.assay.testing.ScriptedOpenAiServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Where the Anthropic key goes, as {@code ApiKeyDestinationTest} (assay-core) holds for OpenAI: the default variable
 * only to Anthropic's own host, a named one to the server the user named.
 */
class AnthropicKeyDestinationTest {
    private static final Map<String, String> ENV =
            Map.of("ANTHROPIC_API_KEY", "sk-ant-default", "LOCAL_KEY", "sk-named-local");

    private static void complete(ModelOptions options) throws InterruptedException {
        try (ChatModel model = ChatModels.chatModel(options, ENV::get, line -> {})) {
            model.complete(new ModelRequest(
                    List.of(ChatMessage.user("q")), List.of(), null, null, null, Duration.ofSeconds(10)));
        }
    }

    @Test
    void the_default_anthropic_key_is_not_sent_to_a_custom_base_url_but_a_named_one_is() throws Exception {
        try (var server = ScriptedAnthropicServer.start(request -> text("ok"))) {
            complete(new ModelOptions("anthropic:claude-test", server.baseUrl(), null, false, null, null));
            complete(new ModelOptions("anthropic:claude-test", server.baseUrl(), "LOCAL_KEY", false, null, null));

            assertThat(server.credentials()).hasSize(2);
            assertThat(server.credentials().get(0)).doesNotContain("sk-ant-default");
            assertThat(server.credentials().get(1)).contains("sk-named-local");
        }
    }

    @Test
    void a_key_the_endpoint_quotes_back_is_masked_in_its_error() throws Exception {
        try (var server =
                ScriptedAnthropicServer.start(request -> new ScriptedOpenAiServer.Reply.QuotingFailure(401))) {
            assertThatThrownBy(() -> complete(new ModelOptions(
                            "anthropic:claude-test", server.baseUrl(), "LOCAL_KEY", false, null, null)))
                    .isInstanceOfSatisfying(
                            AssayException.class,
                            e -> assertThat(e.problem().message())
                                    .contains("invalid credentials: ")
                                    .contains("***")
                                    .doesNotContain("sk-named-local"));
        }
    }

    @Test
    void anthropics_own_host_gets_the_default_key() {
        assertThat(ChatModels.key(
                        new ModelOptions("anthropic:claude", "https://API.anthropic.com/", null, false, null, null),
                        AnthropicSettings.DEFAULT_BASE_URL,
                        ENV::get))
                .isEqualTo("sk-ant-default");
    }
}
