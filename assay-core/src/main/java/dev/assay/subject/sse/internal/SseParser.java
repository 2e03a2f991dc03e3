package dev.assay.subject.sse.internal;

import java.util.Optional;

/**
 * Turns the lines of a {@code text/event-stream} into events, as the HTML standard's SSE section says: a blank line
 * ends an event, {@code :} starts a comment (keep-alives), several {@code data:} lines join with {@code \n}, one space
 * after the colon is dropped, {@code retry:} and unknown fields are ignored. Not thread-safe: one per stream.
 */
public final class SseParser {
    private final StringBuilder data = new StringBuilder();
    private boolean hasData;
    private String event = "";
    private String lastId = "";

    /** {@return the event this line completes, if it is the blank line after one with data} */
    public Optional<SseEvent> accept(String line) {
        if (line.isEmpty()) {
            return dispatch();
        }
        if (line.startsWith(":")) {
            return Optional.empty();
        }
        int colon = line.indexOf(':');
        String field = colon < 0 ? line : line.substring(0, colon);
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        switch (field) {
            case "event" -> event = value;
            case "data" -> {
                if (hasData) {
                    data.append('\n');
                }
                data.append(value);
                hasData = true;
            }
            case "id" -> {
                if (value.indexOf('\0') < 0) {
                    lastId = value;
                }
            }
            default -> {
                // retry: and unknown fields carry nothing a transcript needs.
            }
        }
        return Optional.empty();
    }

    /**
     * {@return the last event if the stream ended without its blank line}. The standard drops such an event; agent
     * services that close the connection right after their {@code final} event would lose it, so it is kept.
     */
    public Optional<SseEvent> finish() {
        return dispatch();
    }

    private Optional<SseEvent> dispatch() {
        if (!hasData) {
            event = "";
            return Optional.empty();
        }
        var result = new SseEvent(event.isEmpty() ? "message" : event, lastId, data.toString());
        data.setLength(0);
        hasData = false;
        event = "";
        return Optional.of(result);
    }
}
