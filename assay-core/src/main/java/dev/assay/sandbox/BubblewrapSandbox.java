package dev.assay.sandbox;

import dev.assay.AssayException;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs commands under bubblewrap: every namespace unshared (so no network), the host's root bound read-only, a fresh
 * {@code /tmp}, {@code /proc} and {@code /dev}, and only the request's work directory writable. Memory, file size and
 * core dumps are limited with {@code prlimit} inside the sandbox; tasks with a pids cgroup when the machine lets us
 * make one, else with RLIMIT_NPROC (see {@link #pidsLimitedByCgroup()}). The whole tree dies with the sandbox's
 * parent and at the wall-clock limit. Thread-safe.
 */
public final class BubblewrapSandbox implements Sandbox {
    /** Largest file a command may write; keeps a runaway program from filling the disk. */
    private static final long MAX_FILE_BYTES = 64L << 20;

    private final Path bwrap;
    private final Optional<Path> cgroupParent;

    private BubblewrapSandbox(Path bwrap, Optional<Path> cgroupParent) {
        this.bwrap = bwrap;
        this.cgroupParent = cgroupParent;
    }

    /**
     * {@return a sandbox if {@code bwrap} is installed and can create its namespaces here, else empty}
     */
    public static Optional<BubblewrapSandbox> find() throws InterruptedException {
        Optional<Path> bwrap = onPath("bwrap");
        if (bwrap.isEmpty() || onPath("prlimit").isEmpty()) {
            return Optional.empty();
        }
        var sandbox = new BubblewrapSandbox(bwrap.get(), PidsCgroup.parent());
        return sandbox.works() ? Optional.of(sandbox) : Optional.empty();
    }

    @Override
    public String kind() {
        return "bubblewrap";
    }

    /** {@return whether process counts are capped by a cgroup (exact) rather than RLIMIT_NPROC (per user)} */
    public boolean pidsLimitedByCgroup() {
        return cgroupParent.isPresent();
    }

    @Override
    public SandboxResult run(SandboxRequest request) throws InterruptedException {
        Path workDir = request.workDir().toAbsolutePath().normalize();
        Optional<PidsCgroup> cgroup = cgroupParent.flatMap(p -> PidsCgroup.create(p, request.limits().maxProcesses()));
        var command = new ArrayList<String>();
        cgroup.ifPresent(group -> command.addAll(List.of(
                // The shell joins the group before exec'ing bwrap, so every descendant is counted from the start.
                "/bin/sh", "-c", "echo $$ > \"$0\" && exec \"$@\"", group.procsFile().toString())));
        command.addAll(List.of(bwrap.toString(),
                "--ro-bind", "/", "/",
                "--dev", "/dev",
                "--proc", "/proc",
                "--tmpfs", "/tmp",
                "--bind", workDir.toString(), workDir.toString(),
                "--chdir", workDir.toString(),
                "--unshare-all",
                "--die-with-parent",
                "--new-session",
                "--"));
        command.addAll(prlimit(request.limits(), cgroup.isEmpty()));
        command.addAll(request.command());
        try {
            return ProcessRunner.run(command, environment(request), request, () -> cgroup.ifPresent(PidsCgroup::killAll));
        } finally {
            cgroup.ifPresent(PidsCgroup::close);
        }
    }

    static List<String> prlimit(SandboxLimits limits, boolean limitProcesses) {
        var args = new ArrayList<>(List.of("prlimit",
                "--as=" + limits.memoryBytes(),
                "--fsize=" + MAX_FILE_BYTES,
                "--core=0"));
        if (limitProcesses) {
            args.add("--nproc=" + limits.maxProcesses());
        }
        args.add("--");
        return args;
    }

    static Map<String, String> environment(SandboxRequest request) {
        var env = new LinkedHashMap<String, String>();
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin"));
        env.put("HOME", request.workDir().toAbsolutePath().toString());
        env.put("LANG", "C.UTF-8");
        env.put("TMPDIR", "/tmp");
        env.putAll(request.env());
        return env;
    }

    static Optional<Path> onPath(String program) {
        String path = System.getenv().getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin");
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, program);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private boolean works() throws InterruptedException {
        try {
            Path dir = Files.createTempDirectory("assay-bwrap-probe");
            try {
                var probe = new SandboxRequest(List.of("true"), dir, Map.of(), "",
                        SandboxLimits.defaults().withWallTime(java.time.Duration.ofSeconds(20)));
                return run(probe).exitCode() == 0;
            } finally {
                Files.deleteIfExists(dir);
            }
        } catch (java.io.IOException | AssayException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return "bubblewrap(" + bwrap + (pidsLimitedByCgroup() ? ", pids cgroup" : ", RLIMIT_NPROC") + ")";
    }

}
