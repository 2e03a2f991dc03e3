package dev.assay.cli;

import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.run.RunListener;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A run's progress on stderr, so stdout stays clean for the summary (and for {@code --format json}). On a terminal it
 * is one bar with the rate and the time left; elsewhere (CI logs, a pipe) a plain line now and then; a line per case
 * only with {@code --verbose}, because a 100 000-case run must not print 100 000 lines. Thread-safe: the engine calls
 * it from its workers.
 */
final class ProgressPrinter implements RunListener {
    /** How progress is shown. */
    enum Mode {
        /** A redrawn bar: stderr is a terminal. */
        BAR,
        /** A line every {@link #LINE_INTERVAL} and one at the end: stderr is a log. */
        LINES,
        /** A line per finished case ({@code --verbose}). */
        CASES,
        /** Only the run's first line ({@code --quiet}). */
        QUIET;

        /** @param terminal whether stderr is a terminal; {@code TERM=dumb} counts as none, since it cannot redraw */
        static Mode choose(boolean quiet, boolean verbose, boolean terminal, Map<String, String> env) {
            if (quiet) {
                return QUIET;
            }
            if (verbose) {
                return CASES;
            }
            return terminal && !"dumb".equals(env.get("TERM")) ? BAR : LINES;
        }
    }

    /** How often a log gets a progress line: often enough to see a run move, rare enough to read the log. */
    static final Duration LINE_INTERVAL = Duration.ofSeconds(10);

    private final PrintWriter err;
    private final Mode mode;
    private final int width;
    private final boolean unicode;
    private final LongSupplier clock;
    private ProgressBar bar;
    private long startedNanos;
    private long lastLineNanos;

    /**
     * @param width the terminal's columns, for the bar
     * @param unicode whether the terminal shows block characters (else the bar is drawn in ASCII)
     * @param clock nanoseconds, for the rate and the interval between lines
     */
    ProgressPrinter(PrintWriter err, Mode mode, int width, boolean unicode, LongSupplier clock) {
        this.err = err;
        this.mode = mode;
        this.width = width;
        this.unicode = unicode;
        this.clock = clock;
    }

    static ProgressPrinter forStderr(PrintWriter err, Mode mode, Map<String, String> env) {
        int columns = 100;
        try {
            columns = Integer.parseInt(env.getOrDefault("COLUMNS", "100").strip());
        } catch (NumberFormatException notANumber) {
            // a shell that exports nonsense gets the default width
        }
        String locale = env.getOrDefault("LC_ALL", env.getOrDefault("LANG", ""));
        return new ProgressPrinter(
                err,
                mode,
                Math.max(40, columns),
                locale.toUpperCase(Locale.ROOT).contains("UTF"),
                System::nanoTime);
    }

    @Override
    public synchronized void runStarted(Run run) {
        err.printf(
                "run %s: %d cases of %s against %s%n",
                run.runId(),
                run.counts().total(),
                TerminalText.line(run.caseSet()),
                TerminalText.line(run.modelName()));
        err.flush();
        startedNanos = clock.getAsLong();
        lastLineNanos = startedNanos;
        if (mode == Mode.BAR) {
            bar = new ProgressBarBuilder()
                    .setTaskName("cases")
                    .setInitialMax(run.counts().total())
                    .setStyle(unicode ? ProgressBarStyle.UNICODE_BLOCK : ProgressBarStyle.ASCII)
                    .showSpeed()
                    .setUnit(" cases", 1)
                    .setUpdateIntervalMillis(250)
                    .setConsumer(new DelegatingProgressBarConsumer(this::redraw, width))
                    .continuousUpdate()
                    .build();
        }
    }

    @Override
    public synchronized void itemFinished(Run run, Item item) {
        Counts counts = run.counts();
        switch (mode) {
            case BAR -> {
                bar.stepTo(counts.completed());
                bar.setExtraMessage("  " + tally(counts));
            }
            case LINES -> {
                long now = clock.getAsLong();
                if (now - lastLineNanos >= LINE_INTERVAL.toNanos()) {
                    lastLineNanos = now;
                    err.println(line(counts, now));
                    err.flush();
                }
            }
            case CASES -> {
                err.printf(
                        "[%d/%d] %-9s %s (%.1f s)%s%n",
                        counts.completed(),
                        counts.total(),
                        item.status().wireName(),
                        TerminalText.line(item.caseId()),
                        item.elapsedS(),
                        item.error() == null ? "" : " " + item.error().type());
                err.flush();
            }
            case QUIET -> {}
        }
    }

