package dev.assay.cli;

import dev.assay.run.RunObserver;
import dev.assay.run.RunObserverFactory;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/**
 * Whether a run is exported to OpenTelemetry: with {@code --otel}, or when {@code OTEL_EXPORTER_OTLP_ENDPOINT} (or its
 * traces-only form) says where to. Otherwise the run's observer is {@link RunObserver#NONE} and no plug-in is even
 * looked up, so a run that is not traced loads no class of the OpenTelemetry SDK. Stateless.
 */
final class Telemetry {
    /** The variables whose presence asks for traces, as the OpenTelemetry SDK reads them. */
    static final List<String> ENDPOINT_VARIABLES =
            List.of("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");

    private Telemetry() {}

    /**
     * {@return the observer of a run: assay-otel's, configured from the {@code OTEL_*} variables, or none}
     *
     * @param requested whether {@code --otel} was given
     * @param stderr where a failed export is said, once
     * @throws dev.assay.AssayException {@code plugin.unknown} when assay-otel is not on the class path, or
     *     {@code otel.invalid_config}
     */
    static RunObserver observer(boolean requested, Map<String, String> env, PrintWriter stderr) {
        boolean configured =
                ENDPOINT_VARIABLES.stream().map(env::get).anyMatch(value -> value != null && !value.isBlank());
        if (!requested && !configured) {
            return RunObserver.NONE;
        }
        return RunObserverFactory.all().get("otel", "--otel").create(env, line -> {
            stderr.println("warning: " + line);
            stderr.flush();
        });
    }
}
