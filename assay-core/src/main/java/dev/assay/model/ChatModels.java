package dev.assay.model;

import dev.assay.AssayException;
import dev.assay.Plugins;
import dev.assay.Problem;
import dev.assay.internal.SecretMask;
import dev.assay.model.internal.MockChatModel;
import dev.assay.model.internal.SecretMaskingChatModel;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Builds chat models from what users type ({@code mock}, {@code openai:gpt-4o-mini},
 * {@code anthropic:claude-sonnet-4-5}) through the {@link ModelProvider} registered for the kind; the CLI, the server
 * and dialog replay all come through here, so the key and model-name checks are made once for every provider.
 */
public final class ChatModels {
    /** The providers by kind: the offline mock, and those on the class path (OpenAI, Anthropic, plug-ins). */
    private static final Plugins<ModelProvider> PROVIDERS =
            Plugins.load(ModelProvider.class, "model kind", ModelProvider::kind, List.of(MockChatModel.PROVIDER));

    /** The model kinds this installation knows, sorted: what {@code --model KIND:NAME} accepts. */
    public static final List<String> MODEL_KINDS =
            PROVIDERS.names().stream().sorted().toList();

    private ChatModels() {}

    public static ChatModel chatModel(ModelOptions options, Function<String, String> env, Consumer<String> log) {
        String spec = options.model().strip();
        int colon = spec.indexOf(':');
        String kind = colon < 0 ? spec : spec.substring(0, colon);
        String name = colon < 0 ? "" : spec.substring(colon + 1).strip();
        ModelProvider provider = PROVIDERS.get(kind, "model");
        if (provider.exampleModel().isEmpty()) {
            return provider.create(name, options, "", log);
        }
        if (name.isEmpty()) {
            throw invalid("give the model after '" + kind + ":', e.g. " + kind + ":" + provider.exampleModel());
        }
        String key = provider.defaultBaseUrl().isEmpty() ? "" : key(options, provider.defaultBaseUrl(), env);
        ChatModel model = provider.create(name, options, key, log);
        var mask = new SecretMask(key);
        return mask.equals(SecretMask.NONE) ? model : new SecretMaskingChatModel(model, mask);
    }

    static String key(ModelOptions options, String providerUrl, Function<String, String> env) {
        boolean providerHost =
                options.baseUrl() == null || options.baseUrl().isBlank() || sameHost(options.baseUrl(), providerUrl);
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
                    && given.getPort() == provider.getPort()
                    && given.getRawUserInfo() == null;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static AssayException missingKey(ModelOptions options) {
        return new AssayException(Problem.of(
                        "target.missing_api_key",
                        "set the API key in $" + options.apiKeyEnv() + " (or name another variable with --api-key-env)")
                .withDetail("field", "api_key_env"));
    }

    private static AssayException invalid(String message) {
        return new AssayException(Problem.of("config.invalid_model", message).withDetail("field", "model"));
    }
}
