package dev.assay.transcript;

import java.util.ArrayList;
import java.util.List;

/**
 * Append-only recorder a target fills while it works on one case. Thread-safe, because a target may record from a
 * stream-reading thread while the engine reads a partial transcript on timeout or cancellation.
 */
public final class TranscriptBuilder {
    private final List<TranscriptEvent> events = new ArrayList<>();

    public synchronized TranscriptBuilder add(TranscriptEvent event) {
        events.add(event);
        return this;
    }

    /** {@return an immutable snapshot of what was recorded so far} */
    public synchronized Transcript build() {
        return new Transcript(events);
    }
}
