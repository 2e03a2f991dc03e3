package dev.assay.check;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.cases.Check;
import dev.assay.cases.CheckValidator;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checkers by name. The built-ins are registered in {@link #builtins()}; others arrive through {@link ServiceLoader} or
 * {@link #register}. Thread-safe.
 */
public final class CheckerRegistry implements CheckValidator {
    private final Map<String, CheckerFactory> factories = new ConcurrentHashMap<>();

    /** {@return a registry holding every built-in checker and those found on the class path} */
    public static CheckerRegistry builtins() {
        var registry = new CheckerRegistry();
        BuiltinCheckers.all().forEach(registry::register);
        ServiceLoader.load(CheckerFactory.class).forEach(registry::register);
        return registry;
    }

    public CheckerRegistry register(CheckerFactory factory) {
        factories.put(factory.name(), factory);
        return this;
    }

    /** {@return the registered names, sorted} */
    @Override
    public Set<String> names() {
        return new TreeMap<>(factories).keySet();
    }

    /** Creates the check's checker, which validates its {@code expected}, and drops it. */
    @Override
    public void validate(Check check) {
        create(check);
    }

    /**
     * {@return a checker for the check}
     *
     * @throws AssayException {@code plugin.unknown} listing the known names, or the factory's
     *     {@code check.invalid_expected}
     */
    public Checker create(Check check) {
        CheckerFactory factory = factories.get(check.checker());
        if (factory == null) {
            throw new AssayException(Problem.of(
                            "plugin.unknown",
                            "unknown checker '" + check.checker() + "'; known: " + String.join(", ", names()))
                    .withDetail("field", "checker"));
        }
        return factory.create(check.expected());
    }

    /**
     * {@return the canonical names of the tools a check requires the target to offer, as its checker says
     * ({@link Checker#requiredTools()}: those a {@code tool_called} or {@code tool_args} check names); empty for an
     * expectation that does not validate, which is judged as an error when the case runs}
     */
    public List<String> requiredTools(Check check) {
        try {
            return create(check).requiredTools();
        } catch (AssayException invalid) {
            return List.of();
        }
    }
}
