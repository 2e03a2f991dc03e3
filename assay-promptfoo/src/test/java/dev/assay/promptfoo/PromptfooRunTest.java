package dev.assay.promptfoo;

import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.check.CheckerRegistry;
import dev.assay.report.Reporters;
import dev.assay.report.RunReport;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A promptfoo config run end to end on the engine: two providers (a scripted OpenAI-compatible server and {@code echo})
 * as two systems under test in one run, each case bound to its own, the stored run resumable from its snapshot, and the
 * run written in promptfoo's results shape. The assertions are judged here by a stand-in for the {@code promptfoo}
 * checker (its own tests are assay's check.promptfoo's), so that this test holds the plumbing alone.
 */
class PromptfooRunTest {
    @TempDir
    Path temp;

    private Store store;
    private ScriptedOpenAiServer server;

    @BeforeEach
    void start() {
        store = Stores.open("jdbc:sqlite:" + temp.resolve("assay.db"));
        server = ScriptedOpenAiServer.start(request -> text("The capital is Paris."));
    }

    @AfterEach
    void stop() {
        server.close();
        store.close();
    }

    private Path config() throws Exception {
        Path dir = Files.createDirectories(temp.resolve("project"));
        Files.writeString(dir.resolve("promptfooconfig.yaml"), """
                description: capitals
                prompts:
                  - "What is the capital of {{country}}?"
                providers:
                  - id: openai:chat:scripted
                    label: scripted
                    config:
                      apiBaseUrl: %s
                      temperature: 0
                  - echo
                tests:
                  - vars: {country: France}
                    assert:
                      - type: contains
                        value: Paris
                  - vars: {country: Peru}
                    assert:
                      - type: moderation
                  - vars: {country: Chile}
                    threshold: 0.5
                    assert:
                      - type: contains
                        value: Paris
                      - type: contains
                        value: Santiago
                """.formatted(server.baseUrl()));
        return dir;
    }

    @Test
    void a_config_directory_runs_its_matrix_with_each_case_against_its_own_provider() throws Exception {
        var log = new ArrayList<String>();
        EvalSpec request = new RunSettings().suites(List.of(config())).resolve();
        Run run;
        try (var prepared = request.prepare(
                null,
                temp.resolve("work"),
                CheckerRegistry.builtins(),
                name -> name.equals("OPENAI_API_KEY") ? "test-key" : null,
                log::add)) {
            run = new Engine(store).start(prepared.plan(), RunListener.NONE).await();
        }

        RunReport report = RunReport.load(store, run.runId());
        Map<String, Item> items = new java.util.LinkedHashMap<>();
        report.items().forEach(item -> items.put(item.caseId(), item));
        assertThat(items.keySet()).containsExactly("t1-p1", "t1-p2", "t2-p1", "t2-p2", "t3-p1", "t3-p2");
        assertThat(items.get("t1-p1").status()).isEqualTo(ItemStatus.PASSED);
        assertThat(items.get("t1-p1").finalAnswer()).isEqualTo("The capital is Paris.");
        assertThat(items.get("t1-p2").status())
                .as("echo answers with the prompt")
                .isEqualTo(ItemStatus.FAILED);
        assertThat(items.get("t1-p2").finalAnswer()).isEqualTo("What is the capital of France?");
        assertThat(items.get("t2-p1").status()).isEqualTo(ItemStatus.SKIPPED);
        assertThat(items.get("t2-p1").error().type()).isEqualTo("promptfoo.unsupported_assertion");
        assertThat(items.get("t3-p1").status())
                .as("one of two assertions passes, at the test's threshold of 0.5")
                .isEqualTo(ItemStatus.PASSED);
        assertThat(items.get("t3-p1").score()).isEqualTo(0.5);
        assertThat(items.get("t3-p2").status()).isEqualTo(ItemStatus.FAILED);
        assertThat(server.requests()).hasSize(2);
        assertThat(log).anySatisfy(line -> assertThat(line).contains("(moderation)", "tests[1]"));
        assertThat(run.dimensionScores())
                .containsKeys(
                        "[scripted] What is the capital of {{country}}?", "[echo] What is the capital of {{country}}?");

        EvalSpec back = EvalSpec.toResume(run);
        assertThat(back.subject().sut()).isEqualTo(request.subject().sut());
        assertThat(back.subject().sut().toString()).startsWith("promptfoo:");

        var written = Reporters.builtins().writeAll(report, temp.resolve("out"));
        assertThat(written).extracting(path -> path.getFileName().toString()).contains("promptfoo-results.json");
        var bytes = new ByteArrayOutputStream();
        new PromptfooReporter().write(report, bytes);
        JsonNode results = Json.MAPPER.readTree(bytes.toByteArray());
        assertThat(results.path("evalId").asText()).isEqualTo(run.runId());
        JsonNode rows = results.path("results").path("results");
        assertThat(rows).hasSize(6);
        JsonNode first = rows.get(0);
        assertThat(first.path("vars").path("country").asText()).isEqualTo("France");
        assertThat(first.path("provider").path("id").asText()).isEqualTo("openai:chat:scripted");
        assertThat(first.path("provider").path("label").asText()).isEqualTo("scripted");
        assertThat(first.path("prompt").path("raw").asText()).isEqualTo("What is the capital of France?");
        assertThat(first.path("success").asBoolean()).isTrue();
        assertThat(first.path("score").asDouble()).isEqualTo(1.0);
        assertThat(first.path("gradingResult")
                        .path("componentResults")
                        .get(0)
                        .path("assertion")
                        .path("type")
                        .asText())
                .isEqualTo("contains");
        assertThat(rows.get(1).path("success").asBoolean()).isFalse();
        assertThat(rows.get(1).path("failureReason").asInt()).isEqualTo(1);
        assertThat(results.path("results").path("prompts")).hasSize(2);
        assertThat(results.path("results").path("stats").path("successes").asInt())
                .isEqualTo(2);
    }

    @Test
    void a_run_of_ordinary_cases_gets_no_promptfoo_results_file() throws Exception {
        Path suite = Files.writeString(temp.resolve("suite.jsonl"), """
                {"id": "a", "dimension": "common", "prompt": "hi", "checker": "contains", "expected": "hi"}
                """);
        EvalSpec request = new RunSettings()
                .suites(List.of(suite))
                .model(dev.assay.model.ModelOptions.of("mock"))
                .resolve();
        Run run;
        try (var prepared =
                request.prepare(null, temp.resolve("work"), CheckerRegistry.builtins(), name -> null, line -> {})) {
            run = new Engine(store).start(prepared.plan(), RunListener.NONE).await();
        }

        var written = Reporters.builtins().writeAll(RunReport.load(store, run.runId()), temp.resolve("out"));

        assertThat(written).extracting(path -> path.getFileName().toString()).doesNotContain("promptfoo-results.json");
    }
}
