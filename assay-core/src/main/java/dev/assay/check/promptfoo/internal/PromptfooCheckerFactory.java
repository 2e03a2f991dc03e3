package dev.assay.check.promptfoo.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.check.CheckContext;
import dev.assay.check.Checker;
import dev.assay.check.CheckerFactory;
import dev.assay.check.judge.Judge;
import dev.assay.check.judge.JudgeCache;
import dev.assay.check.judge.JudgeModel;
import dev.assay.check.promptfoo.PromptfooAssertions;
import dev.assay.sandbox.Sandboxes;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The {@code promptfoo} checker: {@code expected = {"assertion": <one promptfoo assertion as written>}}, its values
 * rendered with the test's vars by the loader (code reads the vars at run time from the case's
 * {@code attributes.vars}). Judged as {@link PromptfooChecker} says; an assertion Assay does not judge is refused when
 * the suite loads with {@link PromptfooAssertions#UNSUPPORTED}. Thread-safe.
 *
 * <p>The model-graded types ask the first configured judge model (as the {@code judge} checker does, its answers kept
 * the same way); without one they are skipped with {@code judge.not_configured}. The {@code javascript} and
 * {@code python} types run in a confining sandbox found on first use, never unconfined: without one they are errors
 * ({@code sandbox.unavailable}).
 */
public final class PromptfooCheckerFactory implements CheckerFactory {
    /** The checker's name in case files. */
    public static final String NAME = "promptfoo";

    private final Optional<JudgeModel> judge;
    private final JudgeCache cache;
    private final ScriptAssertions scripts;

    /**
     * The factory {@link java.util.ServiceLoader} makes: no judge model (model-graded assertions are skipped), code in
     * the first confining sandbox found.
     */
    public PromptfooCheckerFactory() {
        this(List.of(), JudgeCache.disabled(), Sandboxes.ISOLATING);
    }

    /**
     * @param judges the configured judges; the first grades {@code llm-rubric} and {@code model-graded-closedqa}; empty
     *     to skip them
     * @param cache where the judge's answers are kept outside a run, as the judge checker keeps them
     * @param sandboxes how the confining sandbox of {@code javascript} and {@code python} is found
     */
    public PromptfooCheckerFactory(List<JudgeModel> judges, JudgeCache cache, Sandboxes.Finder sandboxes) {
        this.judge = judges.stream().findFirst();
        this.cache = Objects.requireNonNull(cache, "cache");
        this.scripts = new ScriptAssertions(
                Sandboxes.onFirstUse(Objects.requireNonNull(sandboxes, "sandboxes")), ScriptAssertions.defaultLimits());
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * @throws AssayException {@link PromptfooAssertions#UNSUPPORTED} for an assertion Assay does not judge,
     *     {@code check.invalid_expected} for a malformed one
     */
    @Override
    public Checker create(JsonNode expected) {
        Assertion assertion = Assertion.fromExpected(expected);
        Optional<Function<CheckContext, Judge>> judges =
                judge.map(model -> context -> new Judge(model, cache.forCheck(context), context.scope()));
        return new PromptfooChecker(assertion, judges, scripts);
    }
}
