package dev.assay.run;

import dev.assay.AssayException;
import dev.assay.Problem;

/**
 * Which variant of the M1–M5 rules to apply (docs/dialog.md, "Metrics profiles"). {@link #MEMFIN_V1} reproduces the
 * reference implementation, bugs included (docs/dialog-metrics.md §3), so the numbers match its published runs;
 * {@link #CORRECTED} fixes the two that distort single values.
 */
public enum MetricsProfile {
    /** The reference behaviour, bit for bit. The default. */
    MEMFIN_V1("memfin-v1"),
    /**
     * As {@link #MEMFIN_V1}, except: {@code key_hit_flags} and {@code key_hit_sources} have one entry per
     * {@code resolved_keys} entry (0 and [] for an unresolvable key), and an M4 forbidden-list phrase does not count
     * when a negation precedes it closely ("不承诺保本保收益").
     */
    CORRECTED("memfin-v1-corrected");

    private final String wireName;

    MetricsProfile(String wireName) {
        this.wireName = wireName;
    }

    /** {@return the name users type and the manifest records} */
    public String wireName() {
        return wireName;
    }

    /**
     * {@return the profile with that name}
     *
     * @throws dev.assay.AssayException {@code dialog.unknown_metrics_profile} for an unknown name
     */
    public static MetricsProfile parse(String wireName) {
        for (MetricsProfile profile : values()) {
            if (profile.wireName.equals(wireName)) {
                return profile;
            }
        }
        throw new AssayException(Problem.of(
                "dialog.unknown_metrics_profile",
                "unknown metrics profile '" + wireName + "'; known: memfin-v1, memfin-v1-corrected"));
    }

    public boolean alignsKeyHitFlags() {
        return this == CORRECTED;
    }

    public boolean ignoresNegatedForbiddenPhrases() {
        return this == CORRECTED;
    }
}
