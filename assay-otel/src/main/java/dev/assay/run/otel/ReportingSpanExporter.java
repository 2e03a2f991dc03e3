package dev.assay.run.otel;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The configured exporter, saying the first failed export once through Assay's log: a collector that is down or refuses
 * the spans costs the run its traces, never its result, and the user learns it once rather than per batch. Thread-safe.
 */
final class ReportingSpanExporter implements SpanExporter {
    private final SpanExporter exporter;
    private final Consumer<String> log;
    private final AtomicBoolean said = new AtomicBoolean();

    ReportingSpanExporter(SpanExporter exporter, Consumer<String> log) {
        this.exporter = exporter;
        this.log = log;
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        CompletableResultCode result = exporter.export(spans);
        result.whenComplete(() -> {
            if (!result.isSuccess() && said.compareAndSet(false, true)) {
                Throwable failure = result.getFailureThrowable();
                log.accept("OpenTelemetry: spans could not be exported, the run goes on without them"
                        + (failure == null ? "" : " (" + failure.getClass().getSimpleName() + ")"));
            }
        });
        return result;
    }

    @Override
    public CompletableResultCode flush() {
        return exporter.flush();
    }

    @Override
    public CompletableResultCode shutdown() {
        return exporter.shutdown();
    }

    @Override
    public String toString() {
        return "ReportingSpanExporter{" + exporter + "}";
    }
}
