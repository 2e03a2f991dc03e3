package dev.assay.sandbox;

import dev.assay.sandbox.internal.ProcessRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs commands directly on the host, with only {@code prlimit} limits, the wall-clock kill and, where util-linux's
 * {@code setpriv} is, a kill when Assay dies: no isolation of the network or the file system. Used only when the user
 * explicitly allowed unsandboxed execution; its kind {@code none} is recorded in every verdict it produces.
 * Thread-safe.
 */
public final class UnsandboxedSandbox implements Sandbox {
    /** The kind {@code none}, not isolating: always usable. */
    public static final SandboxProvider PROVIDER = new SandboxProvider() {
        @Override
        public String name() {
            return "none";
        }

        @Override
        public boolean isolating() {
            return false;
        }

        @Override
        public Optional<UnsandboxedSandbox> find() {
            return Optional.of(new UnsandboxedSandbox());
        }
    };

    @Override
    public String kind() {
        return PROVIDER.name();
    }

    @Override
    public SandboxResult run(SandboxRequest request) throws InterruptedException {
        return ProcessRunner.run(command(request), environment(request), request, () -> {});
    }

    @Override
    public SandboxProcess start(SandboxRequest request) {
        return ProcessRunner.start(command(request), environment(request), request, false, () -> {});
    }

    private static List<String> command(SandboxRequest request) {
        var command = new ArrayList<String>();
        // Killed when Assay dies, even by SIGKILL, as bubblewrap's --die-with-parent does in the sandbox; the signal
        // survives the exec of the command (ProcessRunner forks where it means Assay's death).
        BubblewrapSandbox.onPath("setpriv")
                .ifPresent(setpriv -> command.addAll(List.of(setpriv.toString(), "--pdeathsig", "KILL", "--")));
        if (BubblewrapSandbox.onPath("prlimit").isPresent()) {
            // Processes are not limited here: RLIMIT_NPROC would count every process the user already runs.
            command.addAll(BubblewrapSandbox.prlimit(request.limits(), false));
        }
        command.addAll(request.command());
        return command;
    }

    private static Map<String, String> environment(SandboxRequest request) {
        return BubblewrapSandbox.environment(
                request,
                request.workDir().toAbsolutePath().toString(),
                Runtimes.find().path());
    }
}
