package dev.assay.sandbox.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Volume;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.zerodep.ZerodepDockerHttpClient;
import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.sandbox.ContainerEngine;
import dev.assay.sandbox.ContainerSpec;
import dev.assay.sandbox.ContainerTrial;
import dev.assay.sandbox.Sandbox;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One container engine reached over its unix socket with docker-java: checks a run's images, makes the trials'
 * containers (warm from {@link WarmPool} when one waits), labels them with their owner and run, and removes what a
 * killed Assay left. Every container it makes is removed when this process exits, but those kept for the user.
 * Thread-safe.
 */
final class Engine implements ContainerEngine {
    static final String RUN_LABEL = "dev.assay.run";
    /** A kept container's name starts so; the reaper leaves it to the user. */
    static final String KEPT_PREFIX = "assay-kept-";
    /** The uid and gid a container's commands run as when Assay runs as root: nobody. */
    static final int NOBODY = 65534;
    /** An image's workdir up to this size is kept in memory for the next containers; a larger one is read each time. */
    private static final int SEED_CACHE_BYTES = 64 << 20;

    private static final long TMP_BYTES = 256L << 20;

    private final String name;
    private final List<Path> sockets;
    private final Owner owner = Owner.self();
    private final WarmPool pool;
    private final Set<String> open = ConcurrentHashMap.newKeySet();
    private final Map<String, byte[]> seeds = new ConcurrentHashMap<>();
    private final AtomicLong made = new AtomicLong();
    private final int uid;
    private final int gid;
    private volatile Connection connection;

    /** The client and the socket it answered on. */
    private record Connection(DockerClient client, Path socket) {}

