package dev.assay.config;

import dev.assay.score.Weights;
import java.time.Duration;

/**
 * The {@code defaults:} of {@code assay.yaml}; command-line flags override each of them. Absent values are null and
 * mean "the built-in default".
 *
 * @param target the target used when none is named; null for none
 * @param concurrency cases at once, >= 1
 * @param timeout per-case time limit ({@code timeout_s})
 * @param weights dimension weights (dimensions not named keep their built-in weight)
 * @param db the JDBC URL of the store
 * @param judgeCache whether judge answers are cached under the Assay home (default true)
 */
public record RunDefaults(
        String target, Integer concurrency, Duration timeout, Weights weights, String db, Boolean judgeCache) {
    public static final RunDefaults NONE = new RunDefaults(null, null, null, null, null, null);
}
