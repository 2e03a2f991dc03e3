package dev.assay.model.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.RequestOptions;
import com.openai.core.http.StreamResponse;
import com.openai.errors.OpenAIInvalidDataException;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.OpenAIServiceException;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionAssistantMessageParam;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import dev.assay.AssayException;
import dev.assay.EndpointUrl;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.model.ChatMessage;
import dev.assay.model.ChatModel;
import dev.assay.model.ModelRequest;
import dev.assay.model.ModelResponse;
import dev.assay.model.RetryLoop;
import dev.assay.model.RetryPolicy;
import dev.assay.model.ToolCallRequest;
import dev.assay.tools.ToolSpec;
import dev.assay.transcript.Usage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A model behind an OpenAI-compatible Chat Completions API (OpenAI, vLLM, Ollama, DeepSeek, Qwen...), through the
 * official {@code openai-java} SDK. The SDK's own retries are off: Assay retries with its {@link RetryPolicy} so that
 * attempts and waits are bounded, configurable and reported. Thread-safe.
 */
public final class OpenAiChatModel implements ChatModel {
    /**
     * Idle connections kept per client. OkHttp keeps 5 by default: at concurrency 64 a new TCP connection was opened
     * for 36–55 % of requests. 256 is the largest run concurrency; idle connections exist only once opened.
     */
    private static final int MAX_IDLE_CONNECTIONS = 256;

    private final OpenAIClient client;
    // The same tools go with every request of a run: their SDK form is built once (it was 7 % of a run's CPU).
    private final Map<ToolSpec, FunctionDefinition> toolDefinitions = new ConcurrentHashMap<>();
    private final String model;
    private final String endpoint;
    private final boolean stream;
    private final RetryLoop retry;

    /**
     * @param settings how to reach the API; the key is used for requests only, never stored or logged
     * @param log receives one line per retry ("retrying after 429, attempt 2/4, waiting 1.0 s")
     */
    public OpenAiChatModel(OpenAiSettings settings, Consumer<String> log) {
        this.client = OpenAIOkHttpClient.builder()
                .baseUrl(settings.baseUrl())
                .apiKey(settings.apiKey().isEmpty() ? "not-needed" : settings.apiKey())
                .maxRetries(0)
                .maxIdleConnections(MAX_IDLE_CONNECTIONS)
                .keepAliveDuration(Duration.ofMinutes(5))
                .timeout(settings.requestTimeout())
                .checkJacksonVersionCompatibility(false)
                .build();
        this.model = settings.model();
        this.endpoint = EndpointUrl.redacted(settings.baseUrl());
        this.stream = settings.stream();
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
        return "openai:" + model;
    }

    @Override
    public ModelResponse complete(ModelRequest request) throws InterruptedException {
        ChatCompletionCreateParams params = toParams(request);
        return retry.call(
                request.timeout(),
                remaining -> stream ? streamed(params, remaining) : single(params, remaining),
                OpenAiChatModel::classify);
    }

    private ModelResponse single(ChatCompletionCreateParams params, Duration timeout) {
        ChatCompletion completion = client.chat().completions().create(params, options(timeout));
        return toResponse(completion);
    }

    private ModelResponse streamed(ChatCompletionCreateParams params, Duration timeout) {
        ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
        var finished = new AtomicBoolean();
        var started = new AtomicBoolean();
        try (StreamResponse<ChatCompletionChunk> chunks =
                client.chat().completions().createStreaming(params, options(timeout))) {
            chunks.stream().forEach(chunk -> {
                started.set(true);
                accumulator.accumulate(chunk);
                if (chunk.choices().stream()
                        .anyMatch(choice -> choice.finishReason().isPresent())) {
                    finished.set(true);
                }
            });
        } catch (OpenAIIoException e) {
            // A stream the deadline closed is reported as a timeout by RetryLoop, however it is classified here.
            if (started.get() && !RetryLoop.timedOut(e)) {
                throw new StreamFailure(RetryLoop.truncated());
            }
            throw e;
        }
        // A stream without a single chunk was no event stream at all; one without a finish reason was closed
        // mid-answer by the server or a proxy. The accumulator would fail on either with an internal exception.
        if (!started.get()) {
            throw new StreamFailure(RetryLoop.malformed("the answer's stream held no events"));
        }
        if (!finished.get()) {
            throw new StreamFailure(RetryLoop.truncated());
        }
        return toResponse(accumulator.chatCompletion());
    }

    /** A stream that ended without a complete answer, with how to report it. */
    private static final class StreamFailure extends RuntimeException {
        final RetryLoop.Failure failure;

        StreamFailure(RetryLoop.Failure failure) {
            super(failure.problem().message(), null, false, false);
            this.failure = failure;
        }
    }

    private static RequestOptions options(Duration timeout) {
        var builder = RequestOptions.builder();
        if (timeout != null) {
            builder.timeout(timeout);
        }
        return builder.build();
    }

