package dev.assay.fault;

import static dev.assay.testing.ScriptedOpenAiServer.failure;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.cases.Suite;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.RetryPolicy;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.model.openai.OpenAiSettings;
import dev.assay.report.RunReport;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.run.Engine;
import dev.assay.run.RunListener;
import dev.assay.run.RunPlan;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.AgentSubject;
import dev.assay.subject.ToolMode;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.ScriptedOpenAiServer.Reply;
import dev.assay.testing.TestSpecs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A model endpoint that misbehaves in every way at once, one fault per case, in one real run: each case ends with its
 * own typed outcome in plain words, the run goes on past every fault (an endless stream included, stopped by the case
 * deadline), and the run's counts are exactly the items stored.
 */
@Tag("fault")
class EndpointFaultsTest {
    private static final RetryPolicy QUICK =
            new RetryPolicy(3, Duration.ofMillis(20), Duration.ofMillis(200), Duration.ofSeconds(5));

    @TempDir
    Path temp;

    /** Each case's prompt names its fault; {@code call} numbers the requests per prompt from 1. */
    private static Reply fault(String prompt, int call) {
        return switch (prompt) {
            case "rate limited once" -> call == 1 ? new Reply.Failure(429, Map.of("Retry-After", "0.1")) : text("ok");
            case "rate limited always" -> new Reply.Failure(429, Map.of("Retry-After", "0.05"));
            case "server error once" -> call == 1 ? failure(502) : text("ok");
            case "server error always" -> failure(503);
            case "malformed" -> new Reply.Malformed();
            case "cut stream" -> new Reply.Truncated(new Reply.Answer("an answer cut in two", List.of()));
            case "endless stream" -> new Reply.Endless(50);
            default -> text("ok");
        };
    }

    private static final Map<String, String> EXPECTED = expected();

    private static Map<String, String> expected() {
        var outcomes = new LinkedHashMap<String, String>();
        outcomes.put("rate limited once", "passed");
        outcomes.put("rate limited always", "target.rate_limited");
        outcomes.put("server error once", "passed");
        outcomes.put("server error always", "target.http_error");
        outcomes.put("malformed", "target.malformed_response");
        outcomes.put("cut stream", "target.truncated");
        outcomes.put("endless stream", "target.timeout");
        outcomes.put("healthy", "passed");
        return outcomes;
    }

    @ParameterizedTest(name = "stream={0}")
    @ValueSource(booleans = {false, true})
    void every_fault_ends_its_case_with_a_typed_error_and_the_run_goes_on(boolean stream) throws Exception {
        var calls = new ConcurrentHashMap<String, AtomicInteger>();
        try (var server = ScriptedOpenAiServer.start(request -> fault(
                        request.firstUserText(),
                        calls.computeIfAbsent(request.firstUserText(), prompt -> new AtomicInteger())
                                .incrementAndGet()));
                Store store = Stores.open("jdbc:sqlite:" + temp.resolve("assay.db"))) {
            var model = new OpenAiChatModel(
                    new OpenAiSettings("scripted", server.baseUrl(), "", stream, Duration.ofSeconds(30), QUICK),
                    line -> {});
            var subject = new AgentSubject(model, List.of(), new AgentSettings(ToolMode.NATIVE, 2, 0.0, null, null), 8);
            // A generous deadline for every case (a loaded machine starts the HTTP client slowly), a short one for
            // the endless stream, which only the deadline ends.
            var cases = EXPECTED.keySet().stream()
                    .map(prompt -> new Case(
                            prompt.replace(' ', '-'),
                            "common",
                            "",
                            prompt,
                            1.0,
                            prompt.equals("endless stream") ? Duration.ofSeconds(2) : null,
                            List.of(Check.of("exact", Json.parse("\"ok\""))),
                            List.of(),
                            List.of(),
                            Map.of(),
                            null,
                            null))
                    .toList();
            var config = TestSpecs.config(
                    temp.resolve("work"), settings -> settings.concurrency(8).timeout(Duration.ofSeconds(30)));

            Run run = new Engine(store)
                    .run(
                            new RunPlan(
                                    new Suite("faults", "v1", cases, Map.of(), List.of()),
                                    subject,
                                    config,
                                    CheckerRegistry.builtins()),
                            RunListener.NONE);

            List<Item> items = RunReport.load(store, run.runId()).items();
            assertThat(run.status()).isEqualTo(RunStatus.FINISHED);
            assertThat(items).hasSize(EXPECTED.size());
            assertThat(run.counts().total()).isEqualTo(items.size());
            assertThat(run.counts().passed() + run.counts().error()).isEqualTo(items.size());
            for (Item item : items) {
                String outcome = item.status() == ItemStatus.PASSED
                        ? "passed"
                        : item.error().type();
                if (!stream && item.prompt().equals("cut stream")) {
                    // Without streaming the cut reply is an ordinary answer: there is no stream to cut.
                    continue;
                }
                assertThat(outcome).as("%s: %s", item.prompt(), item.error()).isEqualTo(EXPECTED.get(item.prompt()));
                if (item.error() != null) {
                    assertThat(item.error().message())
                            .as(item.prompt())
                            .doesNotContain("Exception")
                            .doesNotContain("java.");
                }
            }
        }
    }
}
