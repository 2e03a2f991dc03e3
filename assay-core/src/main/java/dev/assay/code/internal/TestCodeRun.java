package dev.assay.code.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.code.CodeQuestion;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.SandboxLimits;
import dev.assay.sandbox.SandboxProcess;
import dev.assay.sandbox.SandboxRequest;
import dev.assay.tools.Workspace;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A HumanEval-style question graded by its own test code ({@code check(candidate)}), with the test code and the
 * candidate's program in two sandboxes that share nothing: the checker calls {@code candidate(...)}, Assay carries each
 * call's arguments to the program and its answer back, as plain data. The program never sees the test code, the
 * expected values or the checker's process, so it can neither read them nor forge the verdict; and an object that
 * claims to equal anything cannot cross. Python only, as HumanEval is.
 */
public final class TestCodeRun {
    private static final String CHECKER = LanguageRunner.resource("verdict_channel.py")
            + LanguageRunner.resource("plain_data.py")
            + LanguageRunner.resource("checker.py");
    private static final int CHECKER_OUTPUT_BYTES = 1 << 20;

    private TestCodeRun() {}

    /** {@return the report of the question's check against {@code program}} */
    public static HarnessReport execute(
            Sandbox sandbox, CodeQuestion question, String program, double caseTimeoutSeconds, SandboxLimits limits)
            throws InterruptedException {
        Path checkerDir = null;
        Path programDir = null;
        String python = PythonRunner.interpreter(sandbox);
        try {
            checkerDir = sandbox.scratch("assay-check");
            programDir = sandbox.scratch("assay-code");
            SandboxedPython.Script checkerScript = SandboxedPython.script(sandbox, python, "checker", CHECKER);
            SandboxedPython.Script harnessScript =
                    SandboxedPython.script(sandbox, python, "harness", PythonRunner.HARNESS);
            Optional<List<String>> sitePath = SandboxedPython.sitePath(sandbox, python);
            checkerScript.writeTo(checkerDir);
            harnessScript.writeTo(programDir);
            Files.writeString(programDir.resolve("solution.py"), program);
            var checkerLimits = new SandboxLimits(
                    limits.wallTime(), limits.memoryBytes(), limits.maxProcesses(), CHECKER_OUTPUT_BYTES);
            // The checker starts without the site module when it can set the path site would (checker.py says why);
            // the program is started as any other, its interpreter set up in full.
            List<String> checkerCommand = sitePath.isPresent()
                    ? List.of(python, "-I", "-S", checkerScript.fileName())
                    : List.of(python, "-I", checkerScript.fileName());
            var checkerRequest = new SandboxRequest(checkerCommand, checkerDir, Map.of(), "", checkerLimits);
            // The two sandboxes are started at once: each start (its cgroup, the work directory handed over, the
            // spawn) costs a few milliseconds that would otherwise add up before the first call.
            var checkerStart = new FutureTask<>(() -> sandbox.start(checkerRequest));
            Thread.ofVirtual().start(checkerStart);
            SandboxProcess candidate = startAlongside(
                    checkerStart,
                    new SandboxRequest(
                            List.of(python, "-I", harnessScript.fileName()), programDir, Map.of(), "", limits),
                    sandbox);
            SandboxProcess checker;
            try {
                checker = started(checkerStart);
            } catch (RuntimeException e) {
                candidate.close();
                throw e;
            }
            try (var both = new Both(checker, candidate)) {
                String nonce = HarnessRun.nonce();
                ObjectNode checkerConfig = Json.object()
                        .put("prelude", question.description())
                        .put("entry_point", question.entryPoint())
                        .put("test_code", question.testCode())
                        .put("case_timeout", caseTimeoutSeconds);
                sitePath.ifPresent(path -> {
                    ArrayNode entries = checkerConfig.putArray("path");
                    path.forEach(entries::add);
                });
                ObjectNode programConfig = Json.object()
                        .put("serve", true)
                        .put("nonce", nonce)
                        .put("entry_point", question.entryPoint())
                        .put("case_timeout", caseTimeoutSeconds);
                return relay(both.checker(), both.program(), checkerConfig, programConfig, nonce, limits);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (checkerDir != null) {
                Workspace.deleteTree(checkerDir);
            }
            if (programDir != null) {
                Workspace.deleteTree(programDir);
            }
        }
    }

    /** Starts {@code request}; if that fails, the other sandbox starting meanwhile is closed once it has started. */
    private static SandboxProcess startAlongside(
            FutureTask<SandboxProcess> other, SandboxRequest request, Sandbox sandbox) {
        try {
            return sandbox.start(request);
        } catch (RuntimeException e) {
            try {
                started(other).close();
            } catch (RuntimeException ignored) {
                // The other one did not start either; the first failure is the one to report.
            }
            throw e;
        }
    }

    /**
     * {@return the process {@code start} started}, rethrowing what it threw. A start takes milliseconds, so it is
     * waited for through an interrupt (which stays set for the caller): a process started but not returned would never
     * be closed.
     */
    private static SandboxProcess started(FutureTask<SandboxProcess> start) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return start.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    throw new IllegalStateException(e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The checker and the program, closed side by side: each close waits until its sandbox's processes are gone, a few
     * milliseconds that need not add up.
     */
    private record Both(SandboxProcess checker, SandboxProcess program) implements AutoCloseable {
        @Override
        public void close() {
            Thread closing = Thread.ofVirtual().start(checker::close);
            program.close();
            // The work directories are deleted next, so the checker's sandbox must be gone too.
            boolean interrupted = false;
            while (true) {
                try {
                    closing.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** One line from either process; a null line is the end of its output. */
    private record Line(boolean fromChecker, String text) {}

    /**
     * Carries calls from the checker to the program and answers back until the checker gives its verdict. Both outputs
     * are read at once, so a checker whose own timer fires while the program still computes is heard.
     */
    private static HarnessReport relay(
            SandboxProcess checker,
            SandboxProcess candidate,
            ObjectNode checkerConfig,
            ObjectNode programConfig,
            String nonce,
            SandboxLimits limits)
            throws InterruptedException {
        long started = System.nanoTime();
        var lines = new LinkedBlockingQueue<Line>();
        Thread.ofVirtual().start(() -> pump(checker, true, lines));
        Thread.ofVirtual().start(() -> pump(candidate, false, lines));
        send(checker.stdin(), checkerConfig);
        boolean programOpen = send(candidate.stdin(), programConfig);
        String prefix = nonce + " ";
        while (true) {
            Line line = lines.take();
            if (line.fromChecker()) {
                if (line.text() == null) {
                    boolean outOfTime =
                            System.nanoTime() - started >= limits.wallTime().toNanos();
                    return new HarnessReport(
                            outOfTime ? "timeout" : "runtime_error",
                            null,
                            "the test code ended without a verdict" + stderrOf(checker));
                }
                JsonNode message = parse(line.text());
                if (message.has("verdict")) {
                    return new HarnessReport(
                            message.path("verdict").asText(),
                            null,
                            message.path("message").asText(""));
                }
                if (!programOpen || !send(candidate.stdin(), message.path("call"))) {
                    programOpen = false;
                    send(
                            checker.stdin(),
                            Json.object().put("error", "the program ended before answering" + stderrOf(candidate)));
                }
            } else if (line.text() == null) {
                programOpen = false;
                // The checker may be waiting for an answer that will never come.
                send(
                        checker.stdin(),
                        Json.object().put("error", "the program ended before answering" + stderrOf(candidate)));
            } else if (line.text().startsWith(prefix)) {
                // What the program printed on its own went to stderr; anything else on stdout is not an answer.
                JsonNode answer = parse(line.text().substring(prefix.length()));
                if (answer.has("load_error")) {
                    return new HarnessReport(
                            answer.path("load_error").asText(),
                            null,
                            "the code failed to load: " + answer.path("message").asText());
                }
                send(
                        checker.stdin(),
                        answer.has("ok")
                                ? answer
                                : Json.object()
                                        .put(
                                                "error",
                                                answer.path("error").asText("the program's answer is not valid")));
            }
        }
    }

    private static void pump(SandboxProcess process, boolean fromChecker, BlockingQueue<Line> lines) {
        try (var reader = new BufferedReader(new InputStreamReader(process.stdout(), StandardCharsets.UTF_8))) {
            String text;
            while ((text = reader.readLine()) != null) {
                lines.add(new Line(fromChecker, text));
            }
        } catch (IOException e) {
            // The process was killed; its end is reported below.
        }
        lines.add(new Line(fromChecker, null));
    }

    private static JsonNode parse(String line) {
        try {
            return Json.parse(line);
        } catch (RuntimeException e) {
            return Json.object().put("error", "the program's answer is not JSON");
        }
    }

    private static boolean send(OutputStream out, JsonNode message) {
        try {
            out.write((Json.write(message) + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String stderrOf(SandboxProcess process) {
        String stderr = process.stderr().strip();
        return stderr.isEmpty() ? "" : ": " + HarnessRun.tail(stderr, 1500);
    }
}
