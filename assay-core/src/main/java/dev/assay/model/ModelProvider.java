package dev.assay.model;

import java.util.function.Consumer;

/**
 * A kind of chat model users name as {@code KIND} or {@code KIND:MODEL} ({@code mock}, {@code openai:gpt-4o-mini},
 * {@code anthropic:claude-sonnet-4-5}). Providers are found by kind through {@link java.util.ServiceLoader}
 * ({@code META-INF/services/dev.assay.model.ModelProvider}), so a new API needs no change here: the key check and the
 * model-name check are done once, in {@link ChatModels}, for every provider.
 */
public interface ModelProvider {
    /** {@return the kind users type before the colon} */
    String kind();

    /**
     * {@return the provider's own endpoint, where its key is required and sent; empty for a kind that needs no key
     * (mock, a local model)}
     */
    String defaultBaseUrl();

    /** {@return an example model name for messages ("gpt-4o-mini"); empty when the kind takes none} */
    String exampleModel();

    /**
     * {@return a model}
     *
     * @param model the name after the colon; never empty when {@link #exampleModel()} is not empty
     * @param options base URL, sampling, timeouts and retries as given
     * @param apiKey the key to send, already read from the environment; empty when none is to be sent
     * @param log receives one line per retry
     */
    ChatModel create(String model, ModelOptions options, String apiKey, Consumer<String> log);
}
