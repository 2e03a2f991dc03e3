package dev.assay.check.internal;

import dev.assay.check.CheckerFactory;
import java.util.List;

/**
 * The one visible place where the checkers of this package are registered. Checkers of packages above it arrive like
 * any plug-in, through {@code META-INF/services/dev.assay.check.CheckerFactory}: {@code code} (code questions, run in
 * bubblewrap) and {@code judge} (without a judge model, so suites using it load and validate; the edge registers a
 * configured one over it).
 */
public final class BuiltinCheckers {
    private BuiltinCheckers() {}

    public static List<CheckerFactory> all() {
        return List.of(
                ChoiceChecker.FACTORY,
                ExactChecker.FACTORY,
                RegexChecker.FACTORY,
                ContainsChecker.FACTORY,
                ToolCalledChecker.FACTORY,
                ToolArgsChecker.FACTORY,
                FileExistsChecker.FACTORY,
                FileContainsChecker.FACTORY,
                JsonSchemaChecker.FACTORY,
                JsonContainsChecker.FACTORY,
                CommandChecker.FACTORY,
                StateMatchesChecker.FACTORY,
                ActionsCalledChecker.FACTORY,
                ToldUserChecker.FACTORY);
    }
}
