package dev.assay.sandbox.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.sandbox.ContainerSpec;
import dev.assay.sandbox.ContainerTrial;
import dev.assay.sandbox.SandboxLimits;
import dev.assay.sandbox.SandboxRequest;
import dev.assay.sandbox.SandboxResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A trial's container against a real engine: what its commands see, and the limits they meet. */
class ContainerTrialTest {
    @TempDir
    Path root;

    private Engine engine;
    private Path workspace;

    @BeforeEach
    void engine() throws Exception {
        engine = TestEngine.require();
        workspace = root.resolve("run/1-case");
        Files.createDirectories(workspace);
    }

    private ContainerTrial open(ContainerSpec spec) throws InterruptedException {
        engine.prepare(List.of(spec), root);
        return engine.open(spec, workspace, root, "test-run");
    }

    private static ContainerSpec repo() {
        return new ContainerSpec(TestEngine.IMAGE, "/repo", "none", 256, 64, 1);
    }

    private SandboxResult run(ContainerTrial trial, String command, Duration wallTime) throws InterruptedException {
        var limits = SandboxLimits.defaults().withWallTime(wallTime);
        return trial.run(new SandboxRequest(List.of("bash", "-c", command), workspace, Map.of(), "", limits));
    }

    @Test
    void aCommandSeesTheImagesUserlandAndTheWorkspaceAtTheWorkdir() throws Exception {
        Files.writeString(workspace.resolve("answer.txt"), "42\n");
        ContainerTrial trial = open(repo());
        try {
            SandboxResult result =
                    run(trial, "cat /etc/image-marker; pwd; cat answer.txt README", Duration.ofSeconds(20));

            assertThat(result.exitCode()).isZero();
            assertThat(result.stdout()).contains(TestEngine.MARKER, "/repo", "42", "a repository inside the image");
            // The image's repository is in the workspace on the host, for the file tools and checkers to read.
            assertThat(workspace.resolve("README")).hasContent("a repository inside the image");
            assertThat(run(trial, "sh tests/run.sh", Duration.ofSeconds(20)).exitCode())
                    .isZero();

            run(trial, "echo written-inside > made.txt", Duration.ofSeconds(20));
            assertThat(workspace.resolve("made.txt")).hasContent("written-inside");
        } finally {
            trial.close(false);
        }
    }

    @Test
    void insideThereIsNoNetworkNoHostFileNoRootAndNoCapability() throws Exception {
        Path hostSecret = root.resolve("assay.db");
        Files.writeString(hostSecret, "host");
        ContainerTrial trial = open(repo());
        try {
            String home = System.getProperty("user.home");
            SandboxResult result = run(
                    trial,
                    "id -u; grep CapEff /proc/self/status; ls /sys/class/net; "
                            + "ls " + home + " " + hostSecret + " " + root + " 2>&1; touch /etc/x 2>&1; "
                            + "wget -q -T 2 -O - http://1.1.1.1/ 2>&1; echo end",
                    Duration.ofSeconds(20));

            assertThat(result.stdout()).doesNotStartWith("0\n");
            assertThat(result.stdout().lines().findFirst().orElseThrow()).isNotEqualTo("0");
            assertThat(result.stdout()).contains("CapEff:\t0000000000000000");
            assertThat(result.stdout()).doesNotContain("eth0").contains("lo");
            assertThat(result.stdout()).contains(hostSecret + ": No such file or directory");
            assertThat(result.stdout()).contains("Read-only file system");
            assertThat(result.stdout()).contains("end");
            assertThat(result.stdout()).doesNotContain("<html");
        } finally {
            trial.close(false);
        }
    }

    @Test
    void theMemoryLimitEndsAGreedyCommandWithAnErrorNotAHang() throws Exception {
        ContainerTrial trial = open(new ContainerSpec(TestEngine.IMAGE, "/repo", "none", 32, 64, 1));
        try {
            // tail keeps its last lines in memory, and /dev/zero is one endless line.
            SandboxResult result = run(trial, "tail /dev/zero; echo ended $?", Duration.ofSeconds(60));

            assertThat(result.timedOut()).isFalse();
            assertThat(result.stdout()).contains("ended 137");
        } finally {
            trial.close(false);
        }
    }

    @Test
    void thePidsLimitMakesForksFailRatherThanHang() throws Exception {
        ContainerTrial trial = open(new ContainerSpec(TestEngine.IMAGE, "/repo", "none", 256, 12, 1));
        try {
            SandboxResult result = run(trial, "for i in $(seq 1 40); do sleep 2 & done; wait", Duration.ofSeconds(60));

            assertThat(result.timedOut()).isFalse();
            assertThat(result.stderr()).containsIgnoringCase("fork");
        } finally {
            trial.close(false);
        }
    }

    @Test
    void aCommandPastItsWallClockLimitIsKilledInsideTheContainer() throws Exception {
        ContainerTrial trial = open(repo());
        try {
            SandboxResult result = run(trial, "sleep 300 & sleep 301", Duration.ofSeconds(1));

            assertThat(result.timedOut()).isTrue();
            assertThat(result.exitCode()).isEqualTo(-1);
            String processes = run(trial, "ps", Duration.ofSeconds(20)).stdout();
            assertThat(processes).doesNotContain("sleep 300").doesNotContain("sleep 301");
        } finally {
            trial.close(false);
        }
    }

    @Test
    void aContainerThatDiesMidTrialSaysSo() throws Exception {
        var trial = (ContainerRun) open(repo());
        try {
            assertThat(trial.died()).isEmpty();
            engine.client().killContainerCmd(trial.id()).exec();

            assertThat(trial.died())
                    .hasValueSatisfying(problem -> assertThat(problem.type()).isEqualTo("sandbox.container_died"));
            assertThatThrownBy(() -> run(trial, "true", Duration.ofSeconds(5)))
                    .isInstanceOfSatisfying(
                            AssayException.class,
                            e -> assertThat(e.problem().type()).isEqualTo("sandbox.container_died"));
        } finally {
            trial.close(false);
        }
    }

    @Test
    void aMissingImageIsOneClearLineBeforeAnyTrial() {
        assertThatThrownBy(() -> engine.prepare(List.of(ContainerSpec.of("assay-test/absent:404")), root))
                .isInstanceOfSatisfying(AssayException.class, e -> {
                    assertThat(e.problem().type()).isEqualTo("sandbox.unavailable");
                    assertThat(e.problem().message())
                            .contains("assay-test/absent:404")
                            .doesNotContain("\n");
                });
    }

    @Test
    void anEngineThatDoesNotAnswerNamesItsSocket() {
        var away = new Engine("podman", List.of(root.resolve("podman.sock")), new PoolSize(0, 0));

        assertThatThrownBy(() -> away.prepare(List.of(repo()), root))
                .isInstanceOfSatisfying(AssayException.class, e -> {
                    assertThat(e.problem().type()).isEqualTo("sandbox.unavailable");
                    assertThat(e.problem().message())
                            .contains(root.resolve("podman.sock").toString());
                });
    }

    @Test
    void keptContainersAreStoppedAndSurviveTheReaper() throws Exception {
        var trial = (ContainerRun) open(repo());
        trial.close(true);
        try {
            var state = engine.client().inspectContainerCmd(trial.id()).exec();
            assertThat(state.getName()).contains(Engine.KEPT_PREFIX);
            assertThat(state.getState().getRunning()).isFalse();
        } finally {
            engine.remove(trial.id());
        }
    }
}
