package dev.assay.model.internal;

import dev.assay.model.ChatModel;
import dev.assay.model.ModelOptions;
import dev.assay.model.ModelProvider;
import dev.assay.model.ModelRequest;
import dev.assay.model.ModelResponse;
import dev.assay.transcript.Usage;
import java.util.List;
import java.util.function.Consumer;

/**
 * The offline model {@code mock}: it answers every request with the same fixed text and never calls tools. It exists to
 * try the whole pipeline without a network or an API key (like Inspect's mockllm); its scores say nothing about any
 * model.
 */
public final class MockChatModel implements ChatModel {
    /** The fixed answer; chosen so that no checker mistakes it for an option letter or a tool call. */
    public static final String ANSWER = "mock response";

    /** The kind {@code mock}: no model name, no key, no endpoint. */
    public static final ModelProvider PROVIDER = new ModelProvider() {
        @Override
        public String kind() {
            return "mock";
        }

        @Override
        public String defaultBaseUrl() {
            return "";
        }

        @Override
        public String exampleModel() {
            return "";
        }

        @Override
        public ChatModel create(String model, ModelOptions options, String apiKey, Consumer<String> log) {
            return new MockChatModel();
        }
    };

    @Override
    public String name() {
        return "mock";
    }

    @Override
    public ModelResponse complete(ModelRequest request) {
        return new ModelResponse(ANSWER, "", List.of(), Usage.NONE, "stop");
    }
}
