package dev.assay.dialog;

import java.util.Locale;

/**
 * Why a dataset line is not a valid dialog (contract §3); the first failing rule wins, in this order. The lower-case
 * names are written to traces and counted in the load report.
 */
public enum SkipReason {
    /** The line is not a JSON object. */
    INVALID_JSON,
    /** {@code turns} is not a non-empty list. */
    MISSING_TURNS,
    /** {@code profile_gt} is not an object. */
    MISSING_PROFILE_GT,
    /** No user turn is followed by an assistant turn. */
    INVALID_TURN_SEQUENCE,
    /** No aligned pair has an object as its tags (cannot happen after alignment; kept for the contract). */
    MISSING_GT_TAGS;

    /** {@return the name written to traces, e.g. {@code missing_turns}} */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
