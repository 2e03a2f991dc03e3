package dev.assay.sandbox.internal;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.sandbox.SandboxProcess;
import dev.assay.sandbox.SandboxRequest;
import dev.assay.sandbox.SandboxResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Starts one process, feeds its stdin, drains both streams up to the output cap and kills the whole tree at the
 * wall-clock limit or when the work directory goes over its limit ({@link WorkspaceWatch}). Shared by both sandbox
 * kinds so they differ only in the command line they build.
 */
public final class ProcessRunner {
    /**
     * Forks every process. A process that must die with Assay asks the kernel for a signal when its parent dies
     * ({@code PR_SET_PDEATHSIG}: bubblewrap's {@code --die-with-parent}, {@code setpriv --pdeathsig}), and the kernel
     * sends it when the <em>thread</em> that forked it ends. Runs fork on virtual threads, whose carrier threads retire
     * after half a minute idle, which would kill a trial's environment mid-trial; this platform thread lives as long as
     * the JVM, so the signal comes when Assay dies, however it dies.
     */
    private static final ExecutorService FORKER = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name("assay-process-forker").daemon().factory());

    private ProcessRunner() {}

    public static SandboxResult run(
            List<String> command, Map<String, String> env, SandboxRequest request, Runnable afterExit)
            throws InterruptedException {
        long started = System.nanoTime();
        Process process = launch(command, env, request, () -> {});
        long cap = request.limits().maxOutputBytes();
        var stdout = new CappedSink(cap);
        var stderr = new CappedSink(cap);
        Thread outReader = Thread.ofVirtual().start(() -> stdout.drain(process.getInputStream()));
        Thread errReader = Thread.ofVirtual().start(() -> stderr.drain(process.getErrorStream()));
        Thread.ofVirtual().start(() -> feed(process.getOutputStream(), request.stdin()));
        var workspace = new WorkspaceWatch(request.workDir(), request.limits().workspaceBytes());
        boolean finished;
        try {
            finished = workspace.waitFor(process, request.limits().wallTime());
        } catch (InterruptedException e) {
            killTree(process);
            afterExit.run();
            throw e;
        }
        boolean overLimit = workspace.overLimit();
        if (!finished && !overLimit) {
            killTree(process);
            process.waitFor();
        }
        afterExit.run();
        // A command that filled the workspace faster than it was looked at, and ended, is judged all the same.
        overLimit = overLimit || workspace.exceeded();
        // Readers end when the last holder of the pipes dies; a grandchild that escaped the kill must not hang us.
        outReader.join(Duration.ofSeconds(2));
        errReader.join(Duration.ofSeconds(2));
        return new SandboxResult(
                finished ? process.exitValue() : -1,
                stdout.text(),
                stderr.text(),
                !finished && !workspace.overLimit(),
                stdout.truncated() || stderr.truncated(),
                Duration.ofNanos(System.nanoTime() - started),
                overLimit);
    }

    /** Starts the process in the work directory with exactly {@code env}; {@code onFailure} runs if it cannot. */
    private static Process launch(
            List<String> command, Map<String, String> env, SandboxRequest request, Runnable onFailure) {
        var builder = new ProcessBuilder(command).directory(request.workDir().toFile());
        builder.environment().clear();
        builder.environment().putAll(env);
        CompletableFuture<Process> started = CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return builder.start();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                },
                FORKER);
        try {
            // Not interruptible: a process forked for a caller that was interrupted meanwhile must still be its to
            // close.
            return started.join();
        } catch (CompletionException e) {
            onFailure.run();
            Throwable cause = e.getCause() instanceof UncheckedIOException io ? io.getCause() : e.getCause();
            throw new AssayException(
                    Problem.of("sandbox.unavailable", "cannot start " + command.get(0) + ": " + cause.getMessage()),
                    cause);
        }
    }

    /**
     * Starts one process with its streams left to the caller; a watchdog kills the tree at the wall-clock limit or when
     * the work directory goes over its limit. {@code afterExit} runs once, when the process is closed.
     * {@code treeDiesWithIt} says that killing the process ends all its descendants (bubblewrap's, the init of a pid
     * namespace), so they need not be looked for: walking the host's process table costs milliseconds.
     */
    public static SandboxProcess start(
            List<String> command,
            Map<String, String> env,
            SandboxRequest request,
            boolean treeDiesWithIt,
            Runnable afterExit) {
        Process process = launch(command, env, request, afterExit);
        var stderr = new CappedSink(request.limits().maxOutputBytes());
        Thread.ofVirtual().start(() -> stderr.drain(process.getErrorStream()));
        var live = new LiveProcess(process, stderr, treeDiesWithIt, afterExit);
        Thread.ofVirtual().start(() -> {
            try {
                var workspace =
                        new WorkspaceWatch(request.workDir(), request.limits().workspaceBytes());
                if (!workspace.waitFor(process, request.limits().wallTime())) {
                    live.close();
                }
            } catch (InterruptedException e) {
                live.close();
            }
        });
        return live;
    }

    /** A started process; closing it kills the tree once. */
    private static final class LiveProcess implements SandboxProcess {
        private final Process process;
        private final CappedSink stderr;
        private final boolean treeDiesWithIt;
        private final Runnable afterExit;
        private final AtomicBoolean closed = new AtomicBoolean();

        LiveProcess(Process process, CappedSink stderr, boolean treeDiesWithIt, Runnable afterExit) {
            this.process = process;
            this.stderr = stderr;
            this.treeDiesWithIt = treeDiesWithIt;
            this.afterExit = afterExit;
        }

        @Override
        public OutputStream stdin() {
            return process.getOutputStream();
        }

        @Override
        public InputStream stdout() {
            return process.getInputStream();
        }

        @Override
        public String stderr() {
            return stderr.text();
        }

        @Override
        public boolean waitFor(Duration timeout) throws InterruptedException {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }

        @Override
        public int exitCode() {
            return process.isAlive() ? -1 : process.exitValue();
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                if (treeDiesWithIt) {
                    process.destroyForcibly();
                } else {
                    killTree(process);
                }
                afterExit.run();
            }
        }
    }

    static void killTree(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    private static void feed(OutputStream stdin, String text) {
        try (stdin) {
            stdin.write(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // The command exited or closed stdin without reading it all; that is its business.
        }
    }

    /** Keeps the first {@code cap} bytes and discards the rest, still reading so the writer never blocks. */
    private static final class CappedSink {
        private final long cap;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private volatile boolean truncated;

        CappedSink(long cap) {
            this.cap = cap;
        }

        void drain(InputStream in) {
            byte[] buffer = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    synchronized (kept) {
                        int room = (int) Math.max(0, Math.min(n, cap - kept.size()));
                        kept.write(buffer, 0, room);
                        if (room < n) {
                            truncated = true;
                        }
                    }
                }
            } catch (IOException e) {
                // The stream closes when the process is killed.
            }
        }

        String text() {
            synchronized (kept) {
                return kept.toString(StandardCharsets.UTF_8);
            }
        }

        boolean truncated() {
            return truncated;
        }
    }
}
