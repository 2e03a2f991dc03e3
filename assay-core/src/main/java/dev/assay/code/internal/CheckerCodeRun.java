package dev.assay.code.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs a question's own checker ({@code checker_code}: Python defining {@code check(input, output, expected)}) over a
 * program's outputs, in a sandbox of its own (verify.py). Problems with many valid answers need one: the checker
 * decides whether an output is valid rather than equal. The program never sees the checker, and the checker sees the
 * program's outputs only as JSON data.
 */
public final class CheckerCodeRun {
    private static final String RUNNER =
            LanguageRunner.resource("verdict_channel.py") + LanguageRunner.resource("verify.py");

    private CheckerCodeRun() {}

    /** One case for the checker: the test's input, the program's output, the stated expected output. */
    public record Judged(JsonNode input, JsonNode output, JsonNode expected) {}

    /**
     * The checker's word on one output.
     *
     * @param accepted whether the output is valid
     * @param message the checker's reason, or why it could not judge
     * @param failed whether the checker itself failed (did not load, raised, took too long)
     */
    public record Verdict(boolean accepted, String message, boolean failed) {}

    public static List<Verdict> judge(
            Sandbox sandbox, String checkerCode, List<Judged> cases, double caseTimeoutSeconds, SandboxLimits limits)
            throws InterruptedException {
        Path dir = null;
        try {
            dir = sandbox.scratch("assay-verify");
            Files.writeString(dir.resolve("verify.py"), RUNNER);
            ObjectNode config = Json.object().put("checker_code", checkerCode).put("case_timeout", caseTimeoutSeconds);
            ArrayNode list = config.putArray("cases");
            for (Judged judged : cases) {
                list.addObject()
                        .<ObjectNode>set("input", judged.input())
                        .<ObjectNode>set("output", judged.output())
                        .set("expected", judged.expected());
            }
            String python = PythonRunner.interpreter(sandbox);
            SandboxResult result = sandbox.run(new SandboxRequest(
                    List.of(python, "-I", "verify.py"), dir, Map.of(), Json.write(config) + "\n", limits, List.of()));
            return read(result, cases.size());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (dir != null) {
                Workspace.deleteTree(dir);
            }
        }
    }

    private static List<Verdict> read(SandboxResult result, int count) {
        Verdict[] verdicts = new Verdict[count];
        String loadError = null;
        for (String line : result.stdout().split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode record;
            try {
                record = Json.parse(line);
            } catch (RuntimeException notJson) {
                continue;
            }
            if (record.has("load_error")) {
                loadError = record.get("load_error").asText();
            } else if (record.path("i").isInt()
                    && record.get("i").asInt() >= 0
                    && record.get("i").asInt() < count) {
                verdicts[record.get("i").asInt()] = record.has("error")
                        ? new Verdict(false, record.get("error").asText(), true)
                        : new Verdict(
                                record.path("accepted").asBoolean(false),
                                record.path("message").asText(""),
                                false);
            }
        }
        var out = new ArrayList<Verdict>();
        for (Verdict verdict : verdicts) {
            out.add(
                    verdict != null
                            ? verdict
                            : new Verdict(
                                    false,
                                    loadError != null
                                            ? loadError
                                            : result.timedOut()
                                                    ? "the question's checker took too long"
                                                    : "the question's checker gave no " + "verdict: "
                                                            + result.stderr().strip(),
                                    true));
        }
        return out;
    }
}
