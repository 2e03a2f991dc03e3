package dev.assay.check.promptfoo.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.check.Verdict;
import dev.assay.check.promptfoo.internal.Judged.Grading;
import dev.assay.check.promptfoo.internal.Judged.Unjudged;
import dev.assay.sandbox.Runtimes;
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
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code javascript} and {@code python} assertions: the config's code, run in Assay's sandbox (no network, only its
 * own work directory, limits) with the output and {@code context} ({@code vars}, {@code prompt}, {@code test},
 * {@code config}) as promptfoo gives them, its return value read as promptfoo reads it (src/assertions/javascript.ts,
 * python.ts, scriptResultNormalization.ts). Thread-safe.
 */
public final class ScriptAssertions {
    private static final String JS_HARNESS = resource("assertion.js");
    private static final String PYTHON_HARNESS = resource("assertion.py");
    /** V8 reserves far more address space than it uses; an address-space limit below this stops it starting. */
    private static final long NODE_ADDRESS_SPACE = 8L << 30;

    private static final Pattern FIRST_INDENT = Pattern.compile("^(?!\\s*$)\\s+", Pattern.MULTILINE);

    private final Supplier<Sandbox> sandbox;
    private final SandboxLimits limits;

    ScriptAssertions(Supplier<Sandbox> sandbox, SandboxLimits limits) {
        this.sandbox = sandbox;
        this.limits = limits;
    }

    /** {@return the result of a {@code javascript} or {@code python} assertion} */
    Judged grade(Assertion assertion, String output, ObjectNode context) throws InterruptedException {
        boolean javascript = assertion.base().equals("javascript");
        String code = assertion.value().asText();
        ObjectNode input = Json.object();
        input.put("output", output);
        input.set("context", context);
        Optional<String> runtime = javascript
                ? Runtimes.find().node().map(Path::toString)
                : Runtimes.find().python().map(Path::toString);
        if (runtime.isEmpty()) {
            return new Unjudged(
                    Verdict.Status.ERROR,
                    Problem.of(
                            "promptfoo.runtime_unavailable",
                            (javascript ? "Node.js" : "Python 3") + " is not installed, so the " + assertion.type()
                                    + " assertion cannot run"));
        }
        List<String> command;
        SandboxLimits runLimits = limits;
        Map<String, String> files;
        if (javascript) {
            input.put("code", code);
            command =
                    List.of(runtime.get(), "--max-old-space-size=" + Math.max(64, limits.memoryBytes() >> 20), "h.js");
            runLimits = new SandboxLimits(
                    limits.wallTime(),
                    Math.max(limits.memoryBytes(), NODE_ADDRESS_SPACE),
                    limits.maxProcesses(),
                    limits.maxOutputBytes());
            files = Map.of("h.js", JS_HARNESS);
        } else {
            input.put("script", pythonScript(code));
            command = List.of(runtime.get(), "-I", "h.py");
            files = Map.of("h.py", PYTHON_HARNESS);
        }
        JsonNode result;
        try {
            Optional<JsonNode> ran = run(command, files, input, runLimits);
            if (ran.isEmpty()) {
                return failed(assertion, javascript, "the code did not finish: it ran out of time or memory");
            }
            result = ran.get();
        } catch (AssayException e) {
            return new Unjudged(Verdict.Status.ERROR, e.problem());
        }
        if (result.has("error")) {
            String message = result.path("error").asText();
            return javascript
                    ? failed(
                            assertion,
                            true,
                            message + "\nStack Trace: " + result.path("stack").asText())
                    : failed(assertion, false, message);
        }
        try {
            return javascript ? javascriptResult(assertion, result) : pythonResult(assertion, result.path("returned"));
        } catch (IllegalArgumentException e) {
            return failed(assertion, javascript, e.getMessage());
        }
    }

