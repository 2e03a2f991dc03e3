package dev.assay.result;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What a run evaluates: a capability run's cases of suites, or a dialog run's dialogs (docs/dialog.md). Lower-case
 * names are stored and shown.
 */
public enum RunKind {
    CAPABILITY,
    DIALOG;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * {@return the kind of that name}
     *
     * @throws IllegalArgumentException for a name that is no kind
     */
    @JsonCreator
    public static RunKind parse(String value) {
        return valueOf(value.strip().toUpperCase(Locale.ROOT));
    }

    /** {@return the name stored and shown}, so that a kind reads as it always did in messages */
    @Override
    public String toString() {
        return wireName();
    }
}
