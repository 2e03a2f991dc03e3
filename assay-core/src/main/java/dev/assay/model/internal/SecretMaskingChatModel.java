package dev.assay.model.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.internal.SecretMask;
import dev.assay.model.ChatModel;
import dev.assay.model.ChatModels;
import dev.assay.model.ModelRequest;
import dev.assay.model.ModelResponse;
import dev.assay.model.ToolCallRequest;
import java.util.List;

/**
 * A model whose answers and failures are kept free of its API key ({@link SecretMask}): what an endpoint sends back is
 * stored, reported and logged, and an endpoint may echo the key (some error bodies quote the request's
 * {@code Authorization} header). Every provider's model is wrapped by {@link ChatModels}, which reads the key.
 */
public final class SecretMaskingChatModel implements ChatModel {
    private final ChatModel model;
    private final SecretMask mask;

    public SecretMaskingChatModel(ChatModel model, SecretMask mask) {
        this.model = model;
        this.mask = mask;
    }

    @Override
    public String name() {
        return model.name();
    }

    @Override
    public ModelResponse complete(ModelRequest request) throws InterruptedException {
        ModelResponse response;
        try {
            response = model.complete(request);
        } catch (AssayException e) {
            if (!mask.appearsIn(e.problem())) {
                throw e;
            }
            // Not chained: the cause's message is the text that held the key.
            throw new AssayException(mask.apply(e.problem()));
        }
        return masked(response);
    }

    private ModelResponse masked(ModelResponse response) {
        List<ToolCallRequest> calls = response.toolCalls().stream()
                .map(call -> new ToolCallRequest(call.id(), call.name(), masked(call.arguments())))
                .toList();
        return new ModelResponse(
                mask.apply(response.text()),
                mask.apply(response.reasoning()),
                calls,
                response.usage(),
                response.finishReason());
    }

    private JsonNode masked(JsonNode arguments) {
        if (arguments == null) {
            return null;
        }
        String json = Json.write(arguments);
        return mask.appearsIn(json) ? Json.parse(mask.apply(json)) : arguments;
    }

    @Override
    public String endpoint() {
        return model.endpoint();
    }

    @Override
    public void close() {
        model.close();
    }
}
