package dev.assay.store;

import dev.assay.result.RunStatus;
import java.time.Instant;

/**
 * Filters and paging for listing runs, newest first. Null filters match everything.
 *
 * @param userId exact user id
 * @param modelName substring of the model name, case-insensitive
 * @param status exact status
 * @param kind only runs of this kind; null for any
 * @param since runs started at or after
 * @param until runs started before
 * @param offset rows to skip, >= 0
 * @param limit rows to return, 1..1000
 */
public record RunQuery(
        String userId,
        String modelName,
        RunStatus status,
        dev.assay.result.RunKind kind,
        Instant since,
        Instant until,
        int offset,
        int limit) {
    public RunQuery {
        if (offset < 0) {
            throw new IllegalArgumentException("offset must be >= 0");
        }
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("limit must be in 1..1000");
        }
    }

    public static RunQuery all() {
        return new RunQuery(null, null, null, null, null, null, 0, 1000);
    }

    public RunQuery page(int newOffset, int newLimit) {
        return new RunQuery(userId, modelName, status, kind, since, until, newOffset, newLimit);
    }
}
