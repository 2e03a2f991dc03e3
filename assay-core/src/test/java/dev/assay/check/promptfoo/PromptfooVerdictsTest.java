package dev.assay.check.promptfoo;

import static dev.assay.check.promptfoo.PromptfooChecks.judge;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.check.Verdict;
import dev.assay.check.judge.JudgeCache;
import dev.assay.check.promptfoo.internal.PromptfooCheckerFactory;
import dev.assay.sandbox.BubblewrapSandbox;
import dev.assay.sandbox.Runtimes;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Assay's promptfoo checker gives each assertion of promptfoo-verdicts.json the pass and score promptfoo 0.121.20 gave
 * it, as bench/peer/record-promptfoo-verdicts.mjs recorded them from promptfoo's own runAssertion. A script assertion
 * is skipped without bubblewrap or its runtime, unless {@code ASSAY_REQUIRE_SANDBOX=1}.
 */
class PromptfooVerdictsTest {
    private static JsonNode verdicts;
    private static PromptfooCheckerFactory factory;
    private static boolean sandboxed;

    @BeforeAll
    static void load() throws IOException, InterruptedException {
        try (InputStream in = PromptfooVerdictsTest.class.getResourceAsStream("promptfoo-verdicts.json")) {
            verdicts = Json.MAPPER.readTree(in);
        }
        Optional<BubblewrapSandbox> sandbox = BubblewrapSandbox.find();
        sandboxed = sandbox.isPresent();
        factory = new PromptfooCheckerFactory(List.of(), JudgeCache.disabled(), () -> sandbox);
    }

    @TestFactory
    Stream<DynamicTest> every_recorded_assertion_gets_promptfoos_pass_and_score() {
        var tests = new ArrayList<DynamicTest>();
        int index = 0;
        for (JsonNode entry : verdicts.path("cases")) {
            String name = index++ + ": " + entry.path("assertion").path("type").asText() + " on "
                    + Json.write(entry.path("output").asText());
            tests.add(DynamicTest.dynamicTest(name, () -> compare(entry)));
        }
        return tests.stream();
    }

    private static void compare(JsonNode entry) throws InterruptedException {
        String base = entry.path("assertion").path("type").asText().replaceFirst("^not-", "");
        if (base.equals("javascript") || base.equals("python")) {
            boolean runtime = base.equals("javascript")
                    ? Runtimes.find().node().isPresent()
                    : Runtimes.find().python().isPresent();
            if ("1".equals(System.getenv("ASSAY_REQUIRE_SANDBOX"))) {
                assertThat(sandboxed && runtime)
                        .as("bubblewrap and the runtime must be usable (ASSAY_REQUIRE_SANDBOX=1)")
                        .isTrue();
            }
            Assumptions.assumeTrue(sandboxed && runtime, "bubblewrap or the " + base + " runtime is not usable");
        }
        ObjectNode attributes = Json.object();
        attributes.set("vars", verdicts.path("vars"));
        Verdict verdict = judge(
                factory,
                entry.path("assertion").toString(),
                entry.path("output").asText(),
                attributes,
                null,
                List.of());
        JsonNode promptfoo = entry.path("promptfoo");
        assertThat(verdict.detail().path("pass").asBoolean())
                .as("pass (promptfoo: %s)", promptfoo.path("reason").asText())
                .isEqualTo(promptfoo.path("pass").asBoolean());
        assertThat(verdict.status())
                .isEqualTo(promptfoo.path("pass").asBoolean() ? Verdict.Status.PASSED : Verdict.Status.FAILED);
        assertThat(verdict.detail().path("score").asDouble())
                .as("score")
                .isEqualTo(promptfoo.path("score").asDouble());
    }
}
