package dev.assay.run.otel;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.model.ModelRequest;
import dev.assay.model.ModelResponse;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.run.RunObserver;
import dev.assay.tools.ToolResult;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException;
import io.opentelemetry.sdk.resources.Resource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs as OpenTelemetry traces: a span per run, its trials (items) as its children, and each trial's model calls and
 * tool calls as the trial's children, in the agent loop's order. Model and tool spans follow the GenAI semantic
 * conventions ({@code gen_ai.*}); run and trial spans carry Assay's ids, statuses and scores ({@code assay.*}).
 * Prompts, answers and tool arguments are not exported: they are model output, and they stay in Assay's store.
 *
 * <p>The SDK is configured as its autoconfiguration does from the {@code OTEL_*} variables (endpoint, protocol,
 * headers, service name, resource attributes, sampler, batch settings); only traces are exported. Spans are exported in
 * batches on the SDK's own thread, so an unreachable collector never slows or fails a run: the first failed export is
 * said once through the log. {@link #close()} sends what is left, waiting at most {@link #SHUTDOWN_SECONDS}.
 * Thread-safe.
 */
final class OtelRunObserver implements RunObserver {
    /** How long closing waits for the last spans to be sent. */
    static final long SHUTDOWN_SECONDS = 10;

    private static final AttributeKey<String> RUN_ID = AttributeKey.stringKey("assay.run.id");
    private static final AttributeKey<String> RUN_KIND = AttributeKey.stringKey("assay.run.kind");
    private static final AttributeKey<String> RUN_STATUS = AttributeKey.stringKey("assay.run.status");
    private static final AttributeKey<Double> RUN_SCORE = AttributeKey.doubleKey("assay.run.total_score");
    private static final AttributeKey<Long> RUN_ITEMS = AttributeKey.longKey("assay.run.items");
    private static final AttributeKey<Long> RUN_PASSED = AttributeKey.longKey("assay.run.passed");
    private static final AttributeKey<Long> RUN_FAILED = AttributeKey.longKey("assay.run.failed");
    private static final AttributeKey<Long> RUN_ERRORS = AttributeKey.longKey("assay.run.errors");
    private static final AttributeKey<String> SUITE = AttributeKey.stringKey("assay.suite.name");
    private static final AttributeKey<String> TARGET = AttributeKey.stringKey("assay.target");
    private static final AttributeKey<String> CASE_ID = AttributeKey.stringKey("assay.case.id");
    private static final AttributeKey<String> DIMENSION = AttributeKey.stringKey("assay.case.dimension");
    private static final AttributeKey<String> ITEM_STATUS = AttributeKey.stringKey("assay.item.status");
    private static final AttributeKey<Double> ITEM_SCORE = AttributeKey.doubleKey("assay.item.score");
    private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    private static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    private static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    // The attribute the provider's name had before semantic conventions 1.37; backends still read it.
    private static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("gen_ai.system");
    private static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    private static final AttributeKey<Double> TEMPERATURE = AttributeKey.doubleKey("gen_ai.request.temperature");
    private static final AttributeKey<Long> SEED = AttributeKey.longKey("gen_ai.request.seed");
    private static final AttributeKey<Long> MAX_TOKENS = AttributeKey.longKey("gen_ai.request.max_tokens");
    private static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    private static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    private static final AttributeKey<List<String>> FINISH_REASONS =
            AttributeKey.stringArrayKey("gen_ai.response.finish_reasons");
    private static final AttributeKey<String> TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");
    private static final AttributeKey<String> TOOL_CALL_ID = AttributeKey.stringKey("gen_ai.tool.call.id");
    private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");

    /**
     * The SDK logs each failed export with its stack trace on stderr, and a configuration it refuses before throwing;
     * {@link ReportingSpanExporter} says the first once, the problem {@code otel.invalid_config} the second. Held here:
     * java.util.logging keeps loggers only weakly, and a collected one forgets its level.
     */
    private static final Logger SDK_LOG = Logger.getLogger("io.opentelemetry");

    private final OpenTelemetrySdk sdk;
    private final Tracer tracer;

    private OtelRunObserver(OpenTelemetrySdk sdk) {
        this.sdk = sdk;
        this.tracer = sdk.getTracer("dev.assay");
    }

    /**
     * @param environment the process's environment; its {@code OTEL_*} variables configure the SDK
     * @param log where a failed export is said, once
     * @throws AssayException {@code otel.invalid_config} when the variables do not make a valid configuration
     */
    static OtelRunObserver create(Map<String, String> environment, Consumer<String> log) {
        SDK_LOG.setLevel(Level.OFF);
        try {
            OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
                    .addPropertiesSupplier(() -> properties(environment))
                    .addResourceCustomizer((resource, config) -> named(resource))
                    .addSpanExporterCustomizer((exporter, config) -> new ReportingSpanExporter(exporter, log))
                    .disableShutdownHook()
                    .build()
                    .getOpenTelemetrySdk();
            return new OtelRunObserver(sdk);
        } catch (ConfigurationException e) {
            // The SDK wraps what it did not expect ("no sender for grpc") in a message that says nothing.
            String reason = e.getCause() != null && e.getCause().getMessage() != null
                    ? e.getCause().getMessage()
                    : e.getMessage();
            throw new AssayException(
                    Problem.of("otel.invalid_config", "the OTEL_* variables are not a valid configuration: " + reason),
                    e);
        }
    }

    /**
     * {@return the {@code OTEL_*} variables as the SDK's properties ({@code OTEL_SERVICE_NAME} is
     * {@code otel.service.name}), and traces only} The SDK reads the process's variables itself too; these are the
     * front end's view of them, which is the same in a real process and the one a test gives.
     */
    static Map<String, String> properties(Map<String, String> environment) {
        var properties = new LinkedHashMap<String, String>();
        environment.forEach((name, value) -> {
            if (name.startsWith("OTEL_")) {
                properties.put(name.toLowerCase(Locale.ROOT).replace('_', '.'), value);
            }
        });
        // The Java SDK's default is gRPC, which needs a sender Assay does not ship (OkHttp or gRPC's); OTLP over HTTP
        // is
        // the default of the specification and of the other SDKs, and collectors take it on 4318.
        if (!properties.containsKey("otel.exporter.otlp.protocol")
                && !properties.containsKey("otel.exporter.otlp.traces.protocol")) {
            properties.put("otel.exporter.otlp.protocol", "http/protobuf");
        }
        // Assay exports its runs as traces; it has no OpenTelemetry metrics or logs to send.
        properties.put("otel.metrics.exporter", "none");
        properties.put("otel.logs.exporter", "none");
        return properties;
    }

    /** {@return the resource, named {@code assay} unless the variables named the service} */
    private static Resource named(Resource resource) {
        String service = resource.getAttribute(SERVICE_NAME);
        return service == null || service.startsWith("unknown_service")
                ? resource.merge(Resource.builder().put(SERVICE_NAME, "assay").build())
                : resource;
    }

    @Override
    public Observation runStarted(Run run) {
        Span span = tracer.spanBuilder("assay.run")
                .setNoParent()
                .setAttribute(RUN_ID, run.runId())
                .setAttribute(RUN_KIND, run.kind().wireName())
                .setAttribute(SUITE, run.caseSet())
                .setAttribute(TARGET, run.modelName())
                .setStartTimestamp(run.startedAt())
                .startSpan();
        return new RunSpan(run.runId(), span);
    }

    @Override
    public void close() {
        sdk.shutdown().join(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
    }

    /** One run's span and what its trials hang under. */
    private final class RunSpan implements Observation {
        private final String runId;
        private final Span span;
        private final Context context;

        RunSpan(String runId, Span span) {
            this.runId = runId;
            this.span = span;
            this.context = Context.root().with(span);
        }

        @Override
        public Trial trialStarted(String itemId) {
            Span trial = tracer.spanBuilder("assay.case")
                    .setParent(context)
                    .setAttribute(RUN_ID, runId)
                    .setAttribute(CASE_ID, itemId)
                    .startSpan();
            return new TrialSpan(trial);
        }

        @Override
        public void runEnded(Run run) {
            span.setAttribute(RUN_STATUS, run.status().wireName());
            if (run.totalScore() != null) {
                span.setAttribute(RUN_SCORE, run.totalScore());
            }
            span.setAttribute(RUN_ITEMS, run.counts().total());
            span.setAttribute(RUN_PASSED, run.counts().passed());
            span.setAttribute(RUN_FAILED, run.counts().failed());
            span.setAttribute(RUN_ERRORS, run.counts().error());
            if (run.error() != null) {
                span.setAttribute(ERROR_TYPE, run.error().type());
                span.setStatus(StatusCode.ERROR, run.error().type());
            }
            span.end();
        }
    }

    /** One trial's span and what its calls hang under. */
    private final class TrialSpan implements Trial {
        private final Span span;
        private final Context context;

        TrialSpan(Span span) {
            this.span = span;
            this.context = Context.root().with(span);
        }

        @Override
        public ModelCall modelCall(String model, ModelRequest request) {
            int colon = model.indexOf(':');
            String provider = colon < 0 ? model : model.substring(0, colon);
            String name = colon < 0 ? model : model.substring(colon + 1);
            var builder = tracer.spanBuilder("chat " + name)
                    .setParent(context)
                    .setSpanKind(SpanKind.CLIENT)
                    .setAttribute(OPERATION, "chat")
                    .setAttribute(PROVIDER, provider)
                    .setAttribute(SYSTEM, provider)
                    .setAttribute(REQUEST_MODEL, name);
            if (request.temperature() != null) {
                builder.setAttribute(TEMPERATURE, request.temperature());
            }
            if (request.seed() != null) {
                builder.setAttribute(SEED, request.seed());
            }
            if (request.maxTokens() != null) {
                builder.setAttribute(MAX_TOKENS, (long) request.maxTokens());
            }
            Span call = builder.startSpan();
            return new ModelCall() {
                @Override
                public void answered(ModelResponse response) {
                    call.setAttribute(INPUT_TOKENS, response.usage().inputTokens());
                    call.setAttribute(OUTPUT_TOKENS, response.usage().outputTokens());
                    if (!response.finishReason().isEmpty()) {
                        call.setAttribute(FINISH_REASONS, List.of(response.finishReason()));
                    }
                    call.end();
                }

                @Override
                public void failed(Problem problem) {
                    failedWith(call, problem);
                    call.end();
                }
            };
        }

        @Override
        public ToolCall toolCall(String tool, String callId) {
            var builder = tracer.spanBuilder("execute_tool " + tool)
                    .setParent(context)
                    .setSpanKind(SpanKind.INTERNAL)
                    .setAttribute(OPERATION, "execute_tool")
                    .setAttribute(TOOL_NAME, tool);
            if (callId != null && !callId.isEmpty()) {
                builder.setAttribute(TOOL_CALL_ID, callId);
            }
            Span call = builder.startSpan();
            return new ToolCall() {
                @Override
                public void ended(ToolResult result) {
                    if (!result.ok()) {
                        failedWith(call, result.error());
                    }
                    call.end();
                }
            };
        }

        @Override
        public void ended(Item item) {
            if (item == null) {
                span.setStatus(StatusCode.ERROR, "the trial left no item");
            } else {
                span.setAttribute(CASE_ID, item.caseId());
                span.setAttribute(DIMENSION, item.dimension());
                span.setAttribute(ITEM_STATUS, item.status().wireName());
                span.setAttribute(ITEM_SCORE, item.score());
                if (item.error() != null) {
                    span.setAttribute(ERROR_TYPE, item.error().type());
                }
                if (item.status() == ItemStatus.ERROR) {
                    span.setStatus(
                            StatusCode.ERROR,
                            item.error() == null ? "error" : item.error().type());
                }
            }
            span.end();
        }
    }

    private static void failedWith(Span span, Problem problem) {
        String type = problem == null ? "error" : problem.type();
        span.setAttribute(ERROR_TYPE, type);
        span.setStatus(StatusCode.ERROR, type);
    }
}
