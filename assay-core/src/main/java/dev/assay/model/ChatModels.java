package dev.assay.model;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.model.anthropic.AnthropicChatModel;
import dev.assay.model.anthropic.AnthropicSettings;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.model.openai.OpenAiSettings;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Builds chat models from what users type ({@code mock}, {@code openai:gpt-4o-mini},
 * {@code anthropic:claude-sonnet-4-5}). The one place model kinds are registered; the CLI, the server and dialog
 * replay all come through here.
 */
public final class ChatModels {
    /** The model kinds users can name, as the prefix before {@code :}. */
    public static final List<String> MODEL_KINDS = List.of("mock", "openai", "anthropic");

    private ChatModels() {
    }

    /**
     * @param options what the user asked for
     * @param env     reads environment variables (the edge passes {@code System::getenv}); used for the API key only
     * @param log     receives retry lines
     * @throws AssayException {@code plugin.unknown} for an unknown kind, {@code target.missing_api_key} when the
     *                        public OpenAI or Anthropic API is named without a key
     */
    public static ChatModel chatModel(ModelOptions options, Function<String, String> env, Consumer<String> log) {
        String spec = options.model().strip();
        int colon = spec.indexOf(':');
        String kind = colon < 0 ? spec : spec.substring(0, colon);
        String name = colon < 0 ? "" : spec.substring(colon + 1).strip();
        return switch (kind) {
            case "mock" -> new MockChatModel();
            case "openai" -> {
                if (name.isEmpty()) {
                    throw invalid("give the model after 'openai:', e.g. openai:gpt-4o-mini");
                }
                String key = key(options, OpenAiSettings.DEFAULT_BASE_URL, env);
                yield new OpenAiChatModel(new OpenAiSettings(name, options.baseUrl(), key, options.stream(),
                        options.requestTimeout(), options.retry()), log);
            }
            case "anthropic" -> {
                if (name.isEmpty()) {
                    throw invalid("give the model after 'anthropic:', e.g. anthropic:claude-sonnet-4-5");
                }
                String key = key(options, AnthropicSettings.DEFAULT_BASE_URL, env);
                yield new AnthropicChatModel(new AnthropicSettings(name, options.baseUrl(), key,
                        options.requestTimeout(), options.retry(), 0), log);
            }
            default -> throw new AssayException(Problem.of("plugin.unknown",
                    "unknown model kind '" + kind + "' in '" + spec + "'; known: mock, openai:MODEL, anthropic:MODEL")
                    .withDetail("field", "model"));
        };
    }

    /**
     * {@return the API key to send: the named variable's key to any server, the default variable's key only to the
     * provider's own host (an OpenAI key is not handed to whatever {@code --base-url} points at); empty for none}
     *
     * @throws AssayException {@code target.missing_api_key} when the provider's own API is named without a key
     */
    static String key(ModelOptions options, String providerUrl, Function<String, String> env) {
        boolean providerHost = options.baseUrl() == null || options.baseUrl().isBlank()
                || sameHost(options.baseUrl(), providerUrl);
        if (!providerHost && !options.apiKeyEnvNamed()) {
            return "";
        }
        String key = env.apply(options.apiKeyEnv());
        if ((key == null || key.isBlank()) && providerHost) {
            throw missingKey(options);
        }
        return key == null ? "" : key;
    }

    /** Same scheme, host and port; a URL that does not parse is another host. */
    private static boolean sameHost(String url, String providerUrl) {
        try {
            URI given = new URI(url.strip());
            URI provider = new URI(providerUrl);
            return provider.getScheme().equalsIgnoreCase(given.getScheme())
                    && provider.getHost().equalsIgnoreCase(given.getHost())
                    && given.getPort() == provider.getPort() && given.getRawUserInfo() == null;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static AssayException missingKey(ModelOptions options) {
        return new AssayException(Problem.of("target.missing_api_key", "set the API key in $"
                + options.apiKeyEnv() + " (or name another variable with --api-key-env)")
                .withDetail("field", "api_key_env"));
    }

    private static AssayException invalid(String message) {
        return new AssayException(Problem.of("config.invalid_model", message).withDetail("field", "model"));
    }
}
