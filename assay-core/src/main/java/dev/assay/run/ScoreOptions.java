package dev.assay.run;

import java.util.Objects;

/**
 * How traces are scored.
 *
 * @param profile the metrics rules; default {@link MetricsProfile#MEMFIN_V1}
 * @param blankMemoryKeys score as a memory-less baseline: every turn's {@code memory_required_keys_gt} is treated as
 *     empty, so M1 has no eligible turn and reports 0.0 (the reference's LLM baseline, recorded as {@code m1_handling:
 *     ignored_memory_required_keys}); default false
 */
public record ScoreOptions(MetricsProfile profile, boolean blankMemoryKeys) {
    public ScoreOptions {
        Objects.requireNonNull(profile, "profile");
    }

    /** {@return memfin-v1 rules, memory keys kept} */
    public static ScoreOptions defaults() {
        return new ScoreOptions(MetricsProfile.MEMFIN_V1, false);
    }
}
