package dev.assay.check.promptfoo;

import static dev.assay.check.promptfoo.PromptfooChecks.judge;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.check.Verdict;
import dev.assay.check.judge.JudgeCache;
import dev.assay.check.promptfoo.internal.PromptfooCheckerFactory;
import dev.assay.check.promptfoo.internal.ScriptAssertions;
import dev.assay.sandbox.BubblewrapSandbox;
import dev.assay.sandbox.Runtimes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The {@code javascript} and {@code python} assertions, run in bubblewrap as promptfoo runs them
 * (src/assertions/javascript.ts, python.ts, scriptResultNormalization.ts): expressions and function bodies, results
 * read as booleans, numbers against the threshold or GradingResults, {@code not-} applied, the test's vars in
 * {@code context}; and the code confined, unable to read the home directory. Skipped without bubblewrap or the runtime,
 * failed then under {@code ASSAY_REQUIRE_SANDBOX=1}.
 */
@Tag("security")
class PromptfooScriptTest {
    private static PromptfooCheckerFactory factory;
    private static Path secret;

    @BeforeAll
    static void findSandbox() throws InterruptedException, IOException {
        Optional<BubblewrapSandbox> sandbox = BubblewrapSandbox.find();
        boolean required = "1".equals(System.getenv("ASSAY_REQUIRE_SANDBOX"));
        Assumptions.assumeTrue(sandbox.isPresent() || !required, "bubblewrap must be usable (ASSAY_REQUIRE_SANDBOX=1)");
        Assumptions.assumeTrue(sandbox.isPresent(), "bubblewrap is not usable on this machine");
        factory = new PromptfooCheckerFactory(List.of(), JudgeCache.disabled(), () -> sandbox);
        secret = Files.createTempFile(Path.of(System.getProperty("user.home")), "assay-promptfoo-secret", ".txt");
        Files.writeString(secret, "the secret of the home directory");
    }

    @AfterAll
    static void removeSecret() throws IOException {
        if (secret != null) {
            Files.deleteIfExists(secret);
        }
    }

    private static void requireNode() {
        boolean required = "1".equals(System.getenv("ASSAY_REQUIRE_SANDBOX"));
        Assumptions.assumeTrue(
                Runtimes.find().node().isPresent() || !required, "Node.js must be installed (ASSAY_REQUIRE_SANDBOX=1)");
        Assumptions.assumeTrue(Runtimes.find().node().isPresent(), "Node.js is not installed");
    }

    private static void requirePython() {
        Assumptions.assumeTrue(Runtimes.find().python().isPresent(), "Python 3 is not installed");
    }

    private static Verdict run(String assertion, String output) throws InterruptedException {
        ObjectNode attributes = Json.object();
        attributes.set("vars", Json.parse("{\"city\": \"Paris\"}"));
        attributes.put("prompt_rendered", "What is the capital of France?");
        return judge(factory, assertion, output, attributes, null, List.of());
    }

    private static String javascript(String type, String code, String extra) {
        ObjectNode assertion = Json.object();
        assertion.put("type", type);
        assertion.put("value", code);
        return extra.isEmpty() ? assertion.toString() : assertion.toString().replaceFirst("}$", ", " + extra + "}");
    }

