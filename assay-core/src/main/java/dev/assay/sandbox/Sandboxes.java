package dev.assay.sandbox;

import dev.assay.AssayException;
import dev.assay.Plugins;
import dev.assay.Problem;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;

/**
 * Chooses the sandbox for untrusted code among the kinds registered ({@link SandboxProvider}), failing closed.
 * Thread-safe.
 */
public final class Sandboxes {
    private static final Plugins<SandboxProvider> PROVIDERS = Plugins.load(
            SandboxProvider.class,
            "sandbox",
            SandboxProvider::name,
            List.of(BubblewrapSandbox.PROVIDER, UnsandboxedSandbox.PROVIDER));

    /** How a confining sandbox is found on this machine; tests pass one that finds none. */
    @FunctionalInterface
    public interface Finder {
        /** {@return a usable confining sandbox, if there is one here} */
        Optional<? extends Sandbox> find() throws InterruptedException;
    }

    /** Finds the first isolating kind usable here: bubblewrap, then plug-ins in class-path order. */
    public static final Finder ISOLATING = () -> {
        for (SandboxProvider provider : PROVIDERS.all()) {
            if (provider.isolating()) {
                Optional<? extends Sandbox> found = provider.find();
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    };

    private Sandboxes() {}

    /**
     * {@return a finder whose search has begun, on a thread of its own}: bubblewrap is probed by running it, about 50
     * ms that a run's start would otherwise spend waiting after it has read its suite rather than while. Asked, it
     * waits for that one search and gives its result, however often it is asked.
     */
    public static Finder searching(Finder finder) {
        var search = new FutureTask<Optional<? extends Sandbox>>(finder::find);
        Thread.ofVirtual().name("assay-sandbox-search").start(search);
        return () -> {
            try {
                return search.get();
            } catch (ExecutionException e) {
                switch (e.getCause()) {
                    case InterruptedException interrupted -> throw interrupted;
                    case RuntimeException failure -> throw failure;
                    case Error error -> throw error;
                    default -> throw new IllegalStateException("the sandbox search failed", e.getCause());
                }
            }
        };
    }

    /**
     * {@return a finder that searches with {@code finder} on its first use and gives that result ever after}: for a
     * checker that needs the sandbox only if a case uses it
     */
    public static Finder once(Finder finder) {
        return new Finder() {
            private Optional<? extends Sandbox> found;

            @Override
            public synchronized Optional<? extends Sandbox> find() throws InterruptedException {
                if (found == null) {
                    found = finder.find();
                }
                return found;
            }
        };
    }

    /**
     * {@return the container engine named {@code name} ({@code --sandbox docker}), or when {@code name} is blank the
     * first container kind registered whose socket is here (docker, then podman), else the first registered}
     *
     * @throws AssayException {@code sandbox.unavailable} when no such engine is registered (assay-container is not on
     *     the class path, or the name is no container kind)
     */
    public static ContainerEngine containers(String name) {
        if (name != null && !name.isBlank()) {
            return PROVIDERS
                    .find(name)
                    .flatMap(SandboxProvider::containers)
                    .orElseThrow(() -> new AssayException(Problem.of(
                                    "sandbox.unavailable",
                                    "'" + name + "' is no container sandbox; known: "
                                            + String.join(", ", containerKinds()))
                            .withDetail("sandbox", name)));
        }
        var engines = PROVIDERS.all().stream()
                .flatMap(provider -> provider.containers().stream())
                .toList();
        return engines.stream()
                .filter(ContainerEngine::present)
                .findFirst()
                .or(() -> engines.stream().findFirst())
                .orElseThrow(() -> new AssayException(Problem.of(
                        "sandbox.unavailable",
                        "a case names an image, but no container sandbox is installed (the assay-container module)")));
    }

    private static List<String> containerKinds() {
        return PROVIDERS.all().stream()
                .filter(provider -> provider.containers().isPresent())
                .map(SandboxProvider::name)
                .toList();
    }

    /**
     * {@return the run's sandbox where none is usable but some cases name an image}: a trial in a container runs its
     * commands there, never here; any other command is refused with {@code why}
     */
    public static Sandbox trialsOnly(Problem why) {
        return new Sandbox() {
            @Override
            public String kind() {
                return "containers_only";
            }

            @Override
            public SandboxResult run(SandboxRequest request) {
                throw new AssayException(why);
            }
        };
    }

    /**
     * {@return an isolating sandbox when one is usable (bubblewrap first); otherwise the unsandboxed runner if
     * {@code allowUnsandboxed}}
     *
     * @param allowUnsandboxed the user's explicit opt-in to run untrusted code on the host
     * @throws AssayException {@code sandbox.unavailable} when bubblewrap is not usable and unsandboxed runs are not
     *     allowed
     */
    public static Sandbox detect(boolean allowUnsandboxed) throws InterruptedException {
        return detect(allowUnsandboxed, ISOLATING);
    }

    /** {@return the sandbox {@code finder} finds; otherwise as {@link #detect(boolean)}} */
    public static Sandbox detect(boolean allowUnsandboxed, Finder finder) throws InterruptedException {
        var isolating = finder.find();
        if (isolating.isPresent()) {
            return isolating.get();
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

    /**
     * {@return the confining sandbox {@code finder} finds, looked for when first asked}: a sandbox found is remembered,
     * a failure ({@code sandbox.unavailable}, never an unconfined fallback) is looked for again when next asked, so
     * installing bubblewrap needs no restart. Thread-safe.
     */
    public static Supplier<Sandbox> onFirstUse(Finder finder) {
        return new OnFirstUse(finder);
    }

    private static final class OnFirstUse implements Supplier<Sandbox> {
        private final Finder finder;
        private volatile Sandbox found;

        OnFirstUse(Finder finder) {
            this.finder = finder;
        }

        @Override
        public Sandbox get() {
            Sandbox current = found;
            if (current != null) {
                return current;
            }
            synchronized (this) {
                if (found == null) {
                    try {
                        found = detect(false, finder);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw AssayException.of("sandbox.unavailable", "interrupted while detecting the sandbox");
                    }
                }
                return found;
            }
        }
    }
}
