package dev.assay.report.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * A text report written as it is made: the reporter appends to {@link #text()} and calls {@link #flushIfFull()} after
 * each item, so that a report of 100 000 items holds a few kilobytes of text at a time rather than all of it. The
 * stream is flushed, not closed, by {@link #finish()}.
 */
final class StreamedText {
    private static final int CHUNK = 1 << 16;

    private final StringBuilder text = new StringBuilder();
    private final Writer out;

    StreamedText(OutputStream out) {
        this.out = new OutputStreamWriter(out, StandardCharsets.UTF_8);
    }

    /** {@return the text not yet written} */
    StringBuilder text() {
        return text;
    }

    /** Writes the text so far once it has grown past a chunk. */
    void flushIfFull() throws IOException {
        if (text.length() >= CHUNK) {
            out.append(text);
            text.setLength(0);
        }
    }

    /** Writes the rest and flushes the stream. */
    void finish() throws IOException {
        out.append(text);
        text.setLength(0);
        out.flush();
    }
}