    @Test
    void a_javascript_expression_passes_on_true_and_its_not_form_inverts() throws InterruptedException {
        requireNode();
        assertThat(run(javascript("javascript", "output.includes(context.vars.city)", ""), "It is Paris")
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
        Verdict inverted = run(javascript("not-javascript", "output.includes(context.vars.city)", ""), "It is Paris");
        assertThat(inverted.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(inverted.message()).isEqualTo("Custom function returned true\noutput.includes(context.vars.city)");
    }

    @Test
    void a_javascript_number_is_the_score_and_passes_above_zero_or_at_the_threshold() throws InterruptedException {
        requireNode();
        String code = "output.length / 10";
        Verdict noThreshold = run(javascript("javascript", code, ""), "12345");
        assertThat(noThreshold.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(noThreshold.score()).isEqualTo(0.5);
        assertThat(run(javascript("javascript", code, "\"threshold\": 0.5"), "12345")
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
        Verdict below = run(javascript("javascript", code, "\"threshold\": 0.6"), "12345");
        assertThat(below.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(below.score()).isEqualTo(0.5);
    }

    @Test
    void a_javascript_function_body_returns_a_grading_result_and_sees_the_prompt() throws InterruptedException {
        requireNode();
        String body = "const ok = context.prompt.includes('France');\n"
                + "return { pass: ok, score: 0.25, reason: 'checked ' + context.test.vars.city };";
        Verdict verdict = run(javascript("javascript", body, ""), "whatever");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(verdict.score()).isEqualTo(0.25);
        assertThat(verdict.message()).isEqualTo("checked Paris");
    }

    @Test
    void a_javascript_declaration_line_returns_its_last_expression() throws InterruptedException {
        requireNode();
        String code = "const s = JSON.parse(output).score; s > 0.5";
        assertThat(run(javascript("javascript", code, ""), "{\"score\": 0.9}").status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void javascript_that_throws_fails_even_in_its_not_form() throws InterruptedException {
        requireNode();
        Verdict verdict = run(javascript("not-javascript", "JSON.parse(output).x", ""), "not json");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(verdict.message()).startsWith("Custom function threw error: ");
    }

    @Test
    void javascript_cannot_read_the_home_directory() throws InterruptedException {
        requireNode();
        String code = "let seen = 'unread';\n"
                + "try { seen = require('fs').readFileSync(" + Json.write(secret.toString()) + ", 'utf8'); }"
                + " catch (e) { seen = 'denied'; }\n"
                + "return { pass: seen === 'denied', score: 1, reason: seen };";
        Verdict verdict = run(javascript("javascript", code, ""), "x");
        assertThat(verdict.message()).isEqualTo("denied");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void a_python_expression_passes_on_true_and_reads_the_vars() throws InterruptedException {
        requirePython();
        assertThat(run(javascript("python", "context['vars']['city'] in output", ""), "It is Paris")
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
        assertThat(run(javascript("not-python", "context['vars']['city'] in output", ""), "It is Paris")
                        .status())
                .isEqualTo(Verdict.Status.FAILED);
    }

    @Test
    void a_python_grading_result_is_held_to_the_threshold() throws InterruptedException {
        requirePython();
        String body = "score = len(output) / 10\nreturn {'pass': True, 'score': score, 'reason': 'long enough'}\n";
        Verdict passed = run(javascript("python", body, "\"threshold\": 0.5"), "12345");
        assertThat(passed.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(passed.message()).isEqualTo("long enough");
        Verdict below = run(javascript("python", body, "\"threshold\": 0.6"), "12345");
        assertThat(below.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(below.message()).isEqualTo("Python score 0.5 is less than threshold 0.6: long enough");
    }

    @Test
    void python_that_returns_nothing_fails_as_promptfoo_reads_none() throws InterruptedException {
        requirePython();
        // A one-line YAML block ends in a line break, so promptfoo makes it a body without return: main gives None.
        Verdict verdict = run(javascript("python", "output == 'x'\n", ""), "x");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(verdict.message()).startsWith("Python code execution failed: ");
    }

    @Test
    void python_cannot_read_the_home_directory() throws InterruptedException {
        requirePython();
        String body = "try:\n    open(" + Json.write(secret.toString()) + ").read()\n    return False\n"
                + "except OSError:\n    return True\n";
        assertThat(run(javascript("python", body, ""), "x").status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void python_scripts_are_built_as_promptfoo_builds_them() {
        assertThat(ScriptAssertions.pythonScript("output == 'a'"))
                .isEqualTo("import json\n\ndef main(output, context):\n    return output == 'a'\n");
        assertThat(ScriptAssertions.pythonScript("x = 1\nif x:\n  return True"))
                .isEqualTo("import json\n\ndef main(output, context):\n  x = 1\n  if x:\n    return True\n");
    }
}
