package dev.assay.check;

import java.util.List;

/** The one visible place where Assay's own checkers are registered. */
final class BuiltinCheckers {
    private BuiltinCheckers() {
    }

    static List<CheckerFactory> all() {
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
                // Code questions run in bubblewrap; without it the checker gives error verdicts, never host runs.
                new dev.assay.code.CodeCheckerFactory());
    }
}
