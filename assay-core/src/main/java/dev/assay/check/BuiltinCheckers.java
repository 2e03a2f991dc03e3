package dev.assay.check;

import dev.assay.check.judge.JudgeCheckerFactory;
import java.util.List;

/**
 * The one visible place where Assay's own checkers are registered. {@code judge} is registered without a judge
 * model, so suites using it load and validate; the edge registers a configured {@link JudgeCheckerFactory} over it.
 */
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
                new dev.assay.code.CodeCheckerFactory(),
                // Without a configured judge model, judge checks are skipped with judge.not_configured.
                JudgeCheckerFactory.unconfigured());
    }
}
