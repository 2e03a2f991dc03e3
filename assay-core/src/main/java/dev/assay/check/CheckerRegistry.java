package dev.assay.check;

import dev.assay.AssayException;
import dev.assay.Plugins;
import dev.assay.cases.Check;
import dev.assay.cases.CheckValidator;
import dev.assay.check.internal.BuiltinCheckers;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checkers by name, a fixed set: {@link #builtins()} holds Assay's own and those found through {@link Plugins}, and
 * {@link #with} makes another set with one more. A run gets its own set ({@code EvalSpec.prepare} adds the code checker
 * its sandbox policy allows), so nothing one run sets reaches another. Immutable, thread-safe.
 */
public final class CheckerRegistry implements CheckValidator {
    private final Plugins<CheckerFactory> factories;

    /** An empty registry; {@link #with} makes fuller ones. */
    public CheckerRegistry() {
        this(Plugins.of("checker", CheckerFactory::name, List.of()));
    }

    private CheckerRegistry(Plugins<CheckerFactory> factories) {
        this.factories = factories;
    }

    /** {@return a registry holding every built-in checker and those found on the class path} */
    public static CheckerRegistry builtins() {
        return new CheckerRegistry(
                Plugins.load(CheckerFactory.class, "checker", CheckerFactory::name, BuiltinCheckers.all()));
    }

    /** {@return a registry of exactly these checkers} */
    public static CheckerRegistry of(Plugins<CheckerFactory> factories) {
        return new CheckerRegistry(factories);
    }

    /** {@return the checkers' factories by name} */
    public Plugins<CheckerFactory> plugins() {
        return factories;
    }

    /**
     * {@return these checkers and {@code factory}, which replaces a checker of the same name; this set is unchanged}
     */
    public CheckerRegistry with(CheckerFactory factory) {
        return new CheckerRegistry(factories.with(factory));
    }

    /** {@return the registered names, sorted} */
    public Set<String> names() {
        return new TreeSet<>(factories.names());
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
        CheckerFactory factory = factories.get(check.checker(), "checker");
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