    @Override
    public synchronized void log(Run run, String message) {
        if (mode == Mode.QUIET) {
            return;
        }
        // On a terminal the message goes above the bar: clear the bar's line, print, and let the bar redraw.
        if (mode == Mode.BAR) {
            TerminalText.unescaped(err).print("\r\033[K");
        }
        err.println("  " + TerminalText.line(message));
        err.flush();
    }

    @Override
    public synchronized void runFinished(Run run) {
        switch (mode) {
            case BAR -> {
                bar.stepTo(run.counts().completed());
                bar.setExtraMessage("  " + tally(run.counts()));
                bar.close();
                err.println();
                err.flush();
            }
            case LINES -> {
                err.println(line(run.counts(), clock.getAsLong()));
                err.flush();
            }
            case CASES, QUIET -> {}
        }
    }

    private void redraw(String rendered) {
        // The bar, drawn by Assay from counts alone, goes to the terminal as it is: its carriage return redraws it.
        PrintWriter terminal = TerminalText.unescaped(err);
        terminal.print('\r');
        terminal.print(rendered);
        terminal.flush();
    }

    private String line(Counts counts, long now) {
        double seconds = Math.max(1e-9, (now - startedNanos) / 1e9);
        double rate = counts.completed() / seconds;
        String left = rate > 0 && counts.completed() < counts.total()
                ? ", about " + duration((counts.total() - counts.completed()) / rate) + " left"
                : "";
        return String.format(
                Locale.ROOT,
                "[%d/%d] %.0f%% in %s, %.1f cases/s%s; %s",
                counts.completed(),
                counts.total(),
                counts.total() == 0 ? 100.0 : 100.0 * counts.completed() / counts.total(),
                duration(seconds),
                rate,
                left,
                tally(counts));
    }

    private static String tally(Counts counts) {
        var text = new StringBuilder()
                .append(counts.passed())
                .append(" passed, ")
                .append(counts.failed())
                .append(" failed");
        if (counts.partial() > 0) {
            text.append(", ").append(counts.partial()).append(" partial");
        }
        if (counts.error() > 0) {
            text.append(", ").append(counts.error()).append(" errors");
        }
        if (counts.skipped() > 0) {
            text.append(", ").append(counts.skipped()).append(" skipped");
        }
        return text.toString();
    }

    /**
     * {@return whether this process's stderr is a terminal} Java 21 cannot ask for one stream (its
     * {@code System.console()} speaks of stdin and stdout). Where {@code /proc} tells what stderr is open on, a
     * terminal device's name says so; elsewhere {@code test -t 2} is asked with our stderr as its own (a process
     * started for it, which costs a short run more than the answer is worth where it can be avoided); where that cannot
     * run, no terminal is assumed and plain lines are printed.
     */
    static boolean stderrIsTerminal() {
        try {
            return isTerminalDevice(
                    Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString());
        } catch (IOException | UnsupportedOperationException | SecurityException noProc) {
            return askTest();
        }
    }

    /** {@return whether a device file is a terminal: a pseudo-terminal, a virtual console or a serial line} */
    static boolean isTerminalDevice(String device) {
        return device.startsWith("/dev/pts/") || device.startsWith("/dev/tty") || device.equals("/dev/console");
    }

    private static boolean askTest() {
        try {
            Process test = new ProcessBuilder("test", "-t", "2")
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            return test.waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String duration(double seconds) {
        long whole = Math.round(seconds);
        return whole < 60
                ? whole + " s"
                : whole < 3600
                        ? (whole / 60) + " min " + (whole % 60) + " s"
                        : (whole / 3600) + " h " + (whole % 3600 / 60) + " min";
    }
}
