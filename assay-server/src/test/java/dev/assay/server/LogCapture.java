package dev.assay.server;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Captures what the process logs while it is open: slf4j-simple writes to {@code System.err} as it is at each call.
 * Keeps the first megabyte and counts every line, so a storm of millions of lines is measured without being held.
 */
final class LogCapture implements AutoCloseable {
    private static final int KEPT_BYTES = 1 << 20;

    private final PrintStream original = System.err;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private long lines;

    LogCapture() {
        System.setErr(new PrintStream(
                new OutputStream() {
                    @Override
                    public void write(int b) {
                        synchronized (LogCapture.this) {
                            if (b == '\n') {
                                lines++;
                            }
                            if (kept.size() < KEPT_BYTES) {
                                kept.write(b);
                            }
                        }
                    }
                },
                true,
                StandardCharsets.UTF_8));
    }

    synchronized long lineCount() {
        return lines;
    }

    /** {@return the first megabyte logged} */
    synchronized String text() {
        return kept.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        System.setErr(original);
    }
}
