package dev.assay.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Runs the CLI in-process with its own Assay home and captured output. */
final class CliRunner {
    private final Map<String, String> env = new HashMap<>();

    CliRunner(Path home) {
        env.put("ASSAY_HOME", home.toString());
    }

    CliRunner withEnv(String name, String value) {
        env.put(name, value);
        return this;
    }

    Result run(String... args) {
        var out = new StringWriter();
        var err = new StringWriter();
        int code = AssayCli.run(new PrintWriter(out), new PrintWriter(err), env, args);
        return new Result(code, out.toString(), err.toString());
    }

    record Result(int code, String out, String err) {}
}
