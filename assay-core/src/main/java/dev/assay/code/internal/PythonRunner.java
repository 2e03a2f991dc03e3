package dev.assay.code.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.sandbox.Runtimes;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.SandboxLimits;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Runs Python 3 code through {@code harness.py}. */
public final class PythonRunner implements LanguageRunner {
    /** The harness, with the plain-data codec its HumanEval serve mode shares with {@code checker.py}. */
    static final String HARNESS = LanguageRunner.resource("plain_data.py") + LanguageRunner.resource("harness.py");

    private final String python;

    /** @param python the interpreter, as the sandbox finds it ({@link #interpreter}) */
    PythonRunner(String python) {
        this.python = python;
    }

    @Override
    public HarnessRun.Plan plan(String code, ObjectNode config, int caseCount, SandboxLimits limits) {
        // -I: ignore PYTHON* variables and the user's site directory, so the environment cannot change the harness.
        return new HarnessRun.Plan(
                Map.of("solution.py", code, "harness.py", HARNESS),
                List.of(python, "-I", "harness.py"),
                config,
                caseCount,
                limits,
                List.of());
    }

    /**
     * {@return the Python interpreter programs run with}: the real one, not a version manager's shim, which costs a
     * shell per run and lives in a home directory the sandbox does not show; in a container, the image's
     * {@code python3}
     */
    public static String interpreter(Sandbox sandbox) {
        return sandbox.hostSystem()
                ? Runtimes.find().python().map(Path::toString).orElse("python3")
                : "python3";
    }
}
