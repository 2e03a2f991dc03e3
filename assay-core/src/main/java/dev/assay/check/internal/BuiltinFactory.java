package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.check.Checker;
import dev.assay.check.CheckerFactory;
import java.util.function.Function;

/**
 * A built-in checker's factory: its frozen name and the function that validates {@code expected} and builds the
 * checker.
 *
 * @param name the name case files use
 * @param build validates the expectation (throwing {@code check.invalid_expected}) and returns the checker
 */
record BuiltinFactory(String name, Function<JsonNode, Checker> build) implements CheckerFactory {
    @Override
    public Checker create(JsonNode expected) {
        return build.apply(expected);
    }
}
