package dev.assay.check;

import java.util.List;

/**
 * Judges one aspect of a case's transcript. Created by a {@link CheckerFactory} from the check's {@code expected},
 * which the factory validated; thread-safe.
 */
@FunctionalInterface
public interface Checker {
    /**
     * Judges. Never throws for anything the system under test did: a missing file, a malformed answer or an escaping
     * path is a failed verdict with an error type.
     */
    Verdict check(CheckContext context) throws InterruptedException;

    /**
     * {@return the canonical names of the tools the system under test must offer for this check to be fair (a case
     * whose tools are missing is skipped, as the reference server did); empty for most checkers}
     */
    default List<String> requiredTools() {
        return List.of();
    }
}
