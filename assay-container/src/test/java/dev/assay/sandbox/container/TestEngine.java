package dev.assay.sandbox.container;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.exception.NotFoundException;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.ModelOptions;
import dev.assay.model.RetryPolicy;
import dev.assay.report.RunReport;
import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.run.EvalSpec;
import dev.assay.run.RunListener;
import dev.assay.run.RunSettings;
import dev.assay.sandbox.Sandboxes;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.testing.ScriptedOpenAiServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Assumptions;

/**
 * A container engine for the tests, and their image built from nothing (no registry is reachable): the host's static
 * busybox, a marker file only the image has, and a small repository in {@code /repo}. The tests skip with a message
 * where no engine answers or busybox-static is missing, unless {@code ASSAY_REQUIRE_CONTAINERS=1} (set by CI), where
 * they fail instead.
 */
final class TestEngine {
    static final String IMAGE = "assay-test/busybox:1";
    static final String MARKER = "only-in-the-image";
    private static final List<String> APPLETS = List.of(
            "sh",
            "sleep",
            "kill",
            "cat",
            "id",
            "ls",
            "grep",
            "ps",
            "head",
            "tail",
            "echo",
            "seq",
            "test",
            "true",
            "false",
            "mkdir",
            "rm",
            "sed",
            "printf",
            "wc",
            "env",
            "cp",
            "mv",
            "tr",
            "ip",
            "ifconfig",
            "wget",
            "[");
    private static Engine engine;

    private TestEngine() {}

    /** {@return an engine that answers, with the test image in it} */
    static synchronized Engine require() throws IOException {
        if (engine != null) {
            return engine;
        }
        boolean required = "1".equals(System.getenv("ASSAY_REQUIRE_CONTAINERS"));
        Optional<Path> busybox = busybox();
        Engine found = null;
        String why = "busybox-static is not installed (apt-get install busybox-static)";
        if (busybox.isPresent()) {
            why = "no container engine answers here (docs/sandboxes.md: start podman system service or dockerd)";
            for (EngineProvider provider : List.of(new EngineProvider.Podman(), new EngineProvider.Docker())) {
                var candidate = new Engine(provider.name(), provider.sockets(System.getenv()), new PoolSize(2, 8));
                try {
                    candidate.client();
                    found = candidate;
                    break;
                } catch (RuntimeException e) {
                    why = e.getMessage();
                }
            }
        }
        if (required) {
            assertThat(found)
                    .as("a container engine must answer (ASSAY_REQUIRE_CONTAINERS=1): " + why)
                    .isNotNull();
        }
        Assumptions.assumeTrue(found != null, why);
        image(
                found,
                IMAGE,
                Map.of(
                        "etc/image-marker", (MARKER + "\n").getBytes(StandardCharsets.UTF_8),
                        "repo/README", "a repository inside the image\n".getBytes(StandardCharsets.UTF_8),
                        "repo/tests/run.sh",
                                "#!/bin/sh\ntest \"$(cat answer.txt)\" = 42\n".getBytes(StandardCharsets.UTF_8)));
        engine = found;
        return found;
    }

    private static Optional<Path> busybox() {
        return List.of(Path.of("/bin/busybox"), Path.of("/usr/bin/busybox")).stream()
                .filter(Files::isExecutable)
                .findFirst();
    }

    /**
     * Loads an image named {@code reference} unless the engine has it: busybox as its userland and {@code files} (path
     * in the image to content; a path under {@code repo/tests/} or {@code usr/bin/}, or ending in {@code .sh}, is
     * executable).
     */
    static void image(Engine engine, String reference, Map<String, byte[]> files) throws IOException {
        try {
            engine.client().inspectImageCmd(reference).exec();
            return;
        } catch (NotFoundException absent) {
            // Built below.
        }
        var layer = new ByteArrayOutputStream();
        try (var tar = new TarArchiveOutputStream(layer)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            var dirs = new java.util.TreeSet<>(List.of("bin", "etc", "tmp", "proc", "sys", "dev"));
            for (String path : files.keySet()) {
                for (int slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
                    dirs.add(path.substring(0, slash));
                }
            }
            for (String dir : dirs) {
                var entry = new TarArchiveEntry(dir + "/");
                entry.setMode(dir.equals("tmp") ? 01777 : 0755);
                tar.putArchiveEntry(entry);
                tar.closeArchiveEntry();
            }
            file(tar, "bin/busybox", Files.readAllBytes(busybox().orElseThrow()), 0755);
            for (String applet : APPLETS) {
                var link = new TarArchiveEntry("bin/" + applet, TarArchiveEntry.LF_SYMLINK);
                link.setLinkName("busybox");
                tar.putArchiveEntry(link);
                tar.closeArchiveEntry();
            }
            text(tar, "etc/passwd", "root:x:0:0::/:/bin/sh\nnobody:x:65534:65534::/:/bin/sh\n", 0644);
            text(tar, "etc/group", "root:x:0:\nnogroup:x:65534:\n", 0644);
            for (var file : new java.util.TreeMap<>(files).entrySet()) {
                boolean executable = file.getKey().endsWith(".sh")
                        || file.getKey().startsWith("repo/tests/")
                        || file.getKey().startsWith("usr/bin/");
                file(tar, file.getKey(), file.getValue(), executable ? 0755 : 0644);
            }
        }
        engine.client()
                .loadImageCmd(new ByteArrayInputStream(dockerArchive(reference, layer.toByteArray())))
                .exec();
    }

