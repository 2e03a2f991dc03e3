package dev.assay.sandbox.container;

import dev.assay.sandbox.ContainerEngine;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.SandboxProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A container engine as a sandbox kind: it runs the trials of cases that name an image, and nothing else (commands of
 * other cases stay in bubblewrap, so {@link #find()} finds nothing). The engine is made once, on first use.
 * Thread-safe.
 */
public abstract class EngineProvider implements SandboxProvider {
    private volatile Engine engine;

    EngineProvider() {}

    @Override
    public boolean isolating() {
        return true;
    }

    @Override
    public Optional<? extends Sandbox> find() {
        return Optional.empty();
    }

    @Override
    public Optional<ContainerEngine> containers() {
        Engine made = engine;
        if (made == null) {
            synchronized (this) {
                made = engine;
                if (made == null) {
                    made = new Engine(name(), sockets(System.getenv()), PoolSize.of(System.getenv()));
                    engine = made;
                }
            }
        }
        return Optional.of(made);
    }

    /** {@return where this engine's socket may be, most specific first: the environment's, then the usual ones} */
    abstract List<Path> sockets(Map<String, String> env);

    /** {@return the path of a {@code unix://} address, if {@code address} is one} */
    static Optional<Path> unixPath(String address) {
        return address != null && address.startsWith("unix://")
                ? Optional.of(Path.of(address.substring("unix://".length())))
                : Optional.empty();
    }

    static List<Path> existingFirst(List<Path> candidates) {
        var sorted = new ArrayList<Path>();
        candidates.stream().filter(Files::exists).forEach(sorted::add);
        candidates.stream().filter(path -> !Files.exists(path)).forEach(sorted::add);
        return List.copyOf(sorted);
    }

    /** {@code docker}: {@code DOCKER_HOST} when it is a unix socket, else {@code /var/run/docker.sock}. */
    public static final class Docker extends EngineProvider {
        @Override
        public String name() {
            return "docker";
        }

        @Override
        List<Path> sockets(Map<String, String> env) {
            var candidates = new ArrayList<Path>();
            unixPath(env.get("DOCKER_HOST")).ifPresent(candidates::add);
            candidates.add(Path.of("/var/run/docker.sock"));
            if (env.containsKey("XDG_RUNTIME_DIR")) {
                candidates.add(Path.of(env.get("XDG_RUNTIME_DIR"), "docker.sock"));
            }
            return existingFirst(candidates);
        }
    }

    /**
     * {@code podman}: {@code CONTAINER_HOST} when it is a unix socket, else the rootful service's
     * {@code /run/podman/podman.sock}, else the rootless one under {@code $XDG_RUNTIME_DIR}.
     */
    public static final class Podman extends EngineProvider {
        @Override
        public String name() {
            return "podman";
        }

        @Override
        List<Path> sockets(Map<String, String> env) {
            var candidates = new ArrayList<Path>();
            unixPath(env.get("CONTAINER_HOST")).ifPresent(candidates::add);
            candidates.add(Path.of("/run/podman/podman.sock"));
            if (env.containsKey("XDG_RUNTIME_DIR")) {
                candidates.add(Path.of(env.get("XDG_RUNTIME_DIR"), "podman", "podman.sock"));
            }
            return existingFirst(candidates);
        }
    }
}
