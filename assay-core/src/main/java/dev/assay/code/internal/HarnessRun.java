package dev.assay.code.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.SandboxLimits;
import dev.assay.sandbox.SandboxRequest;
import dev.assay.sandbox.SandboxResult;
import dev.assay.tools.Workspace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One harness execution in the sandbox and the reading of its results. The harness gets a fresh random nonce on stdin
 * (never in a file, the environment or argv, where the candidate could read it) and prefixes each result line with it;
 * only lines with the nonce count, and a run without the final sentinel counts every unreported case as failed, never
 * passed.
 */
public final class HarnessRun {
    private static final SecureRandom RANDOM = new SecureRandom();
    /** What the harness itself reports per test: an output, or why there is none. */
    private static final Set<String> REPORTED = Set.of("ok", "timeout", "runtime_error");

    private HarnessRun() {}

    /**
     * Files to write, the command to run, the harness configuration (cases included), and the host paths the command
     * reads besides the system and the language runtimes (shown read-only in the sandbox).
     */
    record Plan(
            Map<String, String> files,
            List<String> command,
            ObjectNode config,
            int caseCount,
            SandboxLimits limits,
            List<Path> readOnly) {}

    /** {@return one report per case} */
    public static List<HarnessReport> execute(Sandbox sandbox, Plan plan) throws InterruptedException {
        Path dir = null;
        try {
            dir = sandbox.scratch("assay-code");
            for (var file : plan.files().entrySet()) {
                Path target = dir.resolve(file.getKey());
                Files.createDirectories(target.getParent());
                Files.writeString(target, file.getValue());
            }
            String nonce = nonce();
            ObjectNode config = plan.config().deepCopy();
            config.put("nonce", nonce);
            SandboxResult result = sandbox.run(new SandboxRequest(
                    plan.command(), dir, Map.of(), Json.write(config) + "\n", plan.limits(), plan.readOnly()));
            return read(result, nonce, plan.caseCount());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (dir != null) {
                Workspace.deleteTree(dir);
            }
        }
    }

    /** {@return a fresh random token that marks the harness's own output lines} */
    static String nonce() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    static List<HarnessReport> read(SandboxResult result, String nonce, int caseCount) {
        HarnessReport[] reports = new HarnessReport[caseCount];
        boolean ended = false;
        String prefix = nonce + " ";
        for (String line : result.stdout().split("\n")) {
            if (!line.startsWith(prefix)) {
                continue;
            }
            JsonNode record;
            try {
                record = Json.parse(line.substring(prefix.length()));
            } catch (RuntimeException e) {
                continue;
            }
            if (record.has("end")) {
                ended = true;
                break;
            }
            if (record.has("load_error")) {
                Arrays.fill(
                        reports,
                        new HarnessReport(
                                record.get("load_error").asText(),
                                null,
                                "the code failed to load: "
                                        + record.path("message").asText()));
                continue;
            }
            int index = record.path("i").asInt(-1);
            if (index >= 0 && index < caseCount && reports[index] == null) {
                reports[index] = reported(record);
            }
        }
        var list = new ArrayList<HarnessReport>();
        for (HarnessReport report : reports) {
            list.add(report != null ? report : missing(result, ended));
        }
        return list;
    }

    /**
     * The harness reports outputs, never verdicts: the comparison happens here. A program that found the nonce could
     * write any line, so a status the harness never sends (such as {@code passed}) is not believed.
     */
    private static HarnessReport reported(JsonNode record) {
        String status = record.path("status").asText();
        if (!REPORTED.contains(status)) {
            return new HarnessReport(
                    "runtime_error",
                    null,
                    "the program's process reported '" + status + "', which the harness never sends");
        }
        return new HarnessReport(
                status, record.get("actual"), record.path("message").asText(""));
    }

    private static HarnessReport missing(SandboxResult result, boolean ended) {
        if (result.timedOut()) {
            return new HarnessReport("timeout", null, "the program was killed at the time limit before reporting");
        }
        String why = ended
                ? "the harness reported no result for this case"
                : "the program ended (exit code " + result.exitCode() + ") before the harness finished";
        String stderr = result.stderr().strip();
        return new HarnessReport("runtime_error", null, stderr.isEmpty() ? why : why + ": " + tail(stderr, 1500));
    }

    static String tail(String text, int max) {
        return text.length() <= max ? text : "..." + text.substring(text.length() - max);
    }
}
