package dev.assay.code.internal;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.SandboxLimits;
import dev.assay.sandbox.SandboxRequest;
import dev.assay.sandbox.SandboxResult;
import dev.assay.tools.Workspace;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a whole program once per sample, in one sandbox: each run reads its sample on stdin and its stdout is kept for
 * comparison outside the sandbox, so the expected outputs never enter it. A Java program is compiled once, first. Each
 * run has its own time limit ({@code timeout}); exit code 124 is a timeout, any other non-zero code a runtime error
 * with the program's stderr.
 */
public final class StdioRun {
    private static final Pattern JAVA_MAIN_CLASS = Pattern.compile(
            "\\bclass\\s+(\\w+)[^{]*\\{(?:(?!\\bclass\\b).)*?\\bstatic\\s+void\\s+main\\s*\\(", Pattern.DOTALL);
    private static final int MESSAGE_CHARS = 2000;
    private static final int MAX_READ_BYTES = 8 << 20;

    private StdioRun() {}

    public static List<HarnessReport> execute(
            Sandbox sandbox,
            String language,
            String code,
            List<StdioExamples.Sample> samples,
            double caseTimeoutSeconds,
            long heapBytes,
            SandboxLimits limits)
            throws InterruptedException {
        Path dir = null;
        try {
            dir = sandbox.scratch("assay-stdio");
            String run = prepare(sandbox, dir, language, code, Math.max(64, heapBytes >> 20));
            for (int i = 0; i < samples.size(); i++) {
                Files.writeString(dir.resolve("in_" + i), samples.get(i).stdin());
            }
            String seconds = String.format(Locale.ROOT, "%.3f", caseTimeoutSeconds);
            String script = run.startsWith("javac ")
                    ? compileThen(run, samples.size(), seconds)
                    : loop(run, samples.size(), seconds);
            SandboxResult result = sandbox.run(
                    new SandboxRequest(List.of("/bin/sh", "-c", script), dir, Map.of(), "", limits, List.of()));
            return read(dir, samples.size(), result);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (dir != null) {
                Workspace.deleteTree(dir);
            }
        }
    }

    /** Writes the program and {@return the command that runs it (or compiles and runs it, for Java)} */
    private static String prepare(Sandbox sandbox, Path dir, String language, String code, long heapMiB)
            throws IOException {
        return switch (language) {
            case "python" -> {
                Files.writeString(dir.resolve("solution.py"), code);
                yield quote(PythonRunner.interpreter(sandbox)) + " -I solution.py";
            }
            case "javascript" -> {
                Files.writeString(dir.resolve("solution.js"), code);
                yield quote(JavaScriptRunner.node(sandbox)) + " --max-old-space-size=" + heapMiB + " solution.js";
            }
            case "java" -> {
                Matcher main = JAVA_MAIN_CLASS.matcher(code);
                String mainClass = main.find() ? main.group(1) : "Main";
                Files.writeString(dir.resolve(mainClass + ".java"), code);
                String bin = Path.of(System.getProperty("java.home"), "bin").toString();
                yield "javac " + quote(bin + "/javac") + " " + quote(bin + "/java") + " " + mainClass + " " + heapMiB;
            }
            default -> throw new IllegalArgumentException("no stdin runner for " + language);
        };
    }

    private static String loop(String command, int count, String seconds) {
        return "i=0; while [ $i -lt " + count + " ]; do timeout -k 1 " + seconds + " " + command
                + " < in_$i > out_$i 2> err_$i; echo $? > rc_$i; i=$((i+1)); done";
    }

    private static String compileThen(String javac, int count, String seconds) {
        String[] parts = javac.split(" ");
        String compile = parts[1] + " -J-Xmx256m -J-XX:TieredStopAtLevel=1 -nowarn -encoding UTF-8 -d classes *.java"
                + " 2> compile_err";
        String run = parts[2] + " -Xmx" + parts[4] + "m -Xss64m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp classes "
                + parts[3];
        return compile + " && { " + loop(run, count, seconds) + "; }";
    }

    private static List<HarnessReport> read(Path dir, int count, SandboxResult result) throws IOException {
        var reports = new ArrayList<HarnessReport>();
        String compileError = Files.exists(dir.resolve("compile_err"))
                        && !Files.exists(dir.resolve("rc_0"), LinkOption.NOFOLLOW_LINKS)
                ? text(dir.resolve("compile_err"))
                : null;
        for (int i = 0; i < count; i++) {
            Path rc = dir.resolve("rc_" + i);
            if (compileError != null) {
                reports.add(new HarnessReport("runtime_error", null, "compilation failed: " + brief(compileError)));
            } else if (!Files.isRegularFile(rc, LinkOption.NOFOLLOW_LINKS)) {
                reports.add(new HarnessReport(
                        result.timedOut() ? "timeout" : "runtime_error",
                        null,
                        "the sample did not run: " + brief(result.stderr())));
            } else {
                String written = text(rc).strip();
                int code = written.matches("\\d{1,3}") ? Integer.parseInt(written) : -1;
                if (code == 124 || code == 137) {
                    reports.add(new HarnessReport("timeout", null, "no output in time"));
                } else if (code != 0) {
                    reports.add(new HarnessReport(
                            "runtime_error", null, "exit code " + code + ": " + brief(text(dir.resolve("err_" + i)))));
                } else {
                    reports.add(new HarnessReport("ok", TextNode.valueOf(text(dir.resolve("out_" + i))), ""));
                }
            }
        }
        return reports;
    }

    /**
     * {@return the start of a file the program's run left, as text} The program could have replaced it by a link to a
     * file of the host, which is followed here outside the sandbox: only a regular file is read.
     */
    private static String text(Path file) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return "";
        }
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            return new String(in.readNBytes(MAX_READ_BYTES), StandardCharsets.UTF_8);
        }
    }

    private static String brief(String text) {
        String stripped = text.strip();
        return stripped.length() > MESSAGE_CHARS ? stripped.substring(0, MESSAGE_CHARS) + "..." : stripped;
    }

    private static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
