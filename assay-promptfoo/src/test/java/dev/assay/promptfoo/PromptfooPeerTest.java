package dev.assay.promptfoo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.check.CheckerRegistry;
import dev.assay.report.RunReport;
import dev.assay.result.Run;
import dev.assay.run.Engine;
import dev.assay.run.EvalSpec;
import dev.assay.run.RunListener;
import dev.assay.run.RunSettings;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.testing.ScriptedOpenAiServer;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Assay runs each promptfoo config of {@code peer/} against the same mock model promptfoo 0.121.20 ran it against, and
 * gives every result (test, prompt, provider) the success and score, and every assertion the pass and score, that
 * promptfoo gave it, as bench/peer/record-promptfoo-peer.mjs recorded them in the config's {@code verdicts.json}. The
 * configs run unmodified: their OpenAI providers reach the mock through {@code OPENAI_BASE_URL}, as promptfoo's did.
 * The comparison reads Assay's {@code promptfoo-results.json}, so it holds the reporter's shape to promptfoo's as well.
 */
class PromptfooPeerTest {
    private static final double SCORE_TOLERANCE = 1e-9;

    @TempDir
    Path temp;

    @TestFactory
    Stream<DynamicTest> every_assertion_gets_the_verdict_promptfoo_gave_it() throws Exception {
        Path root = Path.of(PromptfooPeerTest.class.getResource("peer").toURI());
        JsonNode answers = Json.MAPPER.readTree(root.resolve("answers.json").toFile());
        var tests = new ArrayList<DynamicTest>();
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path dir : dirs.filter(Files::isDirectory).sorted().toList()) {
                tests.add(DynamicTest.dynamicTest(dir.getFileName().toString(), () -> compare(dir, answers)));
            }
        }
        assertThat(tests).as("configs under peer/").hasSizeGreaterThanOrEqualTo(4);
        return tests.stream();
    }

    private void compare(Path dir, JsonNode answers) throws Exception {
        JsonNode recorded = Json.MAPPER.readTree(dir.resolve("verdicts.json").toFile());
        List<JsonNode> ours = assayResults(dir, answers);
        List<JsonNode> theirs = new ArrayList<>();
        recorded.path("results").forEach(theirs::add);
        assertThat(ours)
                .extracting(PromptfooPeerTest::key)
                .containsExactlyElementsOf(
                        theirs.stream().map(PromptfooPeerTest::key).toList());
        for (int i = 0; i < ours.size(); i++) {
            JsonNode assay = ours.get(i);
            JsonNode promptfoo = theirs.get(i);
            String at = dir.getFileName() + " " + key(promptfoo);
            assertThat(assay.path("output").asText())
                    .as("%s output", at)
                    .isEqualTo(promptfoo.path("output").asText());
            assertThat(described(assay.path("assertions")))
                    .as("%s assertions", at)
                    .isEqualTo(described(promptfoo.path("assertions")));
            assertThat(assay.path("success").asBoolean())
                    .as("%s success", at)
                    .isEqualTo(promptfoo.path("success").asBoolean());
            assertThat(assay.path("score").asDouble())
                    .as("%s score", at)
                    .isCloseTo(
                            promptfoo.path("score").asDouble(), org.assertj.core.data.Offset.offset(SCORE_TOLERANCE));
        }
    }

    /**
     * {@return Assay's results of the config in {@code dir} run against the mock, reduced as the recorder reduces
     * promptfoo's}
     */
    private List<JsonNode> assayResults(Path dir, JsonNode answers) throws Exception {
        Path work = Files.createTempDirectory(temp, dir.getFileName().toString());
        try (Store store = Stores.open("jdbc:sqlite:" + work.resolve("assay.db"));
                ScriptedOpenAiServer server = ScriptedOpenAiServer.start(
                        request -> ScriptedOpenAiServer.text(answer(answers, request.body())))) {
            Map<String, String> env = Map.of("OPENAI_API_KEY", "test-key", "OPENAI_BASE_URL", server.baseUrl());
            EvalSpec spec = new RunSettings().suites(List.of(dir)).resolve();
            Run run;
            try (var prepared =
                    spec.prepare(null, work.resolve("work"), CheckerRegistry.builtins(), env::get, line -> {})) {
                run = new Engine(store).start(prepared.plan(), RunListener.NONE).await();
            }
            var bytes = new ByteArrayOutputStream();
            new PromptfooReporter().write(RunReport.load(store, run.runId()), bytes);
            var rows = new ArrayList<JsonNode>();
            for (JsonNode result :
                    Json.MAPPER.readTree(bytes.toByteArray()).path("results").path("results")) {
                ObjectNode row = Json.object();
                row.put("test", result.path("testIdx").asInt());
                row.put("prompt", result.path("promptIdx").asInt());
                String label = result.path("provider").path("label").asText("");
                row.put(
                        "provider",
                        label.isEmpty() ? result.path("provider").path("id").asText() : label);
                row.put("output", result.path("response").path("output").asText());
                row.put("success", result.path("success").asBoolean());
                row.put("score", result.path("score").asDouble());
                row.set("assertions", verdicts(result.path("gradingResult").path("componentResults")));
                rows.add(row);
            }
            rows.sort(Comparator.comparingInt((JsonNode row) -> row.path("test").asInt())
                    .thenComparing(row -> row.path("provider").asText())
                    .thenComparingInt(row -> row.path("prompt").asInt()));
            return rows;
        }
    }

    /** The mock's answer, as bench/peer/record-promptfoo-peer.mjs gives it: see answers.json. */
    private static String answer(JsonNode answers, JsonNode body) {
        var text = new ArrayList<String>();
        body.path("messages").forEach(message -> text.add(ScriptedOpenAiServer.contentText(message.path("content"))));
        String joined = String.join("\n", text);
        for (JsonNode rule : answers.path("rules")) {
            boolean model = !rule.has("model")
                    || rule.path("model").asText().equals(body.path("model").asText());
            if (model && joined.contains(rule.path("contains").asText())) {
                return rule.path("answer").asText();
            }
        }
        return answers.path("default").asText();
    }

    /** The verdicts of a result's assertions in the recorder's shape: a set's own, not its listed copies. */
    private static ArrayNode verdicts(JsonNode components) {
        ArrayNode out = Json.MAPPER.createArrayNode();
        for (int i = 0; i < components.size(); i++) {
            out.add(verdict(components.get(i)));
            i += components.get(i).path("componentResults").size();
        }
        return out;
    }

    private static ObjectNode verdict(JsonNode component) {
        ObjectNode verdict = Json.object();
        JsonNode inner = component.path("componentResults");
        verdict.put(
                "type",
                inner.isEmpty() ? component.path("assertion").path("type").asText() : "assert-set");
        verdict.put("pass", component.path("pass").asBoolean());
        verdict.put("score", component.path("score").asDouble());
        if (!inner.isEmpty()) {
            ArrayNode assertions = verdict.putArray("assertions");
            inner.forEach(child -> assertions.add(verdict(child)));
        }
        return verdict;
    }

    /** {@return each verdict as "type pass score" (a set's with its own in brackets), the score to 9 places} */
    private static List<String> described(JsonNode verdicts) {
        var out = new ArrayList<String>();
        for (JsonNode verdict : verdicts) {
            String inner = verdict.has("assertions") ? " " + described(verdict.path("assertions")) : "";
            out.add(verdict.path("type").asText() + " " + verdict.path("pass").asBoolean() + " "
                    + String.format(
                            java.util.Locale.ROOT, "%.9f", verdict.path("score").asDouble()) + inner);
        }
        return out;
    }

    private static String key(JsonNode row) {
        return "test " + row.path("test").asInt() + " prompt "
                + row.path("prompt").asInt() + " provider "
                + row.path("provider").asText();
    }
}
