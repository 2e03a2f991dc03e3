package dev.assay.sandbox;

import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;

/**
 * A sandboxed command still running, its standard input and output open to Assay for a conversation (the code grader's
 * HumanEval checker and program talk through Assay this way, each in a sandbox of its own). Standard error is collected
 * in the background up to the output limit. Closing it kills the whole process tree. Thread-safe.
 */
public interface SandboxProcess extends AutoCloseable {
    /** {@return the command's standard input} */
    OutputStream stdin();

    /** {@return the command's standard output} */
    InputStream stdout();

    /** {@return what the command wrote to standard error so far, cut at the output limit} */
    String stderr();

    /** {@return whether the command ended within {@code timeout}} */
    boolean waitFor(Duration timeout) throws InterruptedException;

    /** {@return the exit status; -1 while it runs or when it was killed} */
    int exitCode();

    /** Kills the whole process tree, if it still runs, and releases what the sandbox held for it. */
    @Override
    void close();
}
