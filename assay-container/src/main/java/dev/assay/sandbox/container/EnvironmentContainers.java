package dev.assay.sandbox.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.sandbox.ContainerSpec;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.SandboxProcess;
import dev.assay.sandbox.SandboxRequest;
import dev.assay.sandbox.SandboxResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * Where the environments of one image's trials run: every command started here gets a fresh container of its own (the
 * trial's image, limits and network; a copy of each read-only path shown read-only at the same path), its standard
 * input and output attached through an exec. Closing the command removes the container. Thread-safe.
 */
final class EnvironmentContainers implements Sandbox {
    private final Engine engine;
    private final ContainerSpec spec;
    private final Path workspaceRoot;
    private final String runId;

    EnvironmentContainers(Engine engine, ContainerSpec spec, Path workspaceRoot, String runId) {
        this.engine = engine;
        this.spec = spec;
        this.workspaceRoot = workspaceRoot;
        this.runId = runId;
    }

    @Override
    public String kind() {
        return engine.name();
    }

    @Override
    public boolean hostSystem() {
        return false;
    }

    /** Environments talk over their streams; a command to completion runs in the trial's container instead. */
    @Override
    public SandboxResult run(SandboxRequest request) {
        throw new AssayException(Problem.of(
                "sandbox.unsupported",
                "an environment's container runs its server with its streams open, never a command to completion"));
    }

    @Override
    public SandboxProcess start(SandboxRequest request) {
        var copies = new ArrayList<Path>();
        var binds = new ArrayList<Bind>();
        String id = null;
        try {
            for (Path shown : request.readOnly()) {
                Path copy = copy(shown.toAbsolutePath().normalize());
                copies.add(copy);
                binds.add(Bind.parse(copy + ":" + shown.toAbsolutePath().normalize() + ":ro"));
            }
            id = engine.started(spec, runId, "/tmp", binds);
            return new Attached(id, request, copies);
        } catch (IOException e) {
            discard(id, copies);
            throw new AssayException(
                    Problem.of("sandbox.unavailable", "cannot copy the environment's files: " + e.getMessage())
                            .withDetail("sandbox", engine.name()),
                    e);
        } catch (RuntimeException e) {
            discard(id, copies);
            throw e;
        }
    }

    private void discard(String id, List<Path> copies) {
        if (id != null) {
            engine.remove(id);
        }
        copies.forEach(Workdirs::delete);
    }

    /**
     * {@return a copy of {@code source} (a directory's files and directories, links left out) that the containers' user
     * can read}: the trial's container never sees it, and the server cannot change the suite's files
     */
    private Path copy(Path source) throws IOException {
        Path copy = Files.createDirectories(engine.ownDirectory(workspaceRoot));
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path target = copy.resolve(source.relativize(path).toString());
                if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectories(target);
                } else if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                    Files.copy(path, target);
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        engine.giveToUser(copy);
        return copy;
    }

    /** One server: an exec in its own container, its streams piped to the caller. */
    private final class Attached implements SandboxProcess {
        private final String id;
        private final List<Path> copies;
        private final Pipe input = Pipe.open();
        private final Pipe output = Pipe.open();
        private final ContainerRun.Capped stderr;
        private final ResultCallback.Adapter<Frame> frames;
        private final String exec;
        private final AtomicBoolean closed = new AtomicBoolean();

        Attached(String id, SandboxRequest request, List<Path> copies) throws IOException {
            this.id = id;
            this.copies = copies;
            this.stderr = new ContainerRun.Capped(request.limits().maxOutputBytes());
            var env = new ArrayList<String>();
            request.env().forEach((name, value) -> env.add(name + "=" + value));
            DockerClient client = engine.client();
            exec = client.execCreateCmd(id)
                    .withCmd(request.command().toArray(String[]::new))
                    .withUser(engine.user())
                    .withWorkingDir("/tmp")
                    .withEnv(env)
                    .withAttachStdin(true)
                    .withAttachStdout(true)
                    .withAttachStderr(true)
                    .exec()
                    .getId();
            OutputStream toCaller = Channels.newOutputStream(output.sink());
            frames = new ResultCallback.Adapter<>() {
                @Override
                public void onNext(Frame frame) {
                    if (frame.getStreamType() == StreamType.STDERR) {
                        stderr.write(frame.getPayload());
                        return;
                    }
                    try {
                        toCaller.write(frame.getPayload());
                    } catch (IOException e) {
                        // The caller stopped reading: it is closing the server.
                    }
                }

                @Override
                public void onComplete() {
                    endOutput();
                    super.onComplete();
                }

                @Override
                public void onError(Throwable throwable) {
                    endOutput();
                    super.onError(throwable);
                }
            };
            client.execStartCmd(exec)
                    .withStdIn(Channels.newInputStream(input.source()))
                    .exec(frames);
            // The wall-clock limit is the backstop of a caller that never closes.
            CompletableFuture.delayedExecutor(request.limits().wallTime().toMillis(), TimeUnit.MILLISECONDS)
                    .execute(this::close);
        }

        private void endOutput() {
            try {
                output.sink().close();
            } catch (IOException e) {
                // Closed already.
            }
        }

        @Override
        public OutputStream stdin() {
            return Channels.newOutputStream(input.sink());
        }

        @Override
        public InputStream stdout() {
            return Channels.newInputStream(output.source());
        }

        @Override
        public String stderr() {
            return stderr.text();
        }

        @Override
        public boolean waitFor(Duration timeout) throws InterruptedException {
            return frames.awaitCompletion(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }

        @Override
        public int exitCode() {
            try {
                Long exit = engine.client().inspectExecCmd(exec).exec().getExitCodeLong();
                return exit == null ? -1 : exit.intValue();
            } catch (RuntimeException e) {
                return -1;
            }
        }

        @Override
        public void close() {
            if (!closed.compareAndSet(false, true)) {
                return;
            }
            discard(id, copies);
            endOutput();
            try {
                input.sink().close();
                frames.close();
            } catch (IOException | RuntimeException e) {
                // The container is gone, and its streams with it.
            }
        }
    }
}
