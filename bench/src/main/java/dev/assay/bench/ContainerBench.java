package dev.assay.bench;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.zerodep.ZerodepDockerHttpClient;
import dev.assay.sandbox.ContainerEngine;
import dev.assay.sandbox.ContainerSpec;
import dev.assay.sandbox.ContainerTrial;
import dev.assay.sandbox.SandboxLimits;
import dev.assay.sandbox.SandboxRequest;
import dev.assay.sandbox.Sandboxes;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The cost of running a trial in a container, against the engine's own floor: one exec round trip ({@code true} by exec
 * create, start and inspect, straight through docker-java on a container made by hand). Measured, interleaved round by
 * round: Assay's command ({@code ContainerTrial.run} of {@code true}: the same round trip plus Assay's wrapping), a
 * trial's overhead with the warm pool (open and close, the pool refilled in the background between trials, as trials
 * follow one another in a run), and a cold trial (pool off: create, start, remove). Usage: {@code ContainerBench
 * [engine] [image] [rounds]}, default {@code podman localhost/assay-example/calc:1 30}; the image is built by
 * {@code examples/container-task/build-image.sh}.
 */
public final class ContainerBench {
    private ContainerBench() {}

    public static void main(String[] args) throws Exception {
        String engineName = args.length > 0 ? args[0] : "podman";
        String image = args.length > 1 ? args[1] : "localhost/assay-example/calc:1";
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 30;
        ContainerEngine engine = Sandboxes.containers(engineName);
        var spec = new ContainerSpec(image, "/repo", "none", 256, 64, 1);
        Path root = Files.createTempDirectory("assay-container-bench");
        engine.prepare(List.of(spec), root);
        DockerClient client = client(engineName);
        String floorId = client.createContainerCmd(image)
                .withEntrypoint("sleep")
                .withCmd("2147483647")
                .exec()
                .getId();
        client.startContainerCmd(floorId).exec();
        var floor = new ArrayList<Long>();
        var command = new ArrayList<Long>();
        var warmTrial = new ArrayList<Long>();
        try {
            ContainerTrial held = engine.open(spec, Files.createDirectories(root.resolve("held")), root, "bench");
            var request = new SandboxRequest(
                    List.of("true"),
                    root,
                    Map.of(),
                    "",
                    SandboxLimits.defaults().withWallTime(Duration.ofSeconds(10)));
            for (int i = 0; i < 5; i++) {
                exec(client, floorId);
                held.run(request);
            }
            for (int round = 0; round < rounds; round++) {
                long start = System.nanoTime();
                exec(client, floorId);
                floor.add(System.nanoTime() - start);

                start = System.nanoTime();
                held.run(request);
                command.add(System.nanoTime() - start);

                // Trials follow one another as in a run: the pool has had a command's time to refill.
                Thread.sleep(400);
                Path workspace = root.resolve("trial-" + round);
                start = System.nanoTime();
                ContainerTrial trial = engine.open(spec, workspace, root, "bench");
                trial.close(false);
                warmTrial.add(System.nanoTime() - start);
            }
            held.close(false);
        } finally {
            client.removeContainerCmd(floorId).withForce(true).exec();
        }
        System.out.printf("engine %s, image %s, %d rounds (median / p90, ms)%n", engineName, image, rounds);
        report("exec floor (docker-java: create, start, inspect)", floor);
        report("Assay command (ContainerTrial.run of true)", command);
        report("trial overhead, warm pool (open + close)", warmTrial);
        System.out.printf(
                "per-command overhead %.2f x floor; warm trial %.2f x one exec round trip%n",
                median(command) / median(floor), median(warmTrial) / median(floor));
        System.exit(0);
    }

    private static void exec(DockerClient client, String id) throws InterruptedException {
        String exec = client.execCreateCmd(id)
                .withCmd("true")
                .withAttachStdout(true)
                .withAttachStderr(true)
                .exec()
                .getId();
        client.execStartCmd(exec).exec(new ResultCallback.Adapter<Frame>()).awaitCompletion();
        client.inspectExecCmd(exec).exec();
    }

    private static DockerClient client(String engine) {
        String socket = engine.equals("podman") ? "unix:///run/podman/podman.sock" : "unix:///var/run/docker.sock";
        socket = System.getenv().getOrDefault(engine.equals("podman") ? "CONTAINER_HOST" : "DOCKER_HOST", socket);
        var config = DefaultDockerClientConfig.createDefaultConfigBuilder()
                .withDockerHost(socket)
                .build();
        var http = new ZerodepDockerHttpClient.Builder()
                .dockerHost(URI.create(socket))
                .build();
        return DockerClientImpl.getInstance(config, http);
    }

    private static double median(List<Long> nanos) {
        var sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2) / 1e6;
    }

    private static void report(String what, List<Long> nanos) {
        var sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        System.out.printf(
                "  %-52s %7.1f / %7.1f%n",
                what, sorted.get(sorted.size() / 2) / 1e6, sorted.get((int) (sorted.size() * 0.9)) / 1e6);
    }
}
