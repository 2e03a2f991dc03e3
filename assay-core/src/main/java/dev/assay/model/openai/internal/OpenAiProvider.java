package dev.assay.model.openai.internal;

import dev.assay.model.ChatModel;
import dev.assay.model.ModelOptions;
import dev.assay.model.ModelProvider;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.model.openai.OpenAiSettings;
import java.util.function.Consumer;

/** The kind {@code openai}: OpenAI and every server speaking its Chat Completions API. Found by ServiceLoader. */
public final class OpenAiProvider implements ModelProvider {
    @Override
    public String kind() {
        return "openai";
    }

    @Override
    public String defaultBaseUrl() {
        return OpenAiSettings.DEFAULT_BASE_URL;
    }

    @Override
    public String exampleModel() {
        return "gpt-4o-mini";
    }

    @Override
    public ChatModel create(String model, ModelOptions options, String apiKey, Consumer<String> log) {
        return new OpenAiChatModel(
                new OpenAiSettings(
                        model, options.baseUrl(), apiKey, options.stream(), options.requestTimeout(), options.retry()),
                log);
    }
}
