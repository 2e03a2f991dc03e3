package dev.assay.dialog;

import java.util.Locale;

/** How a dialog's replay ended; the lower-case names are written to traces. */
public enum DialogStatus {
    /** Every turn is ok. */
    OK,
    /** At least one turn is not ok. */
    PARTIAL,
    /** The dataset line is not a valid dialog; nothing was sent. */
    SKIPPED,
    /** The dialog could not be replayed at all (the target could not be set up, or the replay threw). */
    FAILED;

    /** {@return the name written to traces} */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@return the status with that wire name; unknown names read as {@link #FAILED}} */
    public static DialogStatus parse(String wireName) {
        for (DialogStatus status : values()) {
            if (status.wireName().equals(wireName)) {
                return status;
            }
        }
        return FAILED;
    }
}
