package dev.assay.run;

import dev.assay.result.Run;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/** A run in progress: its id, its latest record, and the means to cancel it or wait for it. Thread-safe. */
public final class RunHandle {
    private final String runId;
    private final AtomicBoolean cancelRequested = new AtomicBoolean();
    private final AtomicReference<Run> latest = new AtomicReference<>();
    private final CompletableFuture<Run> done = new CompletableFuture<>();
    private volatile Runnable onCancel = () -> {};

    RunHandle(String runId) {
        this.runId = runId;
    }

    public String runId() {
        return runId;
    }

    /**
     * Asks the run to stop: no new case starts, running cases are interrupted and stored as {@code cancelled}, finished
     * items are kept, and the run is stored as {@code cancelled}. Returns at once; {@link #await()} waits.
     *
     * @return false when the run had already ended or was already cancelled
     */
    public boolean cancel() {
        if (done.isDone() || !cancelRequested.compareAndSet(false, true)) {
            return false;
        }
        onCancel.run();
        return true;
    }

    public boolean isCancelRequested() {
        return cancelRequested.get();
    }

    public boolean isDone() {
        return done.isDone();
    }

    /** {@return the latest run record (counts and scores so far)} */
    public Run current() {
        return latest.get();
    }

    /** {@return the final run record, once the run has ended} */
    public Run await() throws InterruptedException {
        try {
            return done.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the engine failed", e.getCause());
        }
    }

    public void update(Run run) {
        latest.set(run);
    }

    void onCancel(Runnable action) {
        this.onCancel = action;
    }

    void finish(Run run) {
        latest.set(run);
        done.complete(run);
    }

    void fail(Throwable error) {
        done.completeExceptionally(error);
    }
}
