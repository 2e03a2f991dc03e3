package dev.assay.model.anthropic;

import dev.assay.model.ChatModel;
import dev.assay.model.ModelOptions;
import dev.assay.model.ModelProvider;
import java.util.function.Consumer;

/** The kind {@code anthropic}: Anthropic's Messages API. Found by ServiceLoader. */
public final class AnthropicProvider implements ModelProvider {
    @Override
    public String kind() {
        return "anthropic";
    }

    @Override
    public String defaultBaseUrl() {
        return AnthropicSettings.DEFAULT_BASE_URL;
    }

    @Override
    public String exampleModel() {
        return "claude-sonnet-4-5";
    }

    @Override
    public ChatModel create(String model, ModelOptions options, String apiKey, Consumer<String> log) {
        return new AnthropicChatModel(
                new AnthropicSettings(model, options.baseUrl(), apiKey, options.requestTimeout(), options.retry(), 0),
                log);
    }
}
