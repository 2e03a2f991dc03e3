package dev.assay.tools.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.SandboxRequest;
import dev.assay.sandbox.SandboxResult;
import dev.assay.tools.ProcessSandbox;
import dev.assay.tools.ToolResult;
import dev.assay.tools.ToolTesting;
import dev.assay.tools.Workspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecuteCommandToolTest {
    @TempDir
    Path root;

    Workspace workspace;

    @BeforeEach
    void setUp() {
        workspace = new Workspace(root.resolve("ws"));
    }

    private ToolResult run(String command) throws InterruptedException {
        return ToolTesting.tool("execute_command").call(Json.object().put("command", command), workspace);
    }

    @Test
    void shows_exit_code_stdout_and_stderr() throws Exception {
        ToolResult result = run("echo out; echo err >&2");

        assertThat(result.ok()).isTrue();
        assertThat(result.output()).isEqualTo("exit_code: 0\nstdout:\nout\nstderr:\nerr\n");
    }

    @Test
    void runs_in_the_workspace_directory() throws Exception {
        Files.writeString(workspace.root().resolve("here.txt"), "found");

        ToolResult result = run("cat here.txt");

        assertThat(result.output()).contains("stdout:\nfound\n");
    }

    @Test
    void non_zero_exit_is_a_successful_call_reporting_the_code() throws Exception {
        ToolResult result = run("exit 3");

        assertThat(result.ok()).isTrue();
        assertThat(result.output()).startsWith("exit_code: 3\n");
    }

    @Test
    void command_that_runs_too_long_fails_with_timeout() throws Exception {
        ToolResult result = ToolTesting.tool("execute_command")
                .call(Json.object().put("command", "sleep 10").put("timeout_s", 0.5), workspace);

        assertThat(result.error().type()).isEqualTo("command.timeout");
    }

    @Test
    void sandbox_receives_bash_command_workspace_and_capped_limits() throws Exception {
        var recording = new RecordingSandbox();

        ToolTesting.tool("execute_command", recording)
                .call(Json.object().put("command", "ls").put("timeout_s", "600"), workspace);

        SandboxRequest request = recording.requests.getFirst();
        assertThat(request.command()).containsExactly("bash", "-c", "ls");
        assertThat(request.workDir()).isEqualTo(workspace.root());
        assertThat(request.limits().wallTime()).isEqualTo(Duration.ofSeconds(120));
        assertThat(request.limits().maxOutputBytes()).isEqualTo(64 * 1024);
    }

    @Test
    void timeout_defaults_to_30_seconds() throws Exception {
        var recording = new RecordingSandbox();

        ToolTesting.tool("execute_command", recording).call(Json.object().put("command", "ls"), workspace);

        assertThat(recording.requests.getFirst().limits().wallTime()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void non_positive_timeout_fails_naming_it() throws Exception {
        ToolResult result = ToolTesting.tool("execute_command")
                .call(Json.object().put("command", "ls").put("timeout_s", 0), workspace);

        assertThat(result.error().details()).containsEntry("argument", "timeout_s");
    }

    @Test
    void non_numeric_timeout_fails_naming_it() throws Exception {
        ToolResult result = ToolTesting.tool("execute_command")
                .call(Json.object().put("command", "ls").put("timeout_s", "soon"), workspace);

        assertThat(result.error().type()).isEqualTo("tool.invalid_args");
        assertThat(result.error().details()).containsEntry("argument", "timeout_s");
    }

    @Test
    void blank_command_fails_naming_it() throws Exception {
        ToolResult result = run("  ");

        assertThat(result.error().details()).containsEntry("argument", "command");
    }

    @Test
    void output_truncated_by_the_sandbox_is_marked() throws Exception {
        ToolResult result = run("head -c 100000 /dev/zero | tr '\\0' x");

        assertThat(result.ok()).isTrue();
        assertThat(result.output()).contains("[truncated");
        assertThat(result.output().length()).isLessThan(70 * 1024);
    }

    @Test
    void sandbox_that_cannot_start_surfaces_its_problem_as_a_failed_result() throws Exception {
        Sandbox broken = new Sandbox() {
            @Override
            public String kind() {
                return "bubblewrap";
            }

            @Override
            public SandboxResult run(SandboxRequest request) {
                throw AssayException.of("sandbox.unavailable", "bwrap is not installed");
            }
        };

        ToolResult result =
                ToolTesting.tool("execute_command", broken).call(Json.object().put("command", "ls"), workspace);

        assertThat(result.ok()).isFalse();
        assertThat(result.error().type()).isEqualTo("sandbox.unavailable");
    }

    @Test
    void unexpected_sandbox_crash_is_a_failed_result() throws Exception {
        Sandbox crashing = new Sandbox() {
            @Override
            public String kind() {
                return "bubblewrap";
            }

            @Override
            public SandboxResult run(SandboxRequest request) {
                throw new IllegalStateException("boom");
            }
        };

        ToolResult result =
                ToolTesting.tool("execute_command", crashing).call(Json.object().put("command", "ls"), workspace);

        assertThat(result.error().type()).isEqualTo("sandbox.failed");
    }

    @Test
    void a_command_stopped_for_filling_the_workspace_fails_with_workspace_full_and_its_output() throws Exception {
        var filling = new RecordingSandbox() {
            @Override
            public SandboxResult run(SandboxRequest request) {
                return new SandboxResult(-1, "wrote\n", "", false, false, Duration.ZERO, true);
            }
        };

        ToolResult result =
                ToolTesting.tool("execute_command", filling).call(Json.object().put("command", "yes > f"), workspace);

        assertThat(result.ok()).isFalse();
        assertThat(result.error().type()).isEqualTo("command.workspace_full");
        assertThat(result.error().details()).containsKey("limit_mib");
        assertThat(result.error().message()).contains("wrote");
    }

    @Test
    void description_mentions_isolation_only_for_an_isolating_sandbox() {
        var isolating = new RecordingSandbox() {
            @Override
            public String kind() {
                return "bubblewrap";
            }
        };

        assertThat(ToolTesting.tool("execute_command", isolating).description()).contains("no network");
        assertThat(ToolTesting.tool("execute_command", new ProcessSandbox()).description())
                .doesNotContain("no network");
    }

    /** Records requests and answers each with an empty successful run. */
    private static class RecordingSandbox implements Sandbox {
        final List<SandboxRequest> requests = new ArrayList<>();

        @Override
        public String kind() {
            return "none";
        }

        @Override
        public SandboxResult run(SandboxRequest request) {
            requests.add(request);
            return new SandboxResult(0, "", "", false, false, Duration.ZERO, false);
        }
    }
}
