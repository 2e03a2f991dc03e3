package dev.assay.run;

import dev.assay.Plugins;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Makes a {@link RunObserver} (assay-otel's {@code otel}: runs as OpenTelemetry traces). A plug-in like the others,
 * found by name in {@link #all()}; a front end looks one up only when a run is to be observed, so that no class of an
 * observer's (nor of the library behind it) is loaded otherwise. Thread-safe.
 */
public interface RunObserverFactory {
    /** {@return the name a front end asks for} */
    String name();

    /**
     * Makes an observer, configured from the environment ({@code OTEL_*} for OpenTelemetry).
     *
     * @param environment the process's environment, as the front end has it
     * @param log a line worth showing the user (an export that failed); never secrets
     * @throws dev.assay.AssayException when the configuration is invalid
     */
    RunObserver create(Map<String, String> environment, Consumer<String> log);

    /** {@return the run observers on the class path; none is built in} */
    static Plugins<RunObserverFactory> all() {
        return Plugins.load(RunObserverFactory.class, "run observer", RunObserverFactory::name, List.of());
    }
}
