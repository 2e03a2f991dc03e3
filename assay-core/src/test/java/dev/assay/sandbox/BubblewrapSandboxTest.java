package dev.assay.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BubblewrapSandboxTest {
    private static BubblewrapSandbox sandbox;

    @TempDir
    Path work;

    @BeforeAll
    static void findSandbox() throws InterruptedException {
        sandbox = SandboxAvailability.require();
    }

    private SandboxResult sh(String script, SandboxLimits limits) throws InterruptedException {
        return sandbox.run(new SandboxRequest(List.of("/bin/sh", "-c", script), work, Map.of(), "", limits));
    }

    private SandboxResult sh(String script) throws InterruptedException {
        return sh(script, SandboxLimits.defaults());
    }

    @Test
    void reports_exit_code_and_output() throws InterruptedException {
        var result = sh("echo out; echo err >&2; exit 3");

        assertThat(result.exitCode()).isEqualTo(3);
        assertThat(result.stdout()).isEqualTo("out\n");
        assertThat(result.stderr()).isEqualTo("err\n");
        assertThat(result.timedOut()).isFalse();
    }

    @Test
    void work_dir_is_writable_and_current_under_a_neutral_name() throws InterruptedException {
        var result = sh("echo hi > made.txt && pwd && echo $HOME");

        assertThat(result.exitCode()).isZero();
        assertThat(work.resolve("made.txt")).exists();
        // The host path of the workspace (under a home directory, ASSAY_HOME or /tmp) is never shown.
        assertThat(result.stdout()).isEqualTo("/workspace\n/workspace\n");
    }

    @Test
    void root_file_system_is_read_only() throws InterruptedException {
        var result = sh("touch /etc/assay-sandbox-probe");

        assertThat(result.exitCode()).isNotZero();
        assertThat(Path.of("/etc/assay-sandbox-probe")).doesNotExist();
    }

    @Test
    void network_is_unreachable() throws InterruptedException {
        var result = sh("python3 -c 'import socket; socket.create_connection((\"1.1.1.1\", 80), timeout=3)'");

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.stderr()).containsAnyOf("unreachable", "Network", "Errno");
    }

    @Test
    void stdin_is_fed() throws InterruptedException {
        var result = sandbox.run(new SandboxRequest(List.of("cat"), work, Map.of(), "fed text", null));

        assertThat(result.stdout()).isEqualTo("fed text");
    }

    @Test
    void environment_is_minimal_plus_request_env() throws InterruptedException {
        var result = sandbox.run(new SandboxRequest(
                List.of("/bin/sh", "-c", "echo $ASSAY_X; echo ${JAVA_HOME:-unset}"),
                work,
                Map.of("ASSAY_X", "1"),
                "",
                null));

        assertThat(result.stdout()).isEqualTo("1\nunset\n");
    }

    @Test
    void wall_clock_limit_kills_the_whole_tree() throws InterruptedException {
        var result = sh("(sleep 60 &) ; sleep 60", SandboxLimits.defaults().withWallTime(Duration.ofMillis(800)));

        assertThat(result.timedOut()).isTrue();
        assertThat(result.exitCode()).isEqualTo(-1);
        assertThat(result.elapsed()).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void closing_a_started_command_ends_all_it_started() throws Exception {
        // An unusual duration marks the detached process among the host's.
        String seconds = Integer.toString(5000 + (int) (System.nanoTime() % 1000));
        try (SandboxProcess process = sandbox.start(new SandboxRequest(
                List.of("/bin/sh", "-c", "(setsid sleep " + seconds + " &); echo started; sleep 60"),
                work,
                Map.of(),
                "",
                null))) {
            assertThat(new String(process.stdout().readNBytes(8), StandardCharsets.UTF_8))
                    .isEqualTo("started\n");
            // The shell echoes before its detached child has become `sleep`: that child may still be starting.
            assertThat(within(Duration.ofSeconds(5), () -> sleeping(seconds))).isTrue();
        }

        assertThat(within(Duration.ofSeconds(5), () -> !sleeping(seconds))).isTrue();
    }

    /** {@return whether the condition held within the time, asked every 10 ms} */
    private static boolean within(Duration time, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + time.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    private static boolean sleeping(String seconds) {
        return ProcessHandle.allProcesses()
                .anyMatch(handle -> handle.isAlive()
                        && handle.info()
                                .arguments()
                                .map(args -> List.of(args).equals(List.of(seconds)))
                                .orElse(false));
    }

    @Test
    void output_is_capped() throws InterruptedException {
        var result = sh("yes | head -c 100000", new SandboxLimits(Duration.ofSeconds(10), 1L << 30, 64, 1000));

        assertThat(result.stdout()).hasSize(1000);
        assertThat(result.outputTruncated()).isTrue();
    }

    @Test
    void memory_limit_stops_huge_allocations() throws InterruptedException {
        var result = sh("python3 -c 'x = bytearray(10 * 1024 ** 3)'");

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.stderr()).contains("MemoryError");
    }

    @Test
    void fork_bomb_is_contained() throws InterruptedException {
        var result = sh(
                "python3 -c '\nimport os\nwhile True:\n    os.fork()\n'",
                new SandboxLimits(Duration.ofSeconds(3), 1L << 30, 32, 1L << 20));

        assertThat(result.elapsed()).isLessThan(Duration.ofSeconds(15));
        var after = sh("echo alive");
        assertThat(after.stdout()).isEqualTo("alive\n");
    }

    private static SandboxLimits disk(long tmpBytes, long workspaceBytes) {
        return new SandboxLimits(Duration.ofSeconds(120), 1L << 30, 64, 1L << 20, tmpBytes, workspaceBytes);
    }

    @Test
    void writing_past_the_size_of_tmp_fails_inside_the_sandbox() throws InterruptedException {
        var result = sh(
                "head -c 8388608 /dev/zero > /tmp/big; echo \"exit=$?\"; stat -c %s /tmp/big",
                disk(4L << 20, 64L << 20));

        assertThat(result.stdout()).contains("exit=1");
        assertThat(result.stderr()).contains("No space left on device");
        long written = Long.parseLong(result.stdout().lines().toList().get(1).strip());
        assertThat(written).isLessThanOrEqualTo(4L << 20);
        assertThat(result.workspaceOverLimit()).isFalse();
    }

    @Test
    void a_command_that_fills_the_workspace_past_its_limit_is_stopped_and_says_so() throws InterruptedException {
        var result = sh(
                "for i in 1 2 3 4 5 6 7 8; do head -c 1048576 /dev/zero > f$i; done; sleep 60; echo slept",
                disk(64L << 20, 4L << 20));

        assertThat(result.workspaceOverLimit()).isTrue();
        assertThat(result.timedOut()).isFalse();
        assertThat(result.exitCode()).isEqualTo(-1);
        assertThat(result.stdout()).doesNotContain("slept");
    }

    @Test
    void a_command_that_filled_the_workspace_and_ended_is_over_its_limit_too() throws InterruptedException {
        var result = sh("head -c 6291456 /dev/zero > big; touch small", disk(64L << 20, 4L << 20));

        assertThat(result.workspaceOverLimit()).isTrue();
        assertThat(work.resolve("big")).exists();
    }

    @Test
    void a_flood_of_empty_files_counts_against_the_workspace() throws InterruptedException {
        var result = sh("mkdir d && cd d && seq 1 2000 | xargs touch", disk(64L << 20, 4L << 20));

        assertThat(result.workspaceOverLimit()).isTrue();
    }

    @Test
    void a_directory_closed_to_its_owner_counts_as_a_full_workspace() throws Exception {
        // Run as root, Assay reads it all the same (and the command runs as nobody): the hole is a user's alone.
        assumeFalse(BubblewrapSandbox.runningAsRoot(), "root reads a closed directory");

        var result = sh("mkdir d && head -c 1024 /dev/zero > d/f && chmod 000 d", disk(64L << 20, 64L << 20));

        assertThat(result.workspaceOverLimit()).isTrue();
        Files.setPosixFilePermissions(work.resolve("d"), PosixFilePermissions.fromString("rwx------"));
    }

    @Test
    void detect_prefers_bubblewrap() throws InterruptedException {
        assertThat(Sandboxes.detect(false).kind()).isEqualTo("bubblewrap");
    }

    @Test
    void unsandboxed_runner_says_it_does_not_isolate() throws Exception {
        var none = new UnsandboxedSandbox();
        var result = none.run(new SandboxRequest(List.of("/bin/sh", "-c", "echo ok"), work, Map.of(), "", null));

        assertThat(none.isolating()).isFalse();
        assertThat(result.stdout()).isEqualTo("ok\n");
        assertThat(Files.exists(work)).isTrue();
    }
}
