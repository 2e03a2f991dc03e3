package dev.assay.store;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;

/**
 * The process that runs a run, as the store records it with every write and heartbeat of the run: a run left running by
 * a process of this host that has ended ({@code kill -9}) is known dead at once ({@link #endedHere}), where another
 * host's must be waited out by its silence. Immutable, thread-safe.
 *
 * @param host the host's identity: its name, then on Linux the kernel's boot id and the process's PID namespace, so
 *     that two containers or two boots of one name are two hosts (a PID means something only within one)
 * @param pid the process id
 * @param started when the process started, to the millisecond; null when the system does not say (a PID reused by a
 *     later process then passes for the owner, and the run waits for its silence)
 */
public record RunOwner(String host, long pid, Instant started) {
    /**
     * A PID's start time as two reads of the system give it may differ by the clock's tick; more is another process.
     */
    private static final Duration SAME_START = Duration.ofSeconds(1);

    private static final RunOwner CURRENT = of(ProcessHandle.current());

    public RunOwner {
        Objects.requireNonNull(host, "host");
        started = started == null ? null : started.truncatedTo(ChronoUnit.MILLIS);
    }

    /** {@return this process as an owner} */
    public static RunOwner current() {
        return CURRENT;
    }

    /** {@return whether this owner is this process} */
    public boolean isCurrent() {
        return equals(CURRENT);
    }

    /** {@return whether this owner is a process of this host} */
    public boolean isHere() {
        return host.equals(CURRENT.host);
    }

    /**
     * {@return whether this owner is a process of this host that has ended}: its PID is gone, or taken by a process
     * started at another time. An owner elsewhere is never known ended here.
     */
    public boolean endedHere() {
        if (!isHere()) {
            return false;
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty() || !process.get().isAlive()) {
            return true;
        }
        Optional<Instant> start = process.get().info().startInstant();
        return started != null
                && start.isPresent()
                && Duration.between(started, start.get()).abs().compareTo(SAME_START) >= 0;
    }

    /** {@return the host's name, without the parts of its identity no one reads} */
    public String hostName() {
        int slash = host.indexOf('/');
        return slash < 0 ? host : host.substring(0, slash);
    }

    private static RunOwner of(ProcessHandle process) {
        return new RunOwner(
                hostName(localName()) + "/" + firstLine(Path.of("/proc/sys/kernel/random/boot_id")) + "/"
                        + namespace(Path.of("/proc/self/ns/pid")),
                process.pid(),
                process.info().startInstant().orElse(null));
    }

    private static String localName() {
        // Linux says it without a name lookup, which can hang on a host whose name does not resolve.
        String kernel = firstLine(Path.of("/proc/sys/kernel/hostname"));
        if (!kernel.isEmpty()) {
            return kernel;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException unknown) {
            return Objects.requireNonNullElse(System.getenv("HOSTNAME"), "");
        }
    }

    private static String hostName(String name) {
        return name.replace('/', '_');
    }

    private static String firstLine(Path file) {
        try {
            return Files.readString(file).strip();
        } catch (IOException | RuntimeException absent) {
            // Not Linux: the host's name alone is its identity.
            return "";
        }
    }

    private static String namespace(Path link) {
        try {
            return Files.readSymbolicLink(link).toString();
        } catch (IOException | RuntimeException absent) {
            return "";
        }
    }
}
