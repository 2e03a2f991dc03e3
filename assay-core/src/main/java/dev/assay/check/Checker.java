package dev.assay.check;

/**
 * Judges one aspect of a case's transcript. Created by a {@link CheckerFactory} from the check's
 * {@code expected}, which the factory validated; thread-safe.
 */
@FunctionalInterface
public interface Checker {
    /**
     * Judges. Never throws for anything the system under test did: a missing file, a malformed answer or an
     * escaping path is a failed verdict with an error type.
     */
    Verdict check(CheckContext context) throws InterruptedException;
}
