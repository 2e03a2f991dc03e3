package dev.assay.result;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * A run's life: running, then finished, failed (could not go on), cancelled, or interrupted (stopped because its
 * results could no longer be stored; every stored item is kept and the run can be resumed). Lower-case names are
 * stored.
 */
public enum RunStatus {
    RUNNING,
    FINISHED,
    FAILED,
    CANCELLED,
    INTERRUPTED;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static RunStatus parse(String value) {
        return valueOf(value.strip().toUpperCase(Locale.ROOT));
    }

    public boolean isFinal() {
        return this != RUNNING;
    }
}