    /**
     * {@return a {@code docker save} archive of one image made of one layer}: what {@code POST /images/load} takes in
     * Docker and Podman alike (docker-java sends an import's stream as JSON, which neither engine reads)
     */
    static byte[] dockerArchive(String reference, byte[] layer) throws IOException {
        String layerDigest = sha256(layer);
        String config = "{\"architecture\":\"amd64\",\"os\":\"linux\",\"config\":{\"Env\":"
                + "[\"PATH=/usr/local/bin:/usr/bin:/bin\"]},\"rootfs\":{\"type\":\"layers\",\"diff_ids\":"
                + "[\"sha256:" + layerDigest + "\"]}}";
        String configName = sha256(config.getBytes(StandardCharsets.UTF_8)) + ".json";
        String manifest = "[{\"Config\":\"" + configName + "\",\"RepoTags\":[\"" + reference + "\"],\"Layers\":[\""
                + layerDigest + "/layer.tar\"]}]";
        var archive = new ByteArrayOutputStream();
        try (var tar = new TarArchiveOutputStream(archive)) {
            var dir = new TarArchiveEntry(layerDigest + "/");
            tar.putArchiveEntry(dir);
            tar.closeArchiveEntry();
            file(tar, layerDigest + "/layer.tar", layer, 0644);
            text(tar, configName, config, 0644);
            text(tar, "manifest.json", manifest, 0644);
        }
        return archive.toByteArray();
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void text(TarArchiveOutputStream tar, String name, String content, int mode) throws IOException {
        file(tar, name, content.getBytes(StandardCharsets.UTF_8), mode);
    }

    private static void file(TarArchiveOutputStream tar, String name, byte[] content, int mode) throws IOException {
        var entry = new TarArchiveEntry(name);
        entry.setSize(content.length);
        entry.setMode(mode);
        tar.putArchiveEntry(entry);
        tar.write(content);
        tar.closeArchiveEntry();
    }

    /** A finished run and its stored items. */
    record Ran(Run run, List<Item> items) {}

    /**
     * {@return {@code suite} run to its end with the scripted model of {@code server}, its trials in {@code engine}}
     */
    static Ran run(Engine engine, Path suite, ScriptedOpenAiServer server, int concurrency, Path temp)
            throws Exception {
        var spec = new RunSettings()
                .suites(List.of(suite))
                .model(new ModelOptions("openai:scripted", server.baseUrl(), null, false, null, RetryPolicy.none()))
                .sandbox(engine.name())
                .concurrency(concurrency)
                .resolve();
        return run(spec, temp, Sandboxes.ISOLATING);
    }

    /** {@return the run of {@code spec} to its end, finding the run's sandbox with {@code sandboxes}} */
    static Ran run(EvalSpec spec, Path temp, Sandboxes.Finder sandboxes) throws Exception {
        try (var prepared = spec.prepare(
                        null,
                        temp.resolve("work"),
                        CheckerRegistry.builtins(),
                        Map.<String, String>of()::get,
                        line -> {},
                        sandboxes);
                Store store = Stores.open("jdbc:sqlite:" + temp.resolve("assay.db"))) {
            Run run = new dev.assay.run.Engine(store).run(prepared.plan(), RunListener.NONE);
            return new Ran(run, List.copyOf(RunReport.load(store, run.runId()).items()));
        }
    }

    /** {@return the containers the engine holds with {@code label} set to {@code value}, running or not} */
    static int containersLabelled(Engine engine, String label, String value) {
        return engine.client()
                .listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(Map.of(label, value))
                .exec()
                .size();
    }
}
