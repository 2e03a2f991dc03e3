package dev.assay.run.otel;

import dev.assay.run.RunObserver;
import dev.assay.run.RunObserverFactory;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The {@code otel} run observer: runs exported as OpenTelemetry traces ({@link OtelRunObserver}). It names no class of
 * the SDK itself, so that finding it among the plug-ins loads none of them. Thread-safe (stateless).
 */
public final class OtelObserverFactory implements RunObserverFactory {
    /** The name front ends ask for. */
    public static final String NAME = "otel";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public RunObserver create(Map<String, String> environment, Consumer<String> log) {
        return OtelRunObserver.create(environment, log);
    }
}
