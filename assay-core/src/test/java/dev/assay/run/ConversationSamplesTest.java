package dev.assay.run;

import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.cases.Suite;
import dev.assay.cases.SuiteLoader;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.ChatModel;
import dev.assay.model.RetryPolicy;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.model.openai.OpenAiSettings;
import dev.assay.report.Reporters;
import dev.assay.report.RunReport;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.store.Stores;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.AgentSubject;
import dev.assay.subject.UserModels;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.TestSpecs;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Conversation cases drawn several times: each sample is a conversation of its own, report.json keeps both sides, and
 * pass^k is C(c, k) / C(n, k) per case, averaged, on the stored items.
 */
class ConversationSamplesTest {
    private static final String SUITE = """
            [{"id": "steady", "dimension": "tool", "system": "Answer done.",
              "user": {"instructions": "You are the steady customer.", "max_turns": 4},
              "checker": "contains", "expected": "done"},
             {"id": "flaky", "dimension": "tool", "system": "Answer done.",
              "user": {"instructions": "You are the flaky customer.", "max_turns": 4},
              "checker": "contains", "expected": "done"}]
            """;

    @TempDir
    Path temp;

    @Test
    void three_samples_report_pass_hat_k_equal_to_the_formula_on_the_stored_items() throws Exception {
        var flaky = new AtomicInteger();
        // The user asks as the customer its instructions name, then stops; the agent gets the flaky case right once.
        try (var userServer = ScriptedOpenAiServer.start(request -> request.assistantTurns() == 0
                        ? text(
                                request.body()
                                                .at("/messages/0/content")
                                                .asText()
                                                .contains("flaky")
                                        ? "flaky request"
                                        : "steady request")
                        : text("Thanks. ###STOP###"));
                var agentServer = ScriptedOpenAiServer.start(
                        request -> request.firstUserText().startsWith("flaky")
                                ? text(flaky.incrementAndGet() == 1 ? "done" : "not yet")
                                : text("done"));
                var store = Stores.open("jdbc:sqlite:" + temp.resolve("a.db"))) {
            ChatModel agent = new OpenAiChatModel(
                    new OpenAiSettings(
                            "scripted", agentServer.baseUrl(), "", false, Duration.ofSeconds(10), RetryPolicy.none()),
                    line -> {});
            ChatModel user = new OpenAiChatModel(
                    new OpenAiSettings(
                            "scripted-user",
                            userServer.baseUrl(),
                            "",
                            false,
                            Duration.ofSeconds(10),
                            RetryPolicy.none()),
                    line -> {});
            Path file = Files.writeString(temp.resolve("conversations.json"), SUITE);
            Suite suite = new SuiteLoader(CheckerRegistry.builtins()).load(file).requireValid();
            var subject = new AgentSubject(
                    agent,
                    List.of(),
                    AgentSettings.defaults(),
                    1,
                    Map.of(),
                    new UserModels("scripted-user", n -> user));
            var plan = new RunPlan(
                    suite,
                    subject,
                    TestSpecs.config(
                            temp.resolve("work"), given -> given.concurrency(1).samples(3)),
                    CheckerRegistry.builtins());
            Run run = new Engine(store).run(plan, RunListener.NONE);
            var report = RunReport.load(store, run.runId());

            assertThat(run.counts().total()).isEqualTo(6);
            var byCase = new LinkedHashMap<String, int[]>();
            for (Item item : report.items()) {
                int[] tally = byCase.computeIfAbsent(item.caseId().replaceAll("#\\d+$", ""), id -> new int[2]);
                tally[0]++;
                tally[1] += item.status() == ItemStatus.PASSED ? 1 : 0;
            }
            assertThat(byCase.get("steady")).containsExactly(3, 3);
            assertThat(byCase.get("flaky")).containsExactly(3, 1);
            for (int k = 1; k <= 3; k++) {
                int size = k;
                double formula = byCase.values().stream()
                        .mapToDouble(tally -> choose(tally[1], size) / choose(tally[0], size))
                        .average()
                        .orElseThrow();
                assertThat(report.passHatK().get(k)).as("pass^" + k).isCloseTo(formula, within(1e-12));
            }
            assertThat(report.passHatK()).containsKeys(1, 2, 3);
            assertThat(report.passHatK().get(2)).isCloseTo(0.5, within(1e-12));

            var out = new ByteArrayOutputStream();
            Reporters.builtins().get("json").write(report, out);
            JsonNode json = Json.MAPPER.readTree(out.toByteArray());
            assertThat(json.at("/pass_hat_k/1").asDouble()).isCloseTo(2.0 / 3, within(1e-12));
            JsonNode transcript = json.at("/items/0/transcript");
            assertThat(transcript.findValuesAsText("type"))
                    .containsExactly("user_turn", "model_turn", "user_turn", "final_answer");
            assertThat(transcript.get(0).path("text").asText()).isEqualTo("steady request");
        }
    }

    /** C(n, k) as a double, exactly for these sizes. */
    private static double choose(int n, int k) {
        if (k > n) {
            return 0;
        }
        double result = 1;
        for (int i = 0; i < k; i++) {
            result = result * (n - i) / (i + 1);
        }
        return result;
    }
}
