package dev.assay.code.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.check.Checker;
import dev.assay.check.CheckerFactory;
import dev.assay.code.CodeGrader;
import dev.assay.code.CodeQuestion;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.Sandboxes;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Factory of the {@code code} checker. The check's {@code expected} may be null or empty (tests come from the
 * question); an object there gives grader-level defaults in the old format ({@code test_cases}, {@code language},
 * {@code compare}...). With the no-argument constructor the sandbox is detected on first use and never falls back to
 * unsandboxed execution; the application passes its own sandbox when the user allowed running without one. Thread-safe.
 */
public final class CodeCheckerFactory implements CheckerFactory {
    private final Supplier<Sandbox> sandbox;
    private final CodeGrader.Options options;

    /** Detects bubblewrap on first use; grading fails with {@code sandbox.unavailable} without it. */
    public CodeCheckerFactory() {
        this(Sandboxes.ISOLATING);
    }

    /**
     * Looks for a confining sandbox with {@code finder} on first use, never falling back to an unconfined one; grading
     * fails with {@code sandbox.unavailable} while it finds none.
     */
    public CodeCheckerFactory(Sandboxes.Finder finder) {
        this.sandbox = Sandboxes.onFirstUse(Objects.requireNonNull(finder, "finder"));
        this.options = CodeGrader.Options.defaults();
    }

    public CodeCheckerFactory(Sandbox sandbox, CodeGrader.Options options) {
        Objects.requireNonNull(sandbox, "sandbox");
        this.sandbox = () -> sandbox;
        this.options = Objects.requireNonNull(options, "options");
    }

    @Override
    public String name() {
        return "code";
    }

    @Override
    public Checker create(JsonNode expected) {
        if (expected != null
                && !expected.isNull()
                && !expected.isObject()
                && !(expected.isTextual() && expected.textValue().isBlank())
                && !(expected.isArray() && expected.isEmpty())) {
            throw AssayException.of(
                    "check.invalid_expected",
                    "the code checker takes no expected value, or an object of grader options");
        }
        if (expected != null && expected.isObject()) {
            // Validates old-format test cases when the suite loads rather than in the middle of a run.
            CodeQuestion.readTests(expected.path("test_cases"));
        }
        return new CodeChecker(sandbox, options, expected);
    }
}
