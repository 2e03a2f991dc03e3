package dev.assay.tools.internal;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.SandboxLimits;
import dev.assay.sandbox.SandboxRequest;
import dev.assay.sandbox.SandboxResult;
import dev.assay.tools.ToolNames;
import dev.assay.tools.ToolResult;
import dev.assay.tools.Workspace;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code execute_command(command, timeout_s?)}: runs {@code bash -c command} in the workspace through the
 * {@link Sandbox}. A command that exits non-zero is still a successful call (the exit code is part of the output the
 * model reasons about); running out of time is a failure ({@code command.timeout}), and so are filling the workspace
 * past its limit ({@code command.workspace_full}) and a sandbox that cannot run anything (its own problem, e.g.
 * {@code sandbox.unavailable}).
 */
public final class ExecuteCommandTool extends BuiltinTool {
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    static final Duration MAX_TIMEOUT = Duration.ofSeconds(120);

    private final Sandbox sandbox;

    public ExecuteCommandTool(Sandbox sandbox) {
        super(
                ToolNames.EXECUTE_COMMAND,
                description(sandbox),
                List.of(
                        Param.required("command", "string", "The shell command line, run with bash -c."),
                        Param.optional("timeout_s", "number", "Time limit in seconds; default 30, at most 120.")));
        this.sandbox = sandbox;
    }

    private static String description(Sandbox sandbox) {
        return sandbox.isolating()
                ? "Run a shell command in the workspace directory (no network access; only the workspace is "
                        + "writable) and return its exit code, stdout and stderr."
                : "Run a shell command in the workspace directory and return its exit code, stdout and stderr.";
    }

    @Override
    ToolResult run(Arguments arguments, Workspace workspace) throws InterruptedException {
        String command = arguments.string("command");
        if (command.isBlank()) {
            throw Arguments.invalid("command", "argument 'command' must not be empty");
        }
        Duration timeout = timeout(arguments);
        SandboxLimits limits;
        SandboxResult result;
        // A trial in a container runs its commands there; the run's sandbox serves every other trial.
        Sandbox runIn = workspace.sandbox().orElse(sandbox);
        try {
            SandboxLimits defaults = SandboxLimits.defaults();
            limits = new SandboxLimits(timeout, defaults.memoryBytes(), defaults.maxProcesses(), OUTPUT_CAP_BYTES);
            result = runIn.run(
                    new SandboxRequest(List.of("bash", "-c", command), workspace.root(), Map.of(), "", limits));
        } catch (AssayException e) {
            return ToolResult.failed(e.problem());
        } catch (RuntimeException e) {
            return ToolResult.failed(
                    Problem.of("sandbox.failed", String.valueOf(e.getMessage())).withDetail("sandbox", runIn.kind()));
        }
        String report = report(result);
        if (result.workspaceOverLimit()) {
            long mib = limits.workspaceBytes() >> 20;
            return ToolResult.failed(Problem.of(
                            "command.workspace_full",
                            "the workspace came to hold more than its limit of " + mib
                                    + " MiB and the command was stopped; delete files to go on\n" + report)
                    .withDetail("limit_mib", mib));
        }
        if (result.timedOut()) {
            return ToolResult.failed(Problem.of(
                            "command.timeout",
                            "the command did not finish within " + timeout.toSeconds() + " s and was killed\n" + report)
                    .withDetail("timeout_s", timeout.toSeconds()));
        }
        return ToolResult.ok(report);
    }

    private static Duration timeout(Arguments arguments) {
        var seconds = arguments.optionalNumber("timeout_s");
        if (seconds.isEmpty()) {
            return DEFAULT_TIMEOUT;
        }
        double value = seconds.getAsDouble();
        if (!(value > 0)) {
            throw Arguments.invalid("timeout_s", "argument 'timeout_s' must be a positive number of seconds");
        }
        // Asking for more than the maximum is not an error: the model gets the maximum.
        long millis = (long) Math.min(value * 1000, (double) MAX_TIMEOUT.toMillis());
        return Duration.ofMillis(Math.max(millis, 1));
    }

    private static String report(SandboxResult result) {
        String text = "exit_code: " + result.exitCode() + "\n"
                + "stdout:\n" + orEmpty(result.stdout())
                + "stderr:\n" + orEmpty(result.stderr());
        return TextFiles.cap(
                result.outputTruncated()
                        ? text + "[truncated: output exceeded " + OUTPUT_CAP_BYTES + " bytes per stream]\n"
                        : text,
                OUTPUT_CAP_BYTES);
    }

    private static String orEmpty(String stream) {
        if (stream == null || stream.isEmpty()) {
            return "(empty)\n";
        }
        return stream.endsWith("\n") ? stream : stream + "\n";
    }
}
