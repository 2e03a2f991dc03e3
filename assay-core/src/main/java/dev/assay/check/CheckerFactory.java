package dev.assay.check;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Builds a checker from a case's {@code expected}. Called when a suite loads (to validate) and when a run starts (with
 * placeholders filled). Implementations found through {@link java.util.ServiceLoader} extend the registry.
 */
public interface CheckerFactory {
    /** {@return the name case files use, e.g. {@code tool_args}; frozen once published} */
    String name();

    /**
     * {@return a ready checker}
     *
     * @throws dev.assay.AssayException with type {@code check.invalid_expected} naming what was expected
     */
    Checker create(JsonNode expected);
}
