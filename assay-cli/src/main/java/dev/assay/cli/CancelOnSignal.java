package dev.assay.cli;

import dev.assay.run.RunHandle;
import java.io.PrintWriter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C or SIGTERM while a run goes on cancels it: finished items are kept, the run is stored as cancelled, and the
 * process waits (up to 30 s) for the command to finish its output before it exits. Closing it, once the output is
 * written, lets a signal end the process at once again.
 */
final class CancelOnSignal implements AutoCloseable {
    private final Thread hook;
    private final CountDownLatch outputWritten = new CountDownLatch(1);

    private CancelOnSignal(Thread hook) {
        this.hook = hook;
    }

    /** {@return the hook, installed} */
    static CancelOnSignal install(RunHandle handle, PrintWriter stderr) {
        var holder = new CancelOnSignal[1];
        Thread hook = new Thread(
                () -> {
                    if (handle.cancel()) {
                        stderr.println("cancelling: finished items are kept...");
                        stderr.flush();
                    }
                    try {
                        handle.await();
                        holder[0].outputWritten.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "assay-cancel");
        holder[0] = new CancelOnSignal(hook);
        Runtime.getRuntime().addShutdownHook(hook);
        return holder[0];
    }

    @Override
    public void close() {
        outputWritten.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running because of a signal; it ends once the output is written.
        }
    }
}