    /** promptfoo's reason when the code throws or returns what it cannot read; not inverted by {@code not-}. */
    private static Grading failed(Assertion assertion, boolean javascript, String message) {
        String reason = javascript
                ? appendValue("Custom function threw error: " + message, assertion)
                : "Python code execution failed: " + message;
        return new Grading(false, 0, reason, assertion.summary(), null, List.of());
    }

    private static String appendValue(String reason, Assertion assertion) {
        String value = assertion.value().asText().stripTrailing();
        return value.isEmpty() ? reason : reason + "\n" + value;
    }

    /** normalizeJavascriptAssertionResult: a boolean, a number against the threshold, or a GradingResult as given. */
    private static Grading javascriptResult(Assertion assertion, JsonNode result) {
        JsonNode returned = result.path("returned");
        boolean inverse = assertion.inverse();
        if (returned.isBoolean()) {
            boolean pass = returned.asBoolean() != inverse;
            String failure = appendValue("Custom function returned " + returned.asBoolean(), assertion);
            return new Grading(
                    pass, pass ? 1 : 0, pass ? "Assertion passed" : failure, assertion.summary(), null, List.of());
        }
        if (returned.isNumber() || result.path("nan").asBoolean()) {
            double score = result.path("nan").asBoolean() ? Double.NaN : returned.asDouble();
            boolean rawPass = assertion.threshold() == null ? score > 0 : score >= assertion.threshold();
            boolean pass = rawPass != inverse;
            String failure = appendValue("Custom function returned " + rawPass, assertion);
            return new Grading(pass, score, pass ? "Assertion passed" : failure, assertion.summary(), null, List.of());
        }
        return gradingResult(assertion, returned, "Custom function");
    }

    /** A GradingResult a script returned, {@code not-} applied as promptfoo applies it. */
    private static Grading gradingResult(Assertion assertion, JsonNode returned, String label) {
        boolean given = returned.path("pass").asBoolean();
        boolean pass = given != assertion.inverse();
        String reason = pass == given
                ? returned.path("reason").asText()
                : pass ? "Assertion passed" : label + " returned " + given;
        return new Grading(pass, returned.path("score").asDouble(), reason, assertion.summary(), null, List.of());
    }

    /** normalizeScriptResult: booleans (and their text), JSON text, GradingResult objects, numbers and their text. */
    private static Grading pythonResult(Assertion assertion, JsonNode returned) {
        String text = returned.isTextual() ? returned.asText() : null;
        String lower = text == null ? null : text.toLowerCase(java.util.Locale.ROOT);
        if (returned.isBoolean() || "true".equals(lower) || "false".equals(lower)) {
            boolean value = returned.isBoolean() ? returned.asBoolean() : "true".equals(lower);
            boolean pass = value != assertion.inverse();
            String failure = appendPythonValue("Python code returned " + value, assertion);
            return new Grading(
                    pass, pass ? 1 : 0, pass ? "Assertion passed" : failure, assertion.summary(), null, List.of());
        }
        if (text != null && text.startsWith("{")) {
            JsonNode parsed = JsValues.parse(text)
                    .orElseThrow(() -> new IllegalArgumentException("Invalid JSON when parsing result: " + text));
            return pythonObject(assertion, parsed);
        }
        if (returned.isObject() || returned.isArray()) {
            return pythonObject(assertion, returned);
        }
        double score = number(returned);
        if (Double.isNaN(score)) {
            throw new IllegalArgumentException(
                    "Python assertion must return a boolean, number, or {pass, score, reason} object. Instead got:\n"
                            + (returned.isTextual() ? returned.asText() : returned.toString()));
        }
        boolean rawPass = assertion.threshold() == null ? score > 0 : score >= assertion.threshold();
        boolean pass = rawPass != assertion.inverse();
        String failure = appendPythonValue("Python code returned " + rawPass, assertion);
        return new Grading(pass, score, pass ? "Assertion passed" : failure, assertion.summary(), null, List.of());
    }

    private static String appendPythonValue(String reason, Assertion assertion) {
        String value = assertion.value().asText();
        return value.isEmpty() ? reason : reason + "\n" + value;
    }

