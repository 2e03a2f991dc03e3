package dev.assay.sandbox.container;

import dev.assay.AssayException;
import dev.assay.Problem;
import java.util.Map;

/**
 * How many ready containers wait, started, for the next trials: at most {@code perImage} for one container spec, and at
 * most {@code total} over all of them, so that a suite of many images does not start a fleet.
 *
 * @param perImage {@code ASSAY_CONTAINER_POOL}, default 2; 0 turns the pool off
 * @param total {@code ASSAY_CONTAINER_POOL_TOTAL}, default 8
 */
record PoolSize(int perImage, int total) {
    static final String PER_IMAGE_ENV = "ASSAY_CONTAINER_POOL";
    static final String TOTAL_ENV = "ASSAY_CONTAINER_POOL_TOTAL";

    static PoolSize of(Map<String, String> env) {
        return new PoolSize(count(env, PER_IMAGE_ENV, 2), count(env, TOTAL_ENV, 8));
    }

    private static int count(Map<String, String> env, String name, int fallback) {
        String value = env.getOrDefault(name, "").strip();
        if (value.isEmpty()) {
            return fallback;
        }
        try {
            int count = Integer.parseInt(value);
            if (count >= 0) {
                return count;
            }
        } catch (NumberFormatException e) {
            // Reported below.
        }
        throw new AssayException(
                Problem.of("sandbox.bad_limit", name + " must be a whole number >= 0, got '" + value + "'")
                        .withDetail("variable", name));
    }
}