    // OpenAI marks `seed` deprecated, but compatible servers (vLLM, Ollama) honour it and users ask for it.
    @SuppressWarnings("deprecation")
    private ChatCompletionCreateParams toParams(ModelRequest request) {
        var builder = ChatCompletionCreateParams.builder().model(model);
        for (ChatMessage message : request.messages()) {
            switch (message.role()) {
                case SYSTEM -> builder.addSystemMessage(message.content());
                case USER -> builder.addUserMessage(message.content());
                case ASSISTANT -> builder.addMessage(assistantMessage(message));
                case TOOL ->
                    builder.addMessage(ChatCompletionToolMessageParam.builder()
                            .toolCallId(message.toolCallId())
                            .content(message.content())
                            .build());
            }
        }
        for (ToolSpec tool : request.tools()) {
            builder.addFunctionTool(toolDefinitions.computeIfAbsent(tool, OpenAiChatModel::definition));
        }
        if (request.temperature() != null) {
            builder.temperature(request.temperature());
        }
        if (request.seed() != null) {
            builder.seed(request.seed());
        }
        if (request.maxTokens() != null) {
            builder.maxCompletionTokens(request.maxTokens().longValue());
        }
        return builder.build();
    }

    private static FunctionDefinition definition(ToolSpec tool) {
        return FunctionDefinition.builder()
                .name(tool.name())
                .description(tool.description())
                .parameters(FunctionParameters.builder()
                        .putAllAdditionalProperties(toJsonValues(tool.parameters()))
                        .build())
                .build();
    }

    private static ChatCompletionAssistantMessageParam assistantMessage(ChatMessage message) {
        var builder = ChatCompletionAssistantMessageParam.builder();
        if (!message.content().isEmpty() || message.toolCalls().isEmpty()) {
            builder.content(message.content());
        }
        for (ToolCallRequest call : message.toolCalls()) {
            builder.addToolCall(ChatCompletionMessageFunctionToolCall.builder()
                    .id(call.id())
                    .function(ChatCompletionMessageFunctionToolCall.Function.builder()
                            .name(call.name())
                            .arguments(Json.write(call.arguments()))
                            .build())
                    .build());
        }
        return builder.build();
    }

    private static Map<String, JsonValue> toJsonValues(JsonNode objectNode) {
        var values = new LinkedHashMap<String, JsonValue>();
        objectNode
                .properties()
                .forEach(field -> values.put(
                        field.getKey(), JsonValue.from(Json.MAPPER.convertValue(field.getValue(), Object.class))));
        return values;
    }

    // `reasoning_content` (DeepSeek, vLLM, Qwen) is outside the SDK's model: only the raw properties hold it.
    @SuppressWarnings("deprecation")
    private static ModelResponse toResponse(ChatCompletion completion) {
        if (completion.choices().isEmpty()) {
            throw new AssayException(Problem.of("target.malformed_response", "the response has no choices"));
        }
        var choice = completion.choices().get(0);
        ChatCompletionMessage message = choice.message();
        var calls = new ArrayList<ToolCallRequest>();
        for (ChatCompletionMessageToolCall call : message.toolCalls().orElse(List.of())) {
            call.function()
                    .ifPresent(function -> calls.add(new ToolCallRequest(
                            function.id(),
                            function.function().name(),
                            parseArguments(function.function().arguments()))));
        }
        String reasoning = Optional.ofNullable(message._additionalProperties().get("reasoning_content"))
                .map(value -> value.convert(Object.class))
                .filter(String.class::isInstance)
                .map(String.class::cast)
                .orElse("");
        Usage usage = completion
                .usage()
                .map(u -> new Usage(u.promptTokens(), u.completionTokens()))
                .orElse(Usage.NONE);
        String finish =
                choice._finishReason().isMissing() ? "" : choice.finishReason().asString();
        return new ModelResponse(message.content().orElse(""), reasoning, calls, usage, finish);
    }

    /** Models sometimes send arguments that are not a JSON object; they are kept, wrapped, for the checkers. */
    static JsonNode parseArguments(String arguments) {
        if (arguments == null || arguments.isBlank()) {
            return Json.object();
        }
        try {
            JsonNode node = Json.MAPPER.readTree(arguments);
            return node.isObject() ? node : Json.object().set("raw", node);
        } catch (Exception e) {
            return Json.object().put("raw", arguments);
        }
    }

    private static RetryLoop.Failure classify(RuntimeException e) {
        if (e instanceof OpenAIServiceException service) {
            List<String> retryAfter = service.headers().values("retry-after");
            return RetryLoop.httpFailure(
                    service.statusCode(),
                    service.getMessage(),
                    retryAfter.isEmpty() ? null : RetryLoop.parseRetryAfter(retryAfter.get(0)));
        }
        if (e instanceof StreamFailure stream) {
            return stream.failure;
        }
        if (e instanceof OpenAIInvalidDataException) {
            return RetryLoop.malformed(e.getMessage());
        }
        if (e instanceof OpenAIIoException) {
            return RetryLoop.unreachable(e);
        }
        return null;
    }
}
