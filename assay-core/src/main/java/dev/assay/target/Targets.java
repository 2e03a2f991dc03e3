package dev.assay.target;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.target.anthropic.AnthropicChatModel;
import dev.assay.target.anthropic.AnthropicSettings;
import dev.assay.target.openai.OpenAiChatModel;
import dev.assay.target.openai.OpenAiSettings;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Builds chat models from what users type ({@code mock}, {@code openai:gpt-4o-mini},
 * {@code anthropic:claude-sonnet-4-5}). The one place model kinds are registered; the CLI, the server and dialog
 * replay all come through here.
 */
public final class Targets {
    /** The model kinds users can name, as the prefix before {@code :}. */
    public static final List<String> MODEL_KINDS = List.of("mock", "openai", "anthropic");

    private Targets() {
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
                String key = env.apply(options.apiKeyEnv());
                boolean publicApi = options.baseUrl() == null || options.baseUrl().isBlank()
                        || options.baseUrl().startsWith(OpenAiSettings.DEFAULT_BASE_URL);
                if ((key == null || key.isBlank()) && publicApi) {
                    throw missingKey(options);
                }
                yield new OpenAiChatModel(new OpenAiSettings(name, options.baseUrl(), key, options.stream(),
                        options.requestTimeout(), options.retry()), log);
            }
            case "anthropic" -> {
                if (name.isEmpty()) {
                    throw invalid("give the model after 'anthropic:', e.g. anthropic:claude-sonnet-4-5");
                }
                String key = env.apply(options.apiKeyEnv());
                boolean publicApi = options.baseUrl() == null || options.baseUrl().isBlank()
                        || options.baseUrl().startsWith(AnthropicSettings.DEFAULT_BASE_URL);
                if ((key == null || key.isBlank()) && publicApi) {
                    throw missingKey(options);
                }
                yield new AnthropicChatModel(new AnthropicSettings(name, options.baseUrl(), key,
                        options.requestTimeout(), options.retry(), 0), log);
            }
            default -> throw new AssayException(Problem.of("plugin.unknown",
                    "unknown model kind '" + kind + "' in '" + spec + "'; known: mock, openai:MODEL, anthropic:MODEL")
                    .withDetail("field", "model"));
        };
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
