package dev.assay.sandbox;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.sandbox.internal.PidsCgroup;
import dev.assay.sandbox.internal.ProcessRunner;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Runs commands under bubblewrap, showing them only what they need: the system directories ({@code /usr} and the
 * {@code /bin}, {@code /lib*} links or directories) read-only, a short list of harmless {@code /etc} files, the
 * language runtimes' installation directories and the request's read-only paths, a fresh {@code /tmp}, {@code /proc}
 * and {@code /dev}, and the work directory as {@code /workspace}, the only writable place. Nothing else of the host
 * exists inside: no home directory, no {@code ASSAY_HOME}, no database, no suite, no working directory of Assay's
 * (docs/security.md lists exactly what is visible). Every namespace is unshared, so there is no network. When Assay
 * runs as root the command runs as the unprivileged user {@code nobody} (uid 65534), with no capabilities and
 * {@code no_new_privs}, so a root-only file would stay unreadable even if it were mounted. Memory, file size and core
 * dumps are limited with {@code prlimit}; tasks with a pids cgroup when the machine lets us make one, else with
 * RLIMIT_NPROC (see {@link #pidsLimitedByCgroup()}). The whole tree dies with the sandbox's parent and at the
 * wall-clock limit. Thread-safe.
 */
public final class BubblewrapSandbox implements Sandbox {
    /** Where the work directory appears inside the sandbox. */
    public static final String WORKSPACE = "/workspace";
    /** {@code nobody}: the user commands run as when Assay runs as root. */
    static final int SANDBOX_UID = 65534;
    /** Largest file a command may write; keeps a runaway program from filling the disk. */
    private static final long MAX_FILE_BYTES = 64L << 20;
    /**
     * The {@code /etc} entries runtimes read (dynamic linker, certificates, time zone, Java's and Python's own
     * configuration, name-service switches); no password, shadow, SSH, sudo or key material.
     */
    private static final List<String> ETC = List.of(
            "alternatives",
            "ld.so.cache",
            "ld.so.conf",
            "ld.so.conf.d",
            "localtime",
            "timezone",
            "nsswitch.conf",
            "host.conf",
            "hosts",
            "gai.conf",
            "protocols",
            "services",
            "os-release",
            "debian_version",
            "mime.types",
            "ssl/certs",
            "ca-certificates",
            "ca-certificates.conf",
            "ssl/openssl.cnf",
            "magic",
            "magic.mime",
            "inputrc",
            "terminfo",
            "locale.alias",
            "fonts");
    /** Configuration directories of runtimes, named by version ({@code java-17-openjdk}, {@code python3.11}). */
    private static final List<String> ETC_PREFIXES = List.of("java-", "python3");

    private final Path bwrap;
    private final Optional<Path> cgroupParent;
    private final Optional<Path> setpriv;
    private final Path identity;
    private final List<String> etcEntries = etcEntries();

    private BubblewrapSandbox(Path bwrap, Optional<Path> cgroupParent, Optional<Path> setpriv, Path identity) {
        this.bwrap = bwrap;
        this.cgroupParent = cgroupParent;
        this.setpriv = setpriv;
        this.identity = identity;
    }

    /** The kind {@code bubblewrap}, isolating. */
    public static final SandboxProvider PROVIDER = new SandboxProvider() {
        @Override
        public String name() {
            return "bubblewrap";
        }

        @Override
        public boolean isolating() {
            return true;
        }

        @Override
        public Optional<BubblewrapSandbox> find() throws InterruptedException {
            return BubblewrapSandbox.find();
        }
    };

    /**
     * {@return a sandbox if {@code bwrap} and {@code prlimit} (and, for root, {@code setpriv}) are installed and can
     * create their namespaces here, else empty}
     */
    public static Optional<BubblewrapSandbox> find() throws InterruptedException {
        Optional<Path> bwrap = onPath("bwrap");
        Optional<Path> setpriv = runningAsRoot() ? onPath("setpriv") : Optional.empty();
        if (bwrap.isEmpty() || onPath("prlimit").isEmpty() || (runningAsRoot() && setpriv.isEmpty())) {
            return Optional.empty();
        }
        Path identity;
        try {
            identity = identityFiles();
        } catch (IOException e) {
            return Optional.empty();
        }
        var sandbox = new BubblewrapSandbox(bwrap.get(), PidsCgroup.parent(), setpriv, identity);
        return sandbox.works() ? Optional.of(sandbox) : Optional.empty();
    }

    @Override
    public String kind() {
        return PROVIDER.name();
    }

    /** {@return whether process counts are capped by a cgroup (exact) rather than RLIMIT_NPROC (per user)} */
    public boolean pidsLimitedByCgroup() {
        return cgroupParent.isPresent();
    }

    @Override
    public SandboxResult run(SandboxRequest request) throws InterruptedException {
        Optional<PidsCgroup> cgroup =
                cgroupParent.flatMap(p -> PidsCgroup.create(p, request.limits().maxProcesses()));
        try {
            // The runtimes are looked for at the first command, not when the sandbox is found: asking Python through
            // a version manager's shim costs about half a second, which a run that never executes code should not pay.
            Runtimes runtimes = Runtimes.find();
            Launch launch = launch(request, cgroup, runtimes);
            try {
                return ProcessRunner.run(
                        launch.command(),
                        environment(request, WORKSPACE, runtimes.path()),
                        request,
                        () -> cgroup.ifPresent(PidsCgroup::killAll));
            } finally {
                launch.discard();
            }
        } finally {
            cgroup.ifPresent(PidsCgroup::close);
        }
    }

    @Override
    public SandboxProcess start(SandboxRequest request) {
        Optional<PidsCgroup> cgroup =
                cgroupParent.flatMap(p -> PidsCgroup.create(p, request.limits().maxProcesses()));
        Runtimes runtimes = Runtimes.find();
        Launch launch = launch(request, cgroup, runtimes);
        // The command runs in a pid namespace whose init is bubblewrap's child, which dies with it (--die-with-parent):
        // killing bubblewrap ends everything the command started.
        return ProcessRunner.start(
                launch.command(), environment(request, WORKSPACE, runtimes.path()), request, true, () -> {
                    launch.discard();
                    cgroup.ifPresent(PidsCgroup::close);
                });
    }

    /**
     * A bubblewrap command line whose options are read from a file ({@code --args}) rather than given as arguments: the
     * options name host paths (the workspace's), and the sandbox's init, a copy of bubblewrap, shows its arguments to
     * everything inside ({@code /proc/1/cmdline}). The file is the host's, in a directory the sandbox does not show,
     * readable by its owner only; {@link #discard} removes it once the process is gone.
     */
    private record Launch(List<String> command, Path options) {
        void discard() {
            try {
                Files.deleteIfExists(options);
            } catch (IOException e) {
                // A leftover in the host's temporary directory, readable by its owner only: nothing to stop for.
            }
        }
    }

    /**
     * Starts bubblewrap through a shell that opens the options file as descriptor 3 and the account files as 4 and 5
     * (Java starts processes with the standard three only) and, under a cgroup, first writes its own pid into the
     * group, so that every descendant is counted from the start. Arguments: the group's {@code cgroup.procs} (or
     * {@code /dev/null}), bubblewrap, the options file, the identity directory, then {@code --} and the command.
     */
    private static final String LAUNCHER = "procs=$1 bwrap=$2 options=$3 identity=$4; shift 4; echo $$ > \"$procs\""
            + " && exec \"$bwrap\" --args 3 \"$@\" 3< \"$options\" 4< \"$identity/passwd\" 5< \"$identity/group\"";

    private Launch launch(SandboxRequest request, Optional<PidsCgroup> cgroup, Runtimes runtimes) {
        List<String> command = arguments(request, cgroup.isEmpty(), runtimes);
        int end = command.indexOf("--");
        Path options;
        try {
            options = Files.createTempFile("assay-bwrap-", ".args");
            var bytes = new ByteArrayOutputStream();
            for (String option : command.subList(0, end)) {
                bytes.writeBytes(option.getBytes(StandardCharsets.UTF_8));
                bytes.write(0);
            }
            Files.write(options, bytes.toByteArray());
        } catch (IOException e) {
            throw new AssayException(
                    Problem.of("sandbox.unavailable", "cannot write the sandbox's options: " + e.getMessage()), e);
        }
        var launcher = new ArrayList<String>(List.of(
                "/bin/sh",
                "-c",
                LAUNCHER,
                "sh",
                cgroup.map(group -> group.procsFile().toString()).orElse("/dev/null"),
                bwrap.toString(),
                options.toString(),
                identity.toString()));
        launcher.addAll(command.subList(end, command.size()));
        return new Launch(List.copyOf(launcher), options);
    }

    /** {@return bubblewrap's options, then {@code --} and the command as the sandbox runs it} */
    private List<String> arguments(SandboxRequest request, boolean limitProcesses, Runtimes runtimes) {
        Path workDir = request.workDir().toAbsolutePath().normalize();
        if (setpriv.isPresent()) {
            giveToSandboxUser(workDir);
        }
        var command = new ArrayList<String>(
                mounts(workDir, request.readOnly(), runtimes, request.limits().tmpBytes()));
        command.addAll(List.of("--chdir", WORKSPACE, "--die-with-parent", "--new-session"));
        if (setpriv.isPresent()) {
            // No user namespace: bwrap runs as real root and hands the command to nobody with no capabilities left.
            command.addAll(List.of(
                    "--unshare-ipc",
                    "--unshare-pid",
                    "--unshare-net",
                    "--unshare-uts",
                    "--unshare-cgroup-try",
                    "--cap-add",
                    "CAP_SETUID",
                    "--cap-add",
                    "CAP_SETGID",
                    "--",
                    setpriv.get().toString(),
                    "--reuid=" + SANDBOX_UID,
                    "--regid=" + SANDBOX_UID,
                    "--clear-groups",
                    "--no-new-privs",
                    "--inh-caps=-all",
                    "--"));
        } else {
            command.addAll(List.of("--unshare-all", "--"));
        }
        command.addAll(prlimit(request.limits(), limitProcesses));
        command.addAll(request.command());
        return command;
    }

    /**
     * The bubblewrap arguments that build the sandbox's file system, in the order they must be applied. {@code /tmp} is
     * a tmpfs of {@code tmpBytes}: its pages are memory that RLIMIT_AS does not count, and bubblewrap's default is half
     * the machine's. The account files are copied in from descriptors 4 and 5 rather than bound, so that no mount names
     * the host's temporary directory ({@code /proc/self/mountinfo} shows a bind's source path).
     */
    List<String> mounts(Path workDir, List<Path> readOnly, Runtimes runtimes, long tmpBytes) {
        var args = new ArrayList<String>(List.of("--ro-bind", "/usr", "/usr"));
        for (String top : List.of("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")) {
            Path path = Path.of(top);
            if (Files.isSymbolicLink(path)) {
                args.addAll(List.of("--symlink", readLink(path), top));
            } else if (Files.isDirectory(path)) {
                args.addAll(List.of("--ro-bind", top, top));
            }
        }
        args.addAll(List.of("--perms", "0755", "--dir", "/etc", "--perms", "0755", "--dir", "/etc/ssl"));
        for (String entry : etcEntries) {
            args.addAll(List.of("--ro-bind-try", "/etc/" + entry, "/etc/" + entry));
        }
        args.addAll(List.of(
                "--perms",
                "0644",
                "--file",
                "4",
                "/etc/passwd",
                "--perms",
                "0644",
                "--file",
                "5",
                "/etc/group",
                "--proc",
                "/proc",
                "--dev",
                "/dev",
                "--perms",
                "1777",
                "--size",
                Long.toString(tmpBytes),
                "--tmpfs",
                "/tmp",
                "--bind",
                workDir.toString(),
                WORKSPACE));
        // Bound after /tmp is replaced, so a runtime or library that lives under the host's /tmp stays visible.
        var extra = new LinkedHashSet<Path>(runtimes.prefixes());
        readOnly.forEach(path -> extra.add(path.toAbsolutePath().normalize()));
        Set<Path> made = new LinkedHashSet<>();
        for (Path path : extra) {
            // bwrap would make missing parents with the host's modes (/root is 0700): nobody could not pass them.
            for (Path parent = path.getParent();
                    parent != null && parent.getNameCount() > 0;
                    parent = parent.getParent()) {
                made.add(parent);
            }
        }
        made.stream()
                .sorted()
                .filter(dir -> !dir.startsWith("/usr") && !dir.startsWith("/etc") && !dir.equals(Path.of("/tmp")))
                .forEach(dir -> args.addAll(List.of("--perms", "0755", "--dir", dir.toString())));
        for (Path path : extra) {
            args.addAll(List.of("--ro-bind", path.toString(), path.toString()));
        }
        // Nothing may be created beside what is listed: the root itself becomes read-only once it is built.
        args.addAll(List.of("--remount-ro", "/"));
        return args;
    }

    /** The {@code /etc} entries to show, listed once: the machine's runtimes do not change while Assay runs. */
    private static List<String> etcEntries() {
        var entries = new ArrayList<>(ETC);
        try (Stream<Path> etc = Files.list(Path.of("/etc"))) {
            etc.map(path -> path.getFileName().toString())
                    .filter(name -> ETC_PREFIXES.stream().anyMatch(name::startsWith))
                    .sorted()
                    .forEach(entries::add);
        } catch (IOException e) {
            // No /etc to list: the fixed entries are tried all the same.
        }
        return entries;
    }

    static List<String> prlimit(SandboxLimits limits, boolean limitProcesses) {
        // No single file larger than the workspace may hold: the watch that stops a command filling it looks only now
        // and then.
        long fileBytes = Math.min(MAX_FILE_BYTES, limits.workspaceBytes());
        var args =
                new ArrayList<>(List.of("prlimit", "--as=" + limits.memoryBytes(), "--fsize=" + fileBytes, "--core=0"));
        if (limitProcesses) {
            args.add("--nproc=" + limits.maxProcesses());
        }
        args.add("--");
        return args;
    }

    /**
     * The whole environment of a command: nothing of Assay's own (no API key, no PATH with home directories), only what
     * a program needs, and the request's variables.
     */
    static Map<String, String> environment(SandboxRequest request, String home, String path) {
        var env = new LinkedHashMap<String, String>();
        env.put("PATH", path);
        env.put("HOME", home);
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

    static boolean runningAsRoot() {
        try {
            return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue() == 0;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /**
     * Makes the work directory the sandbox user's, so the command can write where Assay's tools (running as root) wrote
     * before it. Root keeps full access to it all the same. Links are never followed, and a file with several hard
     * links is left alone: a command could have linked a file from outside the work directory.
     */
    private static void giveToSandboxUser(Path workDir) {
        try (Stream<Path> tree = Files.walk(workDir)) {
            for (Path path : (Iterable<Path>) tree::iterator) {
                Map<String, Object> attributes = Files.readAttributes(
                        path, "unix:uid,nlink,isDirectory,isRegularFile", LinkOption.NOFOLLOW_LINKS);
                boolean ours = Boolean.TRUE.equals(attributes.get("isDirectory"))
                        || (Boolean.TRUE.equals(attributes.get("isRegularFile")) && (int) attributes.get("nlink") == 1);
                if (ours && (int) attributes.get("uid") != SANDBOX_UID) {
                    Files.setAttribute(path, "unix:uid", SANDBOX_UID, LinkOption.NOFOLLOW_LINKS);
                    Files.setAttribute(path, "unix:gid", SANDBOX_UID, LinkOption.NOFOLLOW_LINKS);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot hand the work directory to the sandbox user", e);
        }
    }

    /** Minimal account files, which the launcher opens for bubblewrap to copy: the sandbox's users, no one else's. */
    private static Path identityFiles() throws IOException {
        Path dir = Files.createTempDirectory("assay-sandbox-identity");
        dir.toFile().deleteOnExit();
        Path passwd = dir.resolve("passwd");
        Path group = dir.resolve("group");
        Files.writeString(
                passwd,
                "root:x:0:0:root:/nonexistent:/usr/sbin/nologin\n" + "nobody:x:65534:65534:nobody:" + WORKSPACE
                        + ":/bin/sh\n");
        Files.writeString(group, "root:x:0:\nnogroup:x:65534:\n");
        passwd.toFile().deleteOnExit();
        group.toFile().deleteOnExit();
        return dir;
    }

    private static String readLink(Path link) {
        try {
            return Files.readSymbolicLink(link).toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private boolean works() throws InterruptedException {
        try {
            Path dir = Files.createTempDirectory("assay-bwrap-probe");
            try {
                var probe = new SandboxRequest(
                        List.of("true"),
                        dir,
                        Map.of(),
                        "",
                        SandboxLimits.defaults().withWallTime(Duration.ofSeconds(20)));
                Launch launch = launch(probe, Optional.empty(), Runtimes.NONE);
                try {
                    return ProcessRunner.run(
                                            launch.command(),
                                            environment(probe, WORKSPACE, Runtimes.NONE.path()),
                                            probe,
                                            () -> {})
                                    .exitCode()
                            == 0;
                } finally {
                    launch.discard();
                }
            } finally {
                Files.deleteIfExists(dir);
            }
        } catch (IOException | UncheckedIOException | AssayException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return "bubblewrap(" + bwrap + (pidsLimitedByCgroup() ? ", pids cgroup" : ", RLIMIT_NPROC")
                + (setpriv.isPresent() ? ", as nobody" : "") + ")";
    }
}
