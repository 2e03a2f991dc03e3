package dev.assay.model.anthropic;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.JsonValue;
import com.anthropic.core.RequestOptions;
import com.anthropic.errors.AnthropicInvalidDataException;
import com.anthropic.errors.AnthropicIoException;
import com.anthropic.errors.AnthropicServiceException;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.StopReason;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.anthropic.models.messages.ToolUseBlockParam;
import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.EndpointUrl;
import dev.assay.Json;
import dev.assay.model.ChatMessage;
import dev.assay.model.ChatModel;
import dev.assay.model.ModelRequest;
import dev.assay.model.ModelResponse;
import dev.assay.model.RetryLoop;
import dev.assay.model.ToolCallRequest;
import dev.assay.tools.ToolSpec;
import dev.assay.transcript.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A model behind Anthropic's Messages API, through the official {@code anthropic-java} SDK, with native tool use:
 * Assay's tools become {@code tools}, the model's {@code tool_use} blocks become tool calls, and tool results go back
 * as {@code tool_result} blocks. System messages become the top-level {@code system} prompt. The SDK's own retries are
 * off: {@link RetryLoop} retries as for every other target. Non-streaming (the result of a streamed call would be the
 * same message). Thread-safe.
 */
public final class AnthropicChatModel implements ChatModel {
    private final AnthropicClient client;
    private final String model;
    private final String endpoint;
    private final int defaultMaxTokens;
    private final RetryLoop retry;

    /**
     * @param settings how to reach the API; the key is used for requests only, never stored or logged
     * @param log receives one line per retry
     */
    public AnthropicChatModel(AnthropicSettings settings, Consumer<String> log) {
        this.client = AnthropicOkHttpClient.builder()
                .baseUrl(settings.baseUrl())
                .apiKey(settings.apiKey().isEmpty() ? "not-needed" : settings.apiKey())
                .maxRetries(0)
                .timeout(settings.requestTimeout())
                .checkJacksonVersionCompatibility(false)
                .build();
        this.model = settings.model();
        this.endpoint = EndpointUrl.redacted(settings.baseUrl());
        this.defaultMaxTokens = settings.defaultMaxTokens();
        this.retry = new RetryLoop(settings.retry(), log, EndpointUrl.hostAndPort(settings.baseUrl()));
    }

    @Override
    public void close() {
        // The SDK's OkHttp pools and threads would otherwise linger for minutes after each run.
        client.close();
    }

    @Override
    public String endpoint() {
        return endpoint;
    }

    @Override
    public String name() {
        return "anthropic:" + model;
    }

    @Override
    public ModelResponse complete(ModelRequest request) throws InterruptedException {
        MessageCreateParams params = toParams(request);
        return retry.call(
                request.timeout(),
                remaining -> toResponse(client.messages()
                        .create(
                                params,
                                remaining == null
                                        ? RequestOptions.none()
                                        : RequestOptions.builder()
                                                .timeout(remaining)
                                                .build())),
                AnthropicChatModel::classify);
    }

    private MessageCreateParams toParams(ModelRequest request) {
        var builder = MessageCreateParams.builder()
                .model(model)
                .maxTokens(request.maxTokens() != null ? request.maxTokens() : defaultMaxTokens);
        var system = new ArrayList<String>();
        var toolResults = new ArrayList<ContentBlockParam>();
        for (ChatMessage message : request.messages()) {
            if (message.role() != ChatMessage.Role.TOOL && !toolResults.isEmpty()) {
                builder.addUserMessageOfContentBlockParams(List.copyOf(toolResults));
                toolResults.clear();
            }
            switch (message.role()) {
                case SYSTEM -> system.add(message.content());
                case USER -> builder.addUserMessage(message.content());
                case ASSISTANT -> builder.addAssistantMessageOfContentBlockParams(assistantBlocks(message));
                // The API wants every result of one assistant turn's tool_use blocks in the next user turn.
                case TOOL ->
                    toolResults.add(ContentBlockParam.ofToolResult(ToolResultBlockParam.builder()
                            .toolUseId(message.toolCallId())
                            .content(message.content())
                            .build()));
            }
        }
        if (!toolResults.isEmpty()) {
            builder.addUserMessageOfContentBlockParams(List.copyOf(toolResults));
        }
        if (!system.isEmpty()) {
            builder.system(String.join("\n\n", system));
        }
        request.tools().forEach(tool -> builder.addTool(toTool(tool)));
        if (request.temperature() != null) {
            builder.putAdditionalBodyProperty("temperature", JsonValue.from(request.temperature()));
        }
        return builder.build();
    }

