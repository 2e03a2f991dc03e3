package dev.assay.code;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.sandbox.SandboxLimits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs Python 3 code through {@code harness.py}. */
final class PythonRunner implements LanguageRunner {
    private static final String HARNESS = LanguageRunner.resource("harness.py");

    @Override
    public HarnessRun.Plan plan(String code, ObjectNode config, int caseCount, SandboxLimits limits) {
        // -I: ignore PYTHON* variables and the user's site directory, so the environment cannot change the harness.
        return new HarnessRun.Plan(Map.of("solution.py", code, "harness.py", HARNESS),
                List.of(Interpreter.PATH, "-I", "harness.py"), config, caseCount, limits);
    }

    /** The real interpreter behind {@code python3}, resolved once: version-manager shims cost a shell per run. */
    private static final class Interpreter {
        static final String PATH = resolve();

        private static String resolve() {
            try {
                Process process = new ProcessBuilder("python3", "-c", "import sys; print(sys.executable)")
                        .redirectErrorStream(true).start();
                String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
                if (process.waitFor(20, TimeUnit.SECONDS) && process.exitValue() == 0 && out.startsWith("/")) {
                    return out;
                }
            } catch (IOException e) {
                return "python3";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "python3";
        }
    }
}
