package dev.assay.sandbox.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/**
 * A throw-away cgroup capping the number of tasks of one run. RLIMIT_NPROC is no substitute: the kernel ignores it for
 * root and, for other users, counts every process the user already has.
 */
public final class PidsCgroup implements AutoCloseable {
    private static final Path V1 = Path.of("/sys/fs/cgroup/pids");
    private static final Path V2 = Path.of("/sys/fs/cgroup");

    private final Path dir;

    private PidsCgroup(Path dir) {
        this.dir = dir;
    }

    /** {@return the parent directory under which run groups can be made, if this machine allows it} */
    public static Optional<Path> parent() {
        if (Files.isWritable(V1) && Files.exists(V1.resolve("cgroup.procs"))) {
            return Optional.of(V1);
        }
        try {
            if (Files.isWritable(V2)
                    && Files.readString(V2.resolve("cgroup.subtree_control")).contains("pids")) {
                return Optional.of(V2);
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    public static Optional<PidsCgroup> create(Path parent, int maxTasks) {
        Path dir = parent.resolve("assay-" + UUID.randomUUID());
        try {
            Files.createDirectory(dir);
            Files.writeString(dir.resolve("pids.max"), Integer.toString(maxTasks));
            return Optional.of(new PidsCgroup(dir));
        } catch (IOException e) {
            try {
                Files.deleteIfExists(dir);
            } catch (IOException ignored) {
                // Nothing was created or it cannot be removed; either way there is nothing left to do.
            }
            return Optional.empty();
        }
    }

    /** {@return the file a process writes its pid into to join} */
    public Path procsFile() {
        return dir.resolve("cgroup.procs");
    }

    /** Kills whatever is still in the group (escaped grandchildren included). */
    public void killAll() {
        try {
            for (String line : Files.readAllLines(procsFile())) {
                if (!line.isBlank()) {
                    ProcessHandle.of(Long.parseLong(line.trim())).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // The group is already gone.
        }
    }

    @Override
    public void close() {
        // A group cannot be removed while its killed tasks are still exiting, two or three milliseconds here: look
        // every quarter of a millisecond at first, then less and less often, for about a second in all, killing again
        // at each longer pause whatever was forked while the first kill went round.
        killAll();
        long pauseMicros = 250;
        for (long waitedMicros = 0; waitedMicros < 1_000_000; waitedMicros += pauseMicros) {
            try {
                Files.deleteIfExists(dir);
                return;
            } catch (IOException e) {
                try {
                    Thread.sleep(Duration.ofNanos(pauseMicros * 1000));
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            if (waitedMicros >= 4000) {
                killAll();
                pauseMicros = Math.min(pauseMicros * 2, 20_000);
            }
        }
    }
}
