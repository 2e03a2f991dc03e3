/**
 * Runs as OpenTelemetry traces (assay-otel): the {@code otel} {@link dev.assay.run.RunObserverFactory}, a span per run,
 * per trial, per model call and per tool call, exported over OTLP as the {@code OTEL_*} variables configure it.
 */
package dev.assay.run.otel;
