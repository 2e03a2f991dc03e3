package dev.assay.sandbox.internal;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Keeps a command's work directory under its size limit while the command runs: the directory is a host directory (the
 * file tools read and write it between commands), so no file system of its own caps it. It is measured repeatedly, each
 * measurement followed by a pause twenty times as long as the measurement took (at least 100 ms), so the watch costs at
 * most a twentieth of a core however many files the command makes; the command is killed at the first measurement over
 * the limit. What it can write in between is bounded by RLIMIT_FSIZE per file and by the pause. Every file and
 * directory counts at least one 4 KiB block, so a flood of empty files is stopped too. Not thread-safe: one per
 * command.
 */
final class WorkspaceWatch {
    private static final long BLOCK = 4096;
    private static final long MIN_PAUSE_MILLIS = 100;

    private final Path dir;
    private final long limit;
    private boolean overLimit;

    WorkspaceWatch(Path dir, long limit) {
        this.dir = dir;
        this.limit = limit;
    }

    /**
     * Waits for {@code process} to end within {@code wallTime}, killing its tree if the directory goes over the limit.
     *
     * @return whether the process ended by itself
     */
    boolean waitFor(Process process, Duration wallTime) throws InterruptedException {
        long deadline = System.nanoTime() + wallTime.toNanos();
        long pause = MIN_PAUSE_MILLIS;
        while (true) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (process.waitFor(Math.max(0, Math.min(pause, left)), TimeUnit.MILLISECONDS)) {
                return true;
            }
            if (left <= pause) {
                return false;
            }
            long started = System.nanoTime();
            if (exceeded()) {
                overLimit = true;
                ProcessRunner.killTree(process);
                process.waitFor();
                return false;
            }
            pause = Math.max(MIN_PAUSE_MILLIS, 20 * TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        }
    }

    /** {@return whether {@link #waitFor} stopped the process because the directory went over the limit} */
    boolean overLimit() {
        return overLimit;
    }

    /**
     * {@return whether the directory holds more than the limit now} An entry that vanished while it was measured counts
     * nothing; a directory that cannot be read counts as over the limit, since what it holds cannot be known.
     */
    boolean exceeded() {
        var visitor = new SimpleFileVisitor<Path>() {
            long bytes;

            @Override
            public FileVisitResult preVisitDirectory(Path path, BasicFileAttributes attributes) {
                bytes += BLOCK;
                return bytes > limit ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path path, BasicFileAttributes attributes) {
                bytes += Math.max(BLOCK, attributes.size());
                return bytes > limit ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path path, IOException e) {
                // A directory the command closed to its owner (chmod 000) would hide what it holds: it counts as full.
                if (e instanceof AccessDeniedException) {
                    bytes = Long.MAX_VALUE;
                    return FileVisitResult.TERMINATE;
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path path, IOException e) {
                return FileVisitResult.CONTINUE;
            }
        };
        try {
            Files.walkFileTree(dir, visitor);
        } catch (IOException e) {
            // The directory itself is gone: it holds nothing.
        }
        return visitor.bytes > limit;
    }
}