    Engine(String name, List<Path> sockets, PoolSize poolSize) {
        this.name = name;
        this.sockets = List.copyOf(sockets);
        this.pool = new WarmPool(poolSize, this::warm, this::discard);
        int self = ids("unix:uid");
        this.uid = self == 0 ? NOBODY : self;
        this.gid = self == 0 ? NOBODY : ids("unix:gid");
        Runtime.getRuntime().addShutdownHook(new Thread(this::shutdown, "assay-containers-cleanup"));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean present() {
        return sockets.stream().anyMatch(Files::exists);
    }

    /** {@return the process this engine labels its containers with} */
    Owner owner() {
        return owner;
    }

    /** {@return the socket this engine talks to, or would first try} */
    Path socket() {
        Connection made = connection;
        return made != null ? made.socket() : sockets.getFirst();
    }

    @Override
    public void prepare(Collection<ContainerSpec> specs, Path workspaceRoot) throws InterruptedException {
        DockerClient client = client();
        reap(client, workspaceRoot);
        Set<String> images = new LinkedHashSet<>();
        specs.forEach(spec -> images.add(spec.image()));
        for (String image : images) {
            try {
                client.inspectImageCmd(image).exec();
            } catch (NotFoundException e) {
                throw unavailable(
                        "the image " + image + " is not in the " + name + " engine at " + socket()
                                + ": build, pull or import it first",
                        image);
            } catch (RuntimeException e) {
                throw unavailable(
                        "the " + name + " engine at " + socket() + " failed to look up " + image + ": "
                                + e.getMessage(),
                        image);
            }
        }
        specs.forEach(spec -> pool.refill(
                new WarmPool.Key(spec, workspaceRoot.toAbsolutePath().normalize())));
    }

    @Override
    public ContainerTrial open(ContainerSpec spec, Path workspace, Path workspaceRoot, String runId)
            throws InterruptedException {
        DockerClient client = client();
        var key = new WarmPool.Key(spec, workspaceRoot.toAbsolutePath().normalize());
        WarmPool.Warm warm = pool.take(key);
        pool.refill(key);
        if (warm != null) {
            try {
                List<Path> moved = Workdirs.adopt(warm.directory(), workspace);
                for (Path file : moved) {
                    Workdirs.chown(file, uid, gid);
                }
                return trial(client, spec, warm.id(), workspace);
            } catch (IOException e) {
                // The warm container cannot take this workspace (another file system?): a cold one is made for it.
                discard(warm);
            }
        }
        try {
            return trial(client, spec, start(client, spec, workspace, runId), workspace);
        } catch (IOException e) {
            throw unavailable(
                    "cannot prepare the workspace of a " + spec.image() + " container: " + e.getMessage(),
                    spec.image());
        }
    }

    private ContainerRun trial(DockerClient client, ContainerSpec spec, String id, Path workspace) {
        open.add(id);
        return new ContainerRun(client, name, id, spec, uid + ":" + gid, workspace, () -> open.remove(id));
    }

    /** A warm container for the pool: its directory waits beside the workspaces, under {@code .containers}. */
    private WarmPool.Warm warm(WarmPool.Key key) throws IOException, InterruptedException {
        Path directory = ownDirectory(key.workspaceRoot());
        String id = start(client(), key.spec(), directory, "pool");
        return new WarmPool.Warm(id, directory);
    }

    /**
     * {@return a directory of this process's containers, not yet made, beside the workspaces under
     * {@code .containers}}: the next start removes it if this process is killed
     */
    Path ownDirectory(Path workspaceRoot) {
        return workspaceRoot
                .toAbsolutePath()
                .normalize()
                .resolve(".containers")
                .resolve(owner.fileStem() + "-" + made.incrementAndGet());
    }

    private void discard(WarmPool.Warm warm) {
        remove(warm.id());
        Workdirs.delete(warm.directory());
    }

    /** Seeds {@code directory} with the image's workdir and starts a container with it mounted there. */
    private String start(DockerClient client, ContainerSpec spec, Path directory, String runId)
            throws IOException, InterruptedException {
        Workdirs.unpack(seed(client, spec), directory);
        giveToUser(directory);
        return started(
                spec,
                runId,
                spec.workdir(),
                List.of(new Bind(directory.toAbsolutePath().toString(), new Volume(spec.workdir()))));
    }

    @Override
    public Sandbox environments(ContainerSpec spec, Path workspaceRoot, String runId) {
        return new EnvironmentContainers(this, spec, workspaceRoot, runId);
    }

    /** Gives {@code directory} to the containers' user when Assay runs as root (else it is Assay's own already). */
    void giveToUser(Path directory) throws IOException {
        if (uid == NOBODY) {
            Workdirs.chown(directory, uid, gid);
        }
    }

    /** {@return the user the containers' commands run as, {@code uid:gid}} */
    String user() {
        return uid + ":" + gid;
    }

    /**
     * {@return the id of a started container of {@code spec}, kept alive for commands by exec}: labelled with its owner
     * and run, its root file system read-only but {@code binds} and a fresh {@code /tmp}, under the spec's limits;
     * removed when this process exits unless closed before
     */
    String started(ContainerSpec spec, String runId, String workingDir, List<Bind> binds) {
        DockerClient client = client();
        HostConfig host = HostConfig.newHostConfig()
                .withNetworkMode(spec.network())
                .withReadonlyRootfs(true)
                .withCapDrop(Capability.ALL)
                .withSecurityOpts(List.of("no-new-privileges"))
                .withTmpFs(Map.of("/tmp", "rw,nosuid,nodev,size=" + TMP_BYTES + ",mode=1777"))
                .withBinds(binds)
                .withMemory((long) spec.memoryMb() << 20)
                .withMemorySwap((long) spec.memoryMb() << 20)
                .withPidsLimit((long) spec.pids())
                .withNanoCPUs((long) (spec.cpus() * 1e9));
        String id;
        try {
            id = client.createContainerCmd(spec.image())
                    .withLabels(Map.of(Owner.LABEL, owner.label(), RUN_LABEL, runId))
                    .withUser(user())
                    .withWorkingDir(workingDir)
                    .withEnv("HOME=/tmp", "TMPDIR=/tmp", "LANG=C.UTF-8")
                    // Kept alive by a sleep as PID 1: commands come by exec, and PID 1 outlives their kill (kill -9
                    // -1).
                    .withEntrypoint("sleep")
                    .withCmd("2147483647")
                    .withHostConfig(host)
                    .exec()
                    .getId();
        } catch (RuntimeException e) {
            throw unavailable(
                    "the " + name + " engine at " + socket() + " could not create a " + spec.image() + " container: "
                            + e.getMessage(),
                    spec.image());
        }
        try {
            client.startContainerCmd(id).exec();
        } catch (RuntimeException e) {
            remove(id);
            throw unavailable(
                    "the " + name + " engine at " + socket() + " could not start a " + spec.image() + " container: "
                            + e.getMessage(),
                    spec.image());
        }
        open.add(id);
        return id;
    }

    /** {@return the tar stream of the image's workdir, empty when the image has none} */
    private byte[] seed(DockerClient client, ContainerSpec spec) throws IOException {
        String key = spec.image() + "\u0000" + spec.workdir();
        byte[] cached = seeds.get(key);
        if (cached != null) {
            return cached;
        }
        String id = client.createContainerCmd(spec.image())
                .withLabels(Map.of(Owner.LABEL, owner.label(), RUN_LABEL, "seed"))
                .withEntrypoint("sleep")
                .withCmd("0")
                .exec()
                .getId();
        byte[] tar;
        try (InputStream in =
                client.copyArchiveFromContainerCmd(id, spec.workdir()).exec()) {
            tar = in.readAllBytes();
        } catch (NotFoundException e) {
            tar = emptyTar();
        } finally {
            remove(id);
        }
        if (tar.length <= SEED_CACHE_BYTES) {
            seeds.put(key, tar);
        }
        return tar;
    }

    private static byte[] emptyTar() {
        return new byte[1024];
    }

    /**
     * Removes the containers, and the warm directories, of Assay processes that are gone from this host: a {@code kill
     * -9} leaves them behind. Kept containers stay.
     */
    private void reap(DockerClient client, Path workspaceRoot) {
        List<Container> labelled;
        try {
            labelled = client.listContainersCmd()
                    .withShowAll(true)
                    .withLabelFilter(List.of(Owner.LABEL))
                    .exec();
        } catch (RuntimeException e) {
            throw unavailable(
                    "the " + name + " engine at " + socket() + " cannot list containers: " + e.getMessage(), null);
        }
        for (Container container : labelled) {
            boolean kept = container.getNames() != null
                    && List.of(container.getNames()).stream()
                            .anyMatch(n -> n.replace("/", "").startsWith(KEPT_PREFIX));
            boolean orphan = Owner.parse(container.getLabels().get(Owner.LABEL))
                    .map(Owner::gone)
                    .orElse(false);
            if (orphan && !kept) {
                remove(container.getId());
            }
        }
        Path warmRoot = workspaceRoot.resolve(".containers");
        if (Files.isDirectory(warmRoot)) {
            try (var directories = Files.list(warmRoot)) {
                for (Path directory : directories.toList()) {
                    String[] parts = directory.getFileName().toString().split("-");
                    if (parts.length == 3
                            && Owner.parse(parts[0] + "@" + owner.host() + "@" + parts[1])
                                    .map(Owner::gone)
                                    .orElse(false)) {
                        Workdirs.delete(directory);
                    }
                }
            } catch (IOException e) {
                // A leftover directory affects no result; the next start tries again.
            }
        }
    }

    void remove(String id) {
        open.remove(id);
        try {
            connection()
                    .client()
                    .removeContainerCmd(id)
                    .withForce(true)
                    .withRemoveVolumes(true)
                    .exec();
        } catch (NotFoundException gone) {
            // Already removed.
        } catch (RuntimeException e) {
            // The engine is away; the next start reaps it.
        }
    }

    /** Removes the warm containers and the trials still open: run when the process exits, however it exits. */
    void shutdown() {
        if (connection == null) {
            return;
        }
        pool.close().forEach(this::discard);
        new ArrayList<>(open).forEach(this::remove);
    }

    private Connection connection() {
        Connection made = connection;
        if (made == null) {
            throw unavailable("the " + name + " engine was never reached", null);
        }
        return made;
    }

    /** {@return the client, connected on first use to the first socket that answers a ping} */
    DockerClient client() {
        Connection made = connection;
        if (made != null) {
            return made.client();
        }
        synchronized (this) {
            if (connection == null) {
                connection = connect();
            }
            return connection.client();
        }
    }

    private Connection connect() {
        var tried = new ArrayList<String>();
        for (Path socket : sockets) {
            if (!Files.exists(socket)) {
                tried.add(socket + " (no such socket)");
                continue;
            }
            URI address = URI.create("unix://" + socket);
            var config = DefaultDockerClientConfig.createDefaultConfigBuilder()
                    .withDockerHost(address.toString())
                    .build();
            var http = new ZerodepDockerHttpClient.Builder()
                    .dockerHost(address)
                    .maxConnections(64)
                    .connectionTimeout(Duration.ofSeconds(5))
                    .responseTimeout(Duration.ofHours(1))
                    .build();
            DockerClient client = DockerClientImpl.getInstance(config, http);
            try {
                client.pingCmd().exec();
                return new Connection(client, socket);
            } catch (RuntimeException e) {
                tried.add(socket + " (" + e.getMessage() + ")");
            }
        }
        throw unavailable(
                "the " + name + " engine does not answer at " + String.join(", ", tried)
                        + "; start it (docs/sandboxes.md)",
                null);
    }

    private AssayException unavailable(String message, String image) {
        Problem problem = Problem.of("sandbox.unavailable", message)
                .withDetail("sandbox", name)
                .withDetail("socket", socket().toString());
        return new AssayException(image == null ? problem : problem.withDetail("image", image));
    }

    private static int ids(String attribute) {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), attribute);
        } catch (IOException | UnsupportedOperationException e) {
            return NOBODY;
        }
    }
}
