package dev.assay.sandbox;

import dev.assay.Problem;
import java.util.Optional;

/**
 * The container of one trial: every command of the trial runs in it ({@link #run}), its workdir being the trial's
 * workspace, or the directory under it that {@link SandboxRequest#workDir()} names ({@link #scratch}). Thread-safe.
 */
public interface ContainerTrial extends Sandbox {
    /** Commands see the image's userland. */
    @Override
    default boolean hostSystem() {
        return false;
    }

    /** {@return why the container is no longer running, or empty while it runs} */
    Optional<Problem> died();

    /**
     * Ends the trial's container: removed, or stopped and kept under a name of its own when {@code keep} (the user's
     * {@code --keep-workspaces}), so that it can be looked into.
     */
    void close(boolean keep);
}
