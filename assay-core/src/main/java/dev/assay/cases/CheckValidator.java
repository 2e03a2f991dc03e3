package dev.assay.cases;

/**
 * What a suite is validated against when it loads: the checkers by name, each judging whether a check's
 * {@code expected} makes sense, so a bad option fails before any model is called. The checker registry implements it;
 * owning the interface here keeps case loading below the checkers.
 */
public interface CheckValidator {
    /**
     * Validates a check.
     *
     * @throws dev.assay.AssayException {@code plugin.unknown} for a checker nobody registered, or the checker's own
     *     problem ({@code check.invalid_expected}) for options it refuses
     */
    void validate(Check check);
}
