package dev.assay.sandbox.container;

import dev.assay.sandbox.ContainerSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * An Assay stand-in for {@link ReaperTest}: opens a trial's container (and warms the pool) in a workspace root, says
 * {@code ready}, and waits to be killed with {@code kill -9}.
 */
final class OrphanMaker {
    private OrphanMaker() {}

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[1]);
        var engine = new Engine(args[0], List.of(Path.of(args[2])), new PoolSize(2, 8));
        var spec = new ContainerSpec(TestEngine.IMAGE, "/repo", "none", 64, 32, 1);
        engine.prepare(List.of(spec), root);
        Path workspace = Files.createDirectories(root.resolve("run/1-orphan"));
        var trial = (ContainerRun) engine.open(spec, workspace, root, "orphan-run");
        System.out.println("ready " + trial.id() + " " + engine.owner().label());
        System.out.flush();
        Thread.sleep(600_000);
    }
}
