package dev.assay.sandbox.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.sandbox.ContainerSpec;
import dev.assay.sandbox.ContainerTrial;
import dev.assay.sandbox.SandboxRequest;
import dev.assay.sandbox.SandboxResult;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The container of one trial. Its commands run by exec as the container's non-root user in the workdir, each under its
 * wall-clock limit: at the limit every process of that user in the container is killed from inside ({@code kill -9
 * -1}), since a client that stops waiting leaves an exec running. Thread-safe.
 */
final class ContainerRun implements ContainerTrial {
    /** Runs the tool's {@code bash -c} with bash where the image has it, else with sh. */
    private static final String BASH_OR_SH =
            "if command -v bash >/dev/null 2>&1; then exec bash -c \"$1\"; else exec sh -c \"$1\"; fi";

    private final DockerClient client;
    private final String kind;
    private final String id;
    private final ContainerSpec spec;
    private final String user;
    private final Path directory;
    private final Runnable closed;
    private final AtomicBoolean ended = new AtomicBoolean();

    /**
     * @param user the container's user, {@code uid:gid}
     * @param directory the trial's workspace on this machine, mounted at the spec's workdir
     */
    ContainerRun(
            DockerClient client,
            String kind,
            String id,
            ContainerSpec spec,
            String user,
            Path directory,
            Runnable closed) {
        this.client = client;
        this.kind = kind;
        this.id = id;
        this.spec = spec;
        this.user = user;
        this.directory = directory.toAbsolutePath().normalize();
        this.closed = closed;
    }

    @Override
    public String kind() {
        return kind;
    }

    /** {@return the engine's id of the container} */
    String id() {
        return id;
    }

