package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.check.CheckContext;
import dev.assay.check.Checker;
import dev.assay.check.CheckerFactory;
import dev.assay.check.Verdict;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.SandboxLimits;
import dev.assay.sandbox.SandboxRequest;
import dev.assay.sandbox.SandboxResult;
import dev.assay.sandbox.Sandboxes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code command}: runs a command in the trial's workspace once the agent is done and judges it by its exit code, and
 * optionally by its output: {@code {"command": ["pytest", "-q", "tests/test_x.py"], "expect_exit": 0,
 * "output_contains": "passed", "timeout_s": 60}} (a command written as one string runs with {@code sh -c}). It runs in
 * the trial's container when the case names an image, else in the run's isolating sandbox (bubblewrap), never
 * unconfined. SWE-style grading maps onto it: a check per FAIL_TO_PASS or PASS_TO_PASS test. A wrong exit code fails
 * with {@code command.exit_code}, missing output with {@code command.output}, a timeout with {@code command.timeout};
 * no sandbox is an error, {@code sandbox.unavailable}.
 *
 * @param command the program and its arguments
 * @param expectExit the exit code that passes
 * @param outputContains text standard output or standard error must contain; null for no such test
 * @param timeout the wall-clock limit, after which the command is killed
 */
record CommandChecker(List<String> command, int expectExit, String outputContains, Duration timeout)
        implements Checker {
    static final CheckerFactory FACTORY = new BuiltinFactory("command", CommandChecker::create);

    /** The sandbox of trials that have none of their own, looked for once, on first use. */
    private static final Sandboxes.Finder RUN_SANDBOX = Sandboxes.once(Sandboxes.ISOLATING);

    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration MAX_TIMEOUT = Duration.ofMinutes(30);

    static CommandChecker create(JsonNode node) {
        var expected = Expected.of("command", node);
        if (!expected.isObject()) {
            throw expected.invalid("an object with a `command`");
        }
        expected.onlyKeys(Set.of("command", "expect_exit", "output_contains", "timeout_s"));
        JsonNode commandNode = expected.requiredField("command");
        List<String> command = commandNode.isTextual()
                ? List.of("sh", "-c", expected.text("command", commandNode))
                : expected.texts("command", commandNode);
        JsonNode exit = expected.field("expect_exit");
        if (exit != null && (!exit.isIntegralNumber() || !exit.canConvertToInt())) {
            throw expected.invalid("expect_exit", "a whole number", exit);
        }
        JsonNode output = expected.field("output_contains");
        JsonNode seconds = expected.field("timeout_s");
        if (seconds != null && (!seconds.isNumber() || !(seconds.doubleValue() > 0))) {
            throw expected.invalid("timeout_s", "a positive number of seconds", seconds);
        }
        Duration timeout = seconds == null
                ? DEFAULT_TIMEOUT
                : Duration.ofMillis(Math.min((long) (seconds.doubleValue() * 1000), MAX_TIMEOUT.toMillis()));
        return new CommandChecker(
                command,
                exit == null ? 0 : exit.intValue(),
                output == null ? null : expected.text("output_contains", output),
                timeout);
    }

    @Override
    public Verdict check(CheckContext context) throws InterruptedException {
        Optional<? extends Sandbox> sandbox =
                context.workspace().sandbox().isPresent() ? context.workspace().sandbox() : RUN_SANDBOX.find();
        if (sandbox.isEmpty()) {
            return Verdict.error(Problem.of(
                    "sandbox.unavailable",
                    "the command check needs an isolating sandbox: name an image for the case, or install bubblewrap"));
        }
        SandboxLimits defaults = SandboxLimits.defaults();
        var limits = new SandboxLimits(timeout, defaults.memoryBytes(), defaults.maxProcesses(), 64L << 10);
        SandboxResult result;
        try {
            result = sandbox.get()
                    .run(new SandboxRequest(command, context.workspace().root(), Map.of(), "", limits));
        } catch (AssayException e) {
            return Verdict.error(e.problem());
        }
        ObjectNode detail = Json.object();
        detail.set("command", Json.tree(command));
        detail.put("sandbox", sandbox.get().kind());
        detail.put("exit_code", result.exitCode());
        detail.put("expect_exit", expectExit);
        detail.put("stdout", result.stdout());
        detail.put("stderr", result.stderr());
        if (result.timedOut()) {
            return Verdict.failed(
                    "command.timeout", "the command did not finish within " + timeout.toSeconds() + " s", detail);
        }
        if (result.exitCode() != expectExit) {
            return Verdict.failed(
                    "command.exit_code",
                    "the command exited with " + result.exitCode() + ", expected " + expectExit,
                    detail);
        }
        if (outputContains != null
                && !result.stdout().contains(outputContains)
                && !result.stderr().contains(outputContains)) {
            return Verdict.failed(
                    "command.output", "the command's output does not contain '" + outputContains + "'", detail);
        }
        return Verdict.passed(detail);
    }
}
