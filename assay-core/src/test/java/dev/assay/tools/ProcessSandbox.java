package dev.assay.tools;

import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.SandboxRequest;
import dev.assay.sandbox.SandboxResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Test-only sandbox of kind "none": runs the command with ProcessBuilder, honouring wall time and output cap. */
public final class ProcessSandbox implements Sandbox {
    @Override
    public String kind() {
        return "none";
    }

    @Override
    public SandboxResult run(SandboxRequest request) throws InterruptedException {
        long started = System.nanoTime();
        Process process;
        try {
            process = new ProcessBuilder(request.command())
                    .directory(request.workDir().toFile())
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long cap = request.limits().maxOutputBytes();
        CompletableFuture<byte[]> stdout = CompletableFuture.supplyAsync(() -> drain(process.getInputStream()));
        CompletableFuture<byte[]> stderr = CompletableFuture.supplyAsync(() -> drain(process.getErrorStream()));
        boolean finished = process.waitFor(request.limits().wallTime().toMillis(), TimeUnit.MILLISECONDS);
        if (!finished) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor();
        }
        byte[] out = join(stdout);
        byte[] err = join(stderr);
        return new SandboxResult(
                finished ? process.exitValue() : -1,
                text(out, cap),
                text(err, cap),
                !finished,
                out.length > cap || err.length > cap,
                Duration.ofNanos(System.nanoTime() - started),
                false);
    }

    private static byte[] drain(InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (IOException e) {
            return new byte[0];
        }
    }

    private static byte[] join(CompletableFuture<byte[]> future) throws InterruptedException {
        try {
            return future.get(5, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return new byte[0];
        }
    }

    private static String text(byte[] bytes, long cap) {
        return new String(bytes, 0, (int) Math.min(bytes.length, cap), StandardCharsets.UTF_8);
    }
}
