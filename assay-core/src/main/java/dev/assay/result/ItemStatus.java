package dev.assay.result;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.assay.check.Verdict;
import java.util.Locale;

/** An item's outcome. Lower-case names are stored and appear in reports and the API. */
public enum ItemStatus {
    PASSED,
    FAILED,
    PARTIAL,
    SKIPPED,
    ERROR,
    CANCELLED;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static ItemStatus parse(String value) {
        return valueOf(value.strip().toUpperCase(Locale.ROOT));
    }

    public static ItemStatus of(Verdict.Status status) {
        return switch (status) {
            case PASSED -> PASSED;
            case FAILED -> FAILED;
            case PARTIAL -> PARTIAL;
            case SKIPPED -> SKIPPED;
            case ERROR -> ERROR;
        };
    }

    /** {@return whether the item counts in its dimension's denominator (skipped and cancelled do not)} */
    public boolean isScored() {
        return this != SKIPPED && this != CANCELLED;
    }
}
