package dev.assay.sandbox.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.sandbox.ContainerSpec;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A killed Assay leaves containers behind; the next start removes them. */
class ReaperTest {
    @TempDir
    Path root;

    @Test
    void theContainersOfAnAssayKilledWithSigkillAreGoneAfterTheNextStart() throws Exception {
        Engine engine = TestEngine.require();
        Process orphaner = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        OrphanMaker.class.getName(),
                        engine.name(),
                        root.toString(),
                        engine.socket().toString())
                .redirectErrorStream(true)
                .start();
        String owner;
        try (var lines = new BufferedReader(new InputStreamReader(orphaner.getInputStream(), StandardCharsets.UTF_8))) {
            String ready = lines.lines()
                    .filter(line -> line.startsWith("ready "))
                    .findFirst()
                    .orElseThrow();
            owner = ready.split(" ")[2];
            // Let the pool finish warming, so that its containers are left behind too.
            Thread.sleep(3000);
            orphaner.destroyForcibly();
            assertThat(orphaner.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(TestEngine.containersLabelled(engine, Owner.LABEL, owner)).isPositive();

        engine.prepare(List.of(new ContainerSpec(TestEngine.IMAGE, "/repo", "none", 64, 32, 1)), root);

        assertThat(TestEngine.containersLabelled(engine, Owner.LABEL, owner)).isZero();
        assertThat(root.resolve(".containers")).isDirectory();
        try (var left = java.nio.file.Files.list(root.resolve(".containers"))) {
            assertThat(left.map(path -> path.getFileName().toString()))
                    .noneMatch(name -> name.startsWith(owner.split("@")[0] + "-"));
        }
    }
}
