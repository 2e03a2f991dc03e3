package dev.assay.dialog;

import java.util.Locale;

/**
 * How one turn's call ended; the lower-case names are written to traces. The reference never writes {@code timeout} (a
 * timed-out turn is {@code error} with a {@code turn_timeout: ...} message), and neither does Assay; the value exists
 * because the contract allows it in traces from other tools.
 */
public enum TurnStatus {
    OK,
    ERROR,
    TIMEOUT;

    /** {@return the name written to traces} */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@return the status with that wire name; unknown names read as {@link #ERROR}} */
    public static TurnStatus parse(String wireName) {
        for (TurnStatus status : values()) {
            if (status.wireName().equals(wireName)) {
                return status;
            }
        }
        return ERROR;
    }
}
