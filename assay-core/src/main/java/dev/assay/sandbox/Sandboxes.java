package dev.assay.sandbox;

import dev.assay.AssayException;
import dev.assay.Problem;
import java.util.Optional;

/** Chooses the sandbox for untrusted code, failing closed. */
public final class Sandboxes {
    /** How a confining sandbox is found on this machine; tests pass one that finds none. */
    @FunctionalInterface
    public interface Finder {
        /** {@return a usable confining sandbox, if there is one here} */
        Optional<? extends Sandbox> find() throws InterruptedException;
    }

    /** Finds bubblewrap. */
    public static final Finder BUBBLEWRAP = BubblewrapSandbox::find;

    private Sandboxes() {}

    /**
     * {@return bubblewrap when usable; otherwise the unsandboxed runner if {@code allowUnsandboxed}}
     *
     * @param allowUnsandboxed the user's explicit opt-in to run untrusted code on the host
     * @throws AssayException {@code sandbox.unavailable} when bubblewrap is not usable and unsandboxed runs are not
     *     allowed
     */
    public static Sandbox detect(boolean allowUnsandboxed) throws InterruptedException {
        return detect(allowUnsandboxed, BUBBLEWRAP);
    }

    /** {@return the sandbox {@code finder} finds; otherwise as {@link #detect(boolean)}} */
    public static Sandbox detect(boolean allowUnsandboxed, Finder finder) throws InterruptedException {
        var bubblewrap = finder.find();
        if (bubblewrap.isPresent()) {
            return bubblewrap.get();
        }
        if (allowUnsandboxed) {
            return new UnsandboxedSandbox();
        }
        throw new AssayException(Problem.of(
                "sandbox.unavailable",
                "no usable sandbox for untrusted code: install bubblewrap and util-linux "
                        + "(apt-get install -y bubblewrap util-linux) and make sure user namespaces are allowed "
                        + "(sysctl kernel.unprivileged_userns_clone=1), or explicitly allow unsandboxed execution"));
    }
}
