package dev.assay.check.internal;

import dev.assay.Problem;

/**
 * A step of a checker that either yields a value or a problem that becomes the failed verdict's error type and message.
 */
sealed interface StepResult<T> {
    /** @param value what the step produced */
    record Ok<T>(T value) implements StepResult<T> {}

    /** @param problem why the step could not produce it; its type is the verdict's error type */
    record Failed<T>(Problem problem) implements StepResult<T> {}
}
