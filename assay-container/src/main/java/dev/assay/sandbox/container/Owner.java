package dev.assay.sandbox.container;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * The Assay process that made a container, written in its label {@code dev.assay.owner} as
 * {@code pid@host@start-millis}: a container whose owner no longer runs on this host was left by a killed Assay and is
 * reaped (the start time tells a reused pid from its owner).
 */
record Owner(long pid, String host, long startMillis) {
    static final String LABEL = "dev.assay.owner";

    /** {@return this process} */
    static Owner self() {
        ProcessHandle me = ProcessHandle.current();
        return new Owner(me.pid(), hostName(), started(me).orElse(0L));
    }

    /** {@return the owner a label names, when it is one} */
    static Optional<Owner> parse(String label) {
        if (label == null) {
            return Optional.empty();
        }
        String[] parts = label.split("@", -1);
        if (parts.length != 3) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Owner(Long.parseLong(parts[0]), parts[1], Long.parseLong(parts[2])));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    String label() {
        return pid + "@" + host + "@" + startMillis;
    }

    /** {@return a name for this owner's files: pid and start, no host} */
    String fileStem() {
        return pid + "-" + startMillis;
    }

    /** {@return whether this owner runs on this host; an owner on another host is never judged dead from here} */
    boolean gone() {
        if (!host.equals(hostName())) {
            return false;
        }
        return ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .map(process -> started(process).orElse(0L) != startMillis)
                .orElse(true);
    }

    private static Optional<Long> started(ProcessHandle process) {
        return process.info().startInstant().map(Instant::toEpochMilli);
    }

    private static String hostName() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            return System.getenv().getOrDefault("HOSTNAME", "localhost");
        }
    }
}