    private static List<ContentBlockParam> assistantBlocks(ChatMessage message) {
        var blocks = new ArrayList<ContentBlockParam>();
        // The API refuses empty text blocks; an assistant turn that only called tools has none.
        if (!message.content().isBlank()) {
            blocks.add(ContentBlockParam.ofText(message.content()));
        }
        for (ToolCallRequest call : message.toolCalls()) {
            var input = ToolUseBlockParam.Input.builder();
            call.arguments()
                    .properties()
                    .forEach(field ->
                            input.putAdditionalProperty(field.getKey(), JsonValue.fromJsonNode(field.getValue())));
            blocks.add(ContentBlockParam.ofToolUse(ToolUseBlockParam.builder()
                    .id(call.id())
                    .name(call.name())
                    .input(input.build())
                    .build()));
        }
        if (blocks.isEmpty()) {
            blocks.add(ContentBlockParam.ofText("(no answer)"));
        }
        return blocks;
    }

    private static Tool toTool(ToolSpec spec) {
        var properties = Tool.InputSchema.Properties.builder();
        spec.parameters()
                .path("properties")
                .properties()
                .forEach(field ->
                        properties.putAdditionalProperty(field.getKey(), JsonValue.fromJsonNode(field.getValue())));
        var schema = Tool.InputSchema.builder().properties(properties.build());
        var required = new ArrayList<String>();
        spec.parameters().path("required").forEach(name -> required.add(name.asText()));
        if (!required.isEmpty()) {
            schema.required(required);
        }
        spec.parameters().properties().forEach(field -> {
            if (!List.of("type", "properties", "required").contains(field.getKey())) {
                schema.putAdditionalProperty(field.getKey(), JsonValue.fromJsonNode(field.getValue()));
            }
        });
        return Tool.builder()
                .name(spec.name())
                .description(spec.description())
                .inputSchema(schema.build())
                .build();
    }

    private static ModelResponse toResponse(Message message) {
        var text = new StringBuilder();
        var reasoning = new StringBuilder();
        var calls = new ArrayList<ToolCallRequest>();
        for (ContentBlock block : message.content()) {
            block.text().ifPresent(part -> text.append(part.text()));
            block.thinking().ifPresent(part -> reasoning.append(part.thinking()));
            block.toolUse()
                    .ifPresent(use -> calls.add(new ToolCallRequest(use.id(), use.name(), arguments(use._input()))));
        }
        // Anthropic's input_tokens leaves out the tokens read from and written to its prompt cache; Assay's input
        // counts
        // every prompt token, the cache reads among them priced apart (cache writes are priced as input).
        long cacheRead = message.usage().cacheReadInputTokens().orElse(0L);
        long cacheWrite = message.usage().cacheCreationInputTokens().orElse(0L);
        Usage usage = new Usage(
                message.usage().inputTokens() + cacheRead + cacheWrite,
                message.usage().outputTokens(),
                cacheRead);
        String stop = message.stopReason().map(StopReason::asString).orElse("");
        return new ModelResponse(text.toString(), reasoning.toString(), calls, usage, stop);
    }

    /** Models sometimes send input that is not a JSON object; it is kept, wrapped, for the checkers. */
    private static JsonNode arguments(JsonValue input) {
        JsonNode node = Json.tree(input.convert(Object.class));
        return node.isObject()
                ? node
                : node.isNull() || node.isMissingNode()
                        ? Json.object()
                        : Json.object().set("raw", node);
    }

    private static RetryLoop.Failure classify(RuntimeException e) {
        if (e instanceof AnthropicServiceException service) {
            List<String> retryAfter = service.headers().values("retry-after");
            // 529 "overloaded" is Anthropic's transient status; RetryLoop retries every 5xx.
            return RetryLoop.httpFailure(
                    service.statusCode(),
                    service.getMessage(),
                    retryAfter.isEmpty() ? null : RetryLoop.parseRetryAfter(retryAfter.get(0)));
        }
        if (e instanceof AnthropicInvalidDataException) {
            return RetryLoop.malformed(e.getMessage());
        }
        if (e instanceof AnthropicIoException) {
            return RetryLoop.unreachable(e);
        }
        return null;
    }
}
