package dev.assay.sandbox;

import dev.assay.AssayException;
import dev.assay.Problem;

/** Chooses the sandbox for untrusted code, failing closed. */
public final class Sandboxes {
    private Sandboxes() {
    }

    /**
     * {@return bubblewrap when usable; otherwise the unsandboxed runner if {@code allowUnsandboxed}}
     *
     * @param allowUnsandboxed the user's explicit opt-in to run untrusted code on the host
     * @throws AssayException {@code sandbox.unavailable} when bubblewrap is not usable and unsandboxed runs are not
     *                        allowed
     */
    public static Sandbox detect(boolean allowUnsandboxed) throws InterruptedException {
        var bubblewrap = BubblewrapSandbox.find();
        if (bubblewrap.isPresent()) {
            return bubblewrap.get();
        }
        if (allowUnsandboxed) {
            return new UnsandboxedSandbox();
        }
        throw new AssayException(Problem.of("sandbox.unavailable",
                "no usable sandbox for untrusted code: install bubblewrap and util-linux "
                        + "(apt-get install -y bubblewrap util-linux) and make sure user namespaces are allowed "
                        + "(sysctl kernel.unprivileged_userns_clone=1), or explicitly allow unsandboxed execution"));
    }
}