    @Override
    public SandboxResult run(SandboxRequest request) throws InterruptedException {
        long started = System.nanoTime();
        long cap = request.limits().maxOutputBytes();
        var stdout = new Capped(cap);
        var stderr = new Capped(cap);
        List<String> env = new ArrayList<>();
        request.env().forEach((name, value) -> env.add(name + "=" + value));
        boolean input = !request.stdin().isEmpty();
        String exec;
        try {
            exec = client.execCreateCmd(id)
                    .withCmd(command(request.command()).toArray(String[]::new))
                    .withUser(user)
                    .withWorkingDir(inside(request.workDir()))
                    .withEnv(env)
                    .withAttachStdin(input)
                    .withAttachStdout(true)
                    .withAttachStderr(true)
                    .exec()
                    .getId();
        } catch (RuntimeException e) {
            // Docker says 404 or 409 for a container that stopped, Podman 500: ask the container itself.
            throw new AssayException(died().orElseGet(() -> failed(e).problem()));
        }
        var frames = new ResultCallback.Adapter<Frame>() {
            @Override
            public void onNext(Frame frame) {
                (frame.getStreamType() == StreamType.STDERR ? stderr : stdout).write(frame.getPayload());
            }
        };
        var start = client.execStartCmd(exec);
        if (input) {
            start.withStdIn(new ByteArrayInputStream(request.stdin().getBytes(StandardCharsets.UTF_8)));
        }
        boolean finished;
        try {
            start.exec(frames);
            finished = frames.awaitCompletion(request.limits().wallTime().toMillis(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            closeQuietly(frames);
            throw failed(e);
        }
        if (!finished) {
            killInside();
            try {
                frames.awaitCompletion(2, TimeUnit.SECONDS);
            } catch (RuntimeException e) {
                // The stream was cut by the kill; what came before it is kept.
            }
            closeQuietly(frames);
        }
        Long exit;
        try {
            exit = client.inspectExecCmd(exec).exec().getExitCodeLong();
        } catch (RuntimeException e) {
            exit = null;
        }
        if (exit == null && finished) {
            Optional<Problem> died = died();
            if (died.isPresent()) {
                throw new AssayException(died.get());
            }
        }
        return new SandboxResult(
                finished && exit != null ? exit.intValue() : -1,
                stdout.text(),
                stderr.text(),
                !finished,
                stdout.truncated() || stderr.truncated(),
                Duration.ofNanos(System.nanoTime() - started),
                false);
    }

    /** A hidden directory of the workspace, owned by the container's user so that its commands can write there. */
    @Override
    public Path scratch(String prefix) throws IOException {
        Path made = Files.createTempDirectory(directory, "." + prefix);
        if (user.startsWith(Engine.NOBODY + ":")) {
            Workdirs.chown(made, Engine.NOBODY, Engine.NOBODY);
        }
        return made;
    }

    /** {@return where {@code workDir} is seen inside: below the workdir when it lies below the workspace, else it} */
    private String inside(Path workDir) {
        Path host = workDir == null ? directory : workDir.toAbsolutePath().normalize();
        if (!host.startsWith(directory) || host.equals(directory)) {
            return spec.workdir();
        }
        return spec.workdir() + "/" + directory.relativize(host).toString().replace('\\', '/');
    }

    /** The kill at the wall-clock limit, from inside: every process of the user but PID 1 (the keep-alive). */
    private void killInside() {
        try {
            String kill = client.execCreateCmd(id)
                    .withCmd("sh", "-c", "kill -9 -1")
                    .withUser(user)
                    .withAttachStdout(true)
                    .withAttachStderr(true)
                    .exec()
                    .getId();
            client.execStartCmd(kill).exec(new ResultCallback.Adapter<Frame>()).awaitCompletion(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // No shell to kill with, or the container is gone: stopping it ends every command for sure.
            try {
                client.killContainerCmd(id).exec();
            } catch (RuntimeException ignored) {
                // Gone already.
            }
        }
    }

    private static List<String> command(List<String> command) {
        if (command.size() == 3
                && command.get(0).equals("bash")
                && command.get(1).equals("-c")) {
            return List.of("sh", "-c", BASH_OR_SH, "sh", command.get(2));
        }
        return command;
    }

    @Override
    public Optional<Problem> died() {
        InspectContainerResponse.ContainerState state;
        try {
            state = client.inspectContainerCmd(id).exec().getState();
        } catch (NotFoundException e) {
            return Optional.of(
                    Problem.of("sandbox.container_died", "the trial's " + spec.image() + " container is gone")
                            .withDetail("image", spec.image()));
        } catch (RuntimeException e) {
            return Optional.of(failed(e).problem());
        }
        if (Boolean.TRUE.equals(state.getRunning())) {
            return Optional.empty();
        }
        boolean oom = Boolean.TRUE.equals(state.getOOMKilled());
        return Optional.of(Problem.of(
                        "sandbox.container_died",
                        "the trial's " + spec.image() + " container stopped" + (oom ? " (out of memory)" : "")
                                + ", exit code " + state.getExitCodeLong())
                .withDetail("image", spec.image())
                .withDetail("oom_killed", oom));
    }

    @Override
    public void close(boolean keep) {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        try {
            if (keep) {
                client.stopContainerCmd(id).withTimeout(0).exec();
                client.renameContainerCmd(id)
                        .withName(Engine.KEPT_PREFIX
                                + UUID.randomUUID().toString().substring(0, 8))
                        .exec();
            } else {
                client.removeContainerCmd(id)
                        .withForce(true)
                        .withRemoveVolumes(true)
                        .exec();
            }
        } catch (RuntimeException e) {
            // Gone already, or the engine is away: the next start reaps what is left.
        } finally {
            closed.run();
        }
    }

    private AssayException failed(RuntimeException e) {
        return new AssayException(
                Problem.of("sandbox.failed", "the " + kind + " engine failed to run a command: " + e.getMessage())
                        .withDetail("sandbox", kind));
    }

    private static void closeQuietly(ResultCallback.Adapter<Frame> frames) {
        try {
            frames.close();
        } catch (java.io.IOException | RuntimeException e) {
            // Closing a stream that ended.
        }
    }

    /** One output stream, kept up to its cap. */
    static final class Capped {
        private final long cap;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private boolean truncated;

        Capped(long cap) {
            this.cap = cap;
        }

        synchronized void write(byte[] payload) {
            long room = cap - bytes.size();
            if (payload.length > room) {
                truncated = true;
            }
            bytes.write(payload, 0, (int) Math.max(0, Math.min(room, payload.length)));
        }

        synchronized String text() {
            return bytes.toString(StandardCharsets.UTF_8);
        }

        synchronized boolean truncated() {
            return truncated;
        }
    }
}