    /** normalizeScriptObjectResult: snake_case keys read, the threshold applied to the score, then {@code not-}. */
    private static Grading pythonObject(Assertion assertion, JsonNode object) {
        ObjectNode result = object.isObject() ? ((ObjectNode) object).deepCopy() : Json.object();
        if (result.has("pass_") && !result.has("pass")) {
            result.set("pass", result.get("pass_"));
        }
        if (!object.isObject()
                || !result.path("pass").isBoolean()
                || !result.path("score").isNumber()
                || !result.path("reason").isTextual()) {
            throw new IllegalArgumentException(
                    "Python assertion must return a boolean, number, or {pass, score, reason} object. Got instead:\n"
                            + object.toPrettyString());
        }
        double score = result.path("score").asDouble();
        if (assertion.threshold() != null && score < assertion.threshold()) {
            String message = "Python score " + JsValues.number(score) + " is less than threshold "
                    + JsValues.number(assertion.threshold());
            String reason = result.path("reason").asText();
            result.put("pass", false);
            result.put("reason", reason.isEmpty() ? message : message + ": " + reason);
        }
        return gradingResult(assertion, result, "Python code");
    }

    /** {@code Number.parseFloat(String(value))}: the longest leading number of the text, NaN when there is none. */
    private static double number(JsonNode value) {
        if (value.isNumber()) {
            return value.asDouble();
        }
        Matcher leading = Pattern.compile(
                        "^\\s*[+-]?(Infinity|\\d+\\.?\\d*(e[+-]?\\d+)?|\\.\\d+(e[+-]?\\d+)?)", Pattern.CASE_INSENSITIVE)
                .matcher(JsValues.string(value));
        if (!leading.find()) {
            return Double.NaN;
        }
        String number = leading.group().strip();
        return number.endsWith("Infinity")
                ? (number.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY)
                : Double.parseDouble(number);
    }

    /**
     * {@return the script promptfoo makes of inline Python (buildPythonScript)}: one line is returned as an expression;
     * several lines are the body of {@code main}, each indented by the first indentation the code shows (four spaces
     * when it shows none)
     */
    public static String pythonScript(String code) {
        boolean multiline = code.contains("\n");
        String indent = "    ";
        if (multiline) {
            Matcher first = FIRST_INDENT.matcher(code);
            if (first.find()) {
                indent = first.group();
            }
        }
        String body;
        if (multiline) {
            var lines = new StringBuilder();
            for (String line : code.split("\n", -1)) {
                if (!lines.isEmpty()) {
                    lines.append('\n');
                }
                lines.append(indent).append(line);
            }
            body = lines.toString();
        } else {
            body = "    return " + code;
        }
        return "import json\n\ndef main(output, context):\n" + body + "\n";
    }

    /** {@return what the harness wrote to result.json; empty when it wrote nothing (killed, out of memory)} */
    private Optional<JsonNode> run(
            List<String> command, Map<String, String> files, ObjectNode input, SandboxLimits runLimits)
            throws InterruptedException {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("assay-promptfoo");
            for (var file : files.entrySet()) {
                Files.writeString(dir.resolve(file.getKey()), file.getValue());
            }
            Files.writeString(dir.resolve("input.json"), Json.write(input));
            SandboxResult ran = sandbox.get().run(new SandboxRequest(command, dir, Map.of(), "", runLimits));
            Path result = dir.resolve("result.json");
            if (ran.timedOut() || !Files.isRegularFile(result)) {
                return Optional.empty();
            }
            return JsValues.parse(Files.readString(result));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (dir != null) {
                Workspace.deleteTree(dir);
            }
        }
    }

    /** {@return the default limits of an assertion's code: 10 s, 1 GiB, 64 processes, 1 MiB of output} */
    static SandboxLimits defaultLimits() {
        return SandboxLimits.defaults().withWallTime(Duration.ofSeconds(10));
    }

    private static String resource(String name) {
        try (InputStream in = ScriptAssertions.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
