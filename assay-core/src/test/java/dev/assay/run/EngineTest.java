package dev.assay.run;

import static dev.assay.testing.ScriptedOpenAiServer.calls;
import static dev.assay.testing.ScriptedOpenAiServer.failure;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.cases.Suite;
import dev.assay.check.Checker;
import dev.assay.check.CheckerFactory;
import dev.assay.check.CheckerRegistry;
import dev.assay.check.Verdict;
import dev.assay.model.RetryPolicy;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.model.openai.OpenAiSettings;
import dev.assay.report.RunReport;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.result.ToolCallView;
import dev.assay.run.internal.StoredText;
import dev.assay.run.internal.WeightedScore;
import dev.assay.sandbox.UnsandboxedSandbox;
import dev.assay.score.Scores;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.AgentSubject;
import dev.assay.subject.ToolMode;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.ScriptedOpenAiServer.Call;
import dev.assay.testing.ScriptedOpenAiServer.Reply;
import dev.assay.testing.TestSpecs;
import dev.assay.tools.BuiltinTools;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine end to end: a real OpenAI-compatible server on loopback scripted per case, the agent loop with the
 * built-in tools, the real checkers, and a real store. Each test knows the correct score.
 */
class EngineTest {
    @TempDir
    Path temp;

    private Store store;
    private ScriptedOpenAiServer server;
    private final Map<String, List<Reply>> script = new LinkedHashMap<>();

    /** The store under test; the PostgreSQL subclass overrides it. */
    protected Store openStore(Path directory) {
        return Stores.open("jdbc:sqlite:" + directory.resolve("assay.db"));
    }

    @BeforeEach
    void start() {
        store = openStore(temp);
        server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.byPrompt(script, request -> text("no script")));
    }

    @AfterEach
    void stop() {
        server.close();
        store.close();
    }

    private Run run(List<Case> cases, ToolMode mode) throws InterruptedException {
        return start(cases, mode, 4, Duration.ofSeconds(20)).await();
    }

    private RunHandle start(List<Case> cases, ToolMode mode, int concurrency, Duration timeout) {
        var model = new OpenAiChatModel(
                new OpenAiSettings(
                        "scripted",
                        server.baseUrl(),
                        "",
                        false,
                        Duration.ofSeconds(10),
                        new RetryPolicy(2, Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofSeconds(1))),
                line -> {});
        var subject = new AgentSubject(
                model, BuiltinTools.all(new UnsandboxedSandbox()), new AgentSettings(mode, 6, 0.0, null, null), 64);
        var suite = new Suite("engine-test", "v1", cases, Map.of(), List.of());
        var config = TestSpecs.config(
                temp.resolve("work"),
                settings -> settings.concurrency(concurrency).timeout(timeout));
        return new Engine(store)
                .start(new RunPlan(suite, subject, config, CheckerRegistry.builtins()), RunListener.NONE);
    }

    private static Case evalCase(String id, String dimension, String prompt, String checker, String expectedJson) {
        return Case.of(id, dimension, prompt, Check.of(checker, Json.parse(expectedJson)));
    }

    private Map<String, Item> items(Run run) {
        var byCase = new LinkedHashMap<String, Item>();
        RunReport.load(store, run.runId()).items().forEach(item -> byCase.put(item.caseId(), item));
        return byCase;
    }

    /** Starts a run of one case, answered "ok", whose only check is {@code checker} (a plug-in named "plugin"). */
    private RunHandle startWithChecker(String caseId, Checker checker) {
        script.put(caseId, List.of(text("ok")));
        var checkers = CheckerRegistry.builtins().with(new CheckerFactory() {
            @Override
            public String name() {
                return "plugin";
            }

            @Override
            public Checker create(JsonNode expected) {
                return checker;
            }
        });
        var model = new OpenAiChatModel(
                new OpenAiSettings("scripted", server.baseUrl(), "", false, Duration.ofSeconds(10), RetryPolicy.none()),
                line -> {});
        var subject = new AgentSubject(model, List.of(), AgentSettings.defaults(), 4);
        var suite = new Suite(
                "engine-test",
                "v1",
                List.of(evalCase(caseId, "common", caseId + " case", "plugin", "null")),
                Map.of(),
                List.of());
        return new Engine(store)
                .start(new RunPlan(suite, subject, TestSpecs.config(temp.resolve("work")), checkers), RunListener.NONE);
    }

    /** Runs the cases on the scripted model, with {@code metrics} the extra metrics the run's description names. */
    private Run runNaming(List<String> metrics, List<Case> cases) throws InterruptedException {
        var model = new OpenAiChatModel(
                new OpenAiSettings("scripted", server.baseUrl(), "", false, Duration.ofSeconds(10), RetryPolicy.none()),
                line -> {});
        var suite = new Suite("engine-test", "v1", cases, Map.of(), List.of());
        var config = TestSpecs.config(temp.resolve("work"), settings -> settings.metrics(metrics));
        return new Engine(store)
                .run(
                        new RunPlan(
                                suite,
                                new AgentSubject(model, List.of(), AgentSettings.defaults(), 4),
                                config,
                                CheckerRegistry.builtins()),
                        RunListener.NONE);
    }

    @Test
    void an_extra_metric_the_run_names_is_computed_over_its_stored_items_into_its_record() throws Exception {
        script.put("capital", List.of(text("The answer is Paris.")));
        script.put("colour", List.of(text("red")));

        Run run = runNaming(
                List.of("weighted-score"),
                List.of(
                        evalCase("contains_pass", "common", "capital of France?", "contains", "\"Paris\""),
                        evalCase("exact_fail", "logic", "colour of the sky?", "exact", "\"blue\"")));

        assertThat(run.status()).isEqualTo(RunStatus.FINISHED);
        assertThat(run.metrics()).containsExactly(Map.entry("weighted-score", run.totalScore()));
        assertThat(store.findRun(run.runId()).orElseThrow().metrics()).isEqualTo(run.metrics());
    }

    @Test
    void the_run_is_scored_by_its_own_plug_ins_not_the_process_wide_ones() throws Exception {
        script.put("capital", List.of(text("The answer is Paris.")));
        // This run's weighted score is a plug-in of its own: every dimension 0.25, whatever the items say.
        Metric flat = new Metric() {
            @Override
            public String name() {
                return WeightedScore.NAME;
            }

            @Override
            public Tally begin(MetricContext context) {
                var dimensions = new java.util.TreeMap<String, Double>();
                return new Tally() {
                    @Override
                    public void accept(Item item) {
                        dimensions.put(item.dimension(), 0.25);
                    }

                    @Override
                    public Scores result() {
                        return new Scores(dimensions, 0.25);
                    }
                };
            }
        };
        RunPlugins discovered = RunPlugins.discovered();
        var plugins = new RunPlugins(
                discovered.checkers(),
                discovered.subjects(),
                discovered.toolProviders(),
                discovered.metrics().with(flat));
        var model = new OpenAiChatModel(
                new OpenAiSettings("scripted", server.baseUrl(), "", false, Duration.ofSeconds(10), RetryPolicy.none()),
                line -> {});
        var suite = new Suite(
                "engine-test",
                "v1",
                List.of(evalCase("contains_pass", "common", "capital of France?", "contains", "\"Paris\"")),
                Map.of(),
                List.of());

        Run run = new Engine(store)
                .run(
                        new RunPlan(
                                suite,
                                new AgentSubject(model, List.of(), AgentSettings.defaults(), 4),
                                TestSpecs.config(temp.resolve("work")),
                                plugins),
                        RunListener.NONE);

        assertThat(run.counts().passed()).isEqualTo(1);
        assertThat(run.totalScore()).isEqualTo(0.25);
        assertThat(run.dimensionScores()).containsExactly(Map.entry("common", 0.25));
        // Nothing process-wide changed: a set found now still holds Assay's own.
        assertThat(RunPlugins.discovered().metrics().get(WeightedScore.NAME, null))
                .isInstanceOf(WeightedScore.class);
    }

    @Test
    void a_metric_that_does_not_apply_to_the_run_fails_it_at_its_end_with_the_items_kept() throws Exception {
        script.put("capital", List.of(text("The answer is Paris.")));

        Run run = runNaming(
                List.of("memfin-v1"),
                List.of(evalCase("contains_pass", "common", "capital of France?", "contains", "\"Paris\"")));

        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.error().type()).isEqualTo("metric.not_applicable");
        assertThat(run.counts().passed()).isEqualTo(1);
        assertThat(store.countItems(run.runId())).isEqualTo(1);
    }

    @Test
    void answer_checkers_pass_and_fail_with_known_scores() throws Exception {
        script.put("capital", List.of(text("The answer is Paris.")));
        script.put("two plus two", List.of(text("答案：B")));
        script.put("colour", List.of(text("red")));
        var cases = List.of(
                evalCase("contains_pass", "common", "capital of France?", "contains", "\"Paris\""),
                evalCase("choice_pass", "logic", "two plus two? A) 3 B) 4", "choice", "\"B\""),
                evalCase("exact_fail", "common", "colour of the sky?", "exact", "\"blue\""),
                evalCase("regex_fail", "logic", "colour of grass?", "regex", "\"^green$\""));
        Run run = run(cases, ToolMode.NATIVE);

        assertThat(run.status()).isEqualTo(RunStatus.FINISHED);
        var items = items(run);
        assertThat(items.get("contains_pass").status()).isEqualTo(ItemStatus.PASSED);
        assertThat(items.get("choice_pass").status()).isEqualTo(ItemStatus.PASSED);
        assertThat(items.get("exact_fail").status()).isEqualTo(ItemStatus.FAILED);
        assertThat(items.get("regex_fail").status()).isEqualTo(ItemStatus.FAILED);
        assertThat(run.dimensionScores()).containsEntry("common", 0.5).containsEntry("logic", 0.5);
        assertThat(run.totalScore()).isEqualTo(0.5);
        assertThat(run.counts()).isEqualTo(new Counts(4, 2, 2, 0, 0, 0, 0));
    }

    @Test
    void a_case_id_too_long_for_a_file_name_still_gets_a_workspace() throws Exception {
        String id = "case-" + "x".repeat(300);
        script.put("capital of France?", List.of(text("Paris")));
        Run run = run(List.of(evalCase(id, "common", "capital of France?", "contains", "\"Paris\"")), ToolMode.NATIVE);

        assertThat(run.status()).isEqualTo(RunStatus.FINISHED);
        assertThat(items(run).get(id).status()).isEqualTo(ItemStatus.PASSED);
    }

    @Test
    void a_case_whose_files_clash_is_an_error_naming_the_file_not_the_host_path() throws Exception {
        Case base = evalCase("clash", "common", "capital of France?", "contains", "\"Paris\"");
        var clashing = new Case(
                base.id(),
                base.dimension(),
                base.language(),
                base.prompt(),
                base.weight(),
                base.timeout(),
                base.checks(),
                base.prerequisites(),
                base.tags(),
                Map.of("a", "x", "a/b", "y"),
                base.attributes(),
                base.source());
        Run run = run(List.of(clashing), ToolMode.NATIVE);

        Item item = items(run).get("clash");
        assertThat(item.status()).isEqualTo(ItemStatus.ERROR);
        assertThat(item.error().type()).isEqualTo("workspace.seed_failed");
        // Whichever of the two is written second fails.
        assertThat(item.error().message()).containsAnyOf("write a into", "write a/b into");
        assertThat(item.error().message()).doesNotContain(temp.toString());
    }

    @Test
    void native_tool_calls_write_an_artifact_that_file_checkers_verify() throws Exception {
        script.put(
                "write hello",
                List.of(
                        calls(Call.of("write_file", "{\"path\": \"out/hello.txt\", \"content\": \"hello world\"}")),
                        text("done")));
        var check = Case.of(
                "write",
                "complex",
                "write hello into out/hello.txt",
                Check.of("file_contains", Json.parse("{\"path\": \"out/hello.txt\", \"contains\": \"hello\"}")));
        Item item = items(run(List.of(check), ToolMode.NATIVE)).get("write");
        assertThat(item.status()).isEqualTo(ItemStatus.PASSED);
        assertThat(item.toolCalls()).singleElement().satisfies(call -> {
            assertThat(call.name()).isEqualTo("write_file");
            assertThat(call.ok()).isTrue();
        });
        assertThat(item.finalAnswer()).isEqualTo("done");
    }

    @Test
    void text_mode_tool_calls_are_parsed_executed_and_canonicalised() throws Exception {
        script.put(
                "read alpha",
                List.of(
                        text("<tool_call>{\"name\": \"读取文件\", \"arguments\": {\"path\": \"alpha.txt\"}}</tool_call>"),
                        text("It says alpha.")));
        var evalCase = new Case(
                "read",
                "tool",
                "",
                "read alpha.txt",
                1,
                null,
                List.of(
                        Check.of("tool_called", Json.parse("\"read_file\"")),
                        Check.of("contains", Json.parse("\"alpha\""))),
                List.of(),
                List.of(),
                Map.of("alpha.txt", "alpha beta"),
                null,
                null);
        Run run = run(List.of(evalCase), ToolMode.TEXT);
        Item item = items(run).get("read");
        assertThat(item.status()).isEqualTo(ItemStatus.PASSED);
        assertThat(item.toolCalls().get(0).name()).isEqualTo("read_file");
        JsonNode firstRequest = server.requests().get(0);
        assertThat(firstRequest.has("tools")).isFalse();
        assertThat(firstRequest.at("/messages/0/content").asText()).contains("<tool_call>");
        // The tool's output went back to the model as text in the second request.
        assertThat(server.requests().get(1).toString()).contains("alpha beta");
    }

    @Test
    void workspace_escape_attempts_are_refused_and_nothing_is_written_outside() throws Exception {
        script.put(
                "escape",
                List.of(
                        calls(
                                Call.of("write_file", "{\"path\": \"../../escaped.txt\", \"content\": \"x\"}"),
                                Call.of("read_file", "{\"path\": \"/etc/passwd\"}")),
                        text("tried")));
        var evalCase = Case.of(
                "escape",
                "complex",
                "escape the workspace",
                Check.of("file_exists", Json.parse("\"../../escaped.txt\"")));
        Item item = items(run(List.of(evalCase), ToolMode.NATIVE)).get("escape");
        assertThat(item.status()).isEqualTo(ItemStatus.FAILED);
        assertThat(item.toolCalls()).extracting(ToolCallView::ok).containsExactly(false, false);
        assertThat(item.transcript().toString()).contains("workspace.escape").doesNotContain("root:x:0:0");
        try (var files = Files.walk(temp)) {
            assertThat(files.filter(path -> path.getFileName().toString().equals("escaped.txt")))
                    .isEmpty();
        }
    }

    @Test
    void a_run_whose_every_judged_item_is_an_error_fails_naming_the_most_frequent_error_type() throws Exception {
        script.put("broken", List.of(failure(500)));
        script.put("also_broken", List.of(failure(500)));
        var cases = List.of(
                evalCase("broken", "common", "broken case", "contains", "\"ok\""),
                evalCase("also_broken", "logic", "also broken case", "contains", "\"ok\""));

        Run run = run(cases, ToolMode.NATIVE);

        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.error().type()).isEqualTo("run.all_items_errored");
        assertThat(run.error().details())
                .containsEntry("error_type", "target.http_error")
                .containsEntry("error_type_count", 2)
                .containsEntry("errors", 2);
        assertThat(items(run)).hasSize(2);
        assertThat(store.findRun(run.runId()).orElseThrow().status()).isEqualTo(RunStatus.FAILED);
    }

    @Test
    void server_errors_are_retried_then_the_item_is_error_and_the_run_goes_on() throws Exception {
        script.put("broken", List.of(failure(500)));
        script.put("fine", List.of(text("ok")));
        var cases = List.of(
                evalCase("broken", "common", "broken case", "contains", "\"ok\""),
                evalCase("fine", "common", "fine case", "contains", "\"ok\""));
        Run run = run(cases, ToolMode.NATIVE);
        var items = items(run);
        assertThat(items.get("broken").status()).isEqualTo(ItemStatus.ERROR);
        assertThat(items.get("broken").error().type()).isEqualTo("target.http_error");
        assertThat(items.get("broken").error().details()).containsEntry("attempts", 2);
        assertThat(items.get("fine").status()).isEqualTo(ItemStatus.PASSED);
        assertThat(run.status()).isEqualTo(RunStatus.FINISHED);
        assertThat(run.counts().error()).isEqualTo(1);
        assertThat(run.dimensionScores()).containsEntry("common", 0.5);
        long brokenCalls = server.requests().stream()
                .filter(body -> body.toString().contains("broken case"))
                .count();
        assertThat(brokenCalls).isEqualTo(2);
    }

    @Test
    @Tag("fault")
    void an_endpoint_refusing_the_credentials_stops_the_run_early_as_failed() throws Exception {
        var cases = new ArrayList<Case>();
        for (int i = 0; i < 20; i++) {
            script.put("locked case " + i + "?", List.of(failure(401)));
            cases.add(evalCase("locked_" + i, "common", "locked case " + i + "?", "contains", "\"ok\""));
        }

        Run run = start(cases, ToolMode.NATIVE, 2, Duration.ofSeconds(20)).await();

        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.error().type()).isEqualTo("target.auth_failed");
        // Only the cases already running when the first refusal came were called, one request each (no retry).
        assertThat(server.requests().size()).isLessThanOrEqualTo(3);
        assertThat(run.counts().total()).isEqualTo(20);
        assertThat(run.counts().error()).isEqualTo(run.counts().completed()).isBetween(1, 3);
        assertThat(store.countItems(run.runId())).isEqualTo(run.counts().completed());
        assertThat(items(run).values())
                .allSatisfy(item -> assertThat(item.error().type()).isEqualTo("target.auth_failed"));
        assertThat(store.findRun(run.runId()).orElseThrow().status()).isEqualTo(RunStatus.FAILED);
    }

    @Test
    void an_answer_above_the_storage_cap_is_judged_whole_and_stored_cut_with_a_marker() throws Exception {
        String huge = "x".repeat(StoredText.LIMIT + 500_000) + " Paris";
        script.put("long answer", List.of(text(huge)));

        Run run = run(
                List.of(evalCase("long", "common", "long answer please", "contains", "\"Paris\"")), ToolMode.NATIVE);

        Item item = items(run).get("long");
        // "Paris" is past the cap: only the whole answer in memory passes the check.
        assertThat(item.status()).isEqualTo(ItemStatus.PASSED);
        assertThat(item.truncated()).isTrue();
        assertThat(item.finalAnswer())
                .startsWith("xxxx")
                .doesNotContain("Paris")
                .endsWith("[truncated by Assay: 500006 of " + huge.length() + " characters not stored]");
        assertThat(item.finalAnswer().length()).isLessThan(StoredText.LIMIT + 100);
        // Every copy of the answer (final answer, transcript events, checker evidence: four in all) is capped, so
        // the item is bounded by a few caps whatever the answer's size; uncapped it would hold 6 Mi characters.
        assertThat(Json.write(item).length()).isLessThan(5 * StoredText.LIMIT);
        assertThat(Json.write(item.transcript())).doesNotContain("Paris").contains("[truncated by Assay: ");
    }

    @Test
    void a_case_past_its_timeout_is_an_error_and_others_still_pass() throws Exception {
        script.put("slow", List.of(new Reply.Delayed(5_000, text("late"))));
        script.put("quick", List.of(text("ok")));
        var slow = new Case(
                "slow",
                "common",
                "",
                "slow case",
                1,
                Duration.ofMillis(500),
                List.of(Check.of("contains", Json.parse("\"late\""))),
                List.of(),
                List.of(),
                Map.of(),
                null,
                null);
        Run run = run(List.of(slow, evalCase("quick", "common", "quick case", "contains", "\"ok\"")), ToolMode.NATIVE);
        var items = items(run);
        assertThat(items.get("slow").status()).isEqualTo(ItemStatus.ERROR);
        assertThat(items.get("slow").error().type()).isIn("target.timeout", "target.connection");
        assertThat(items.get("slow").elapsedS()).isLessThan(4.0);
        assertThat(items.get("quick").status()).isEqualTo(ItemStatus.PASSED);
    }

    @Test
    void cases_whose_prerequisites_the_subject_lacks_are_skipped_and_leave_the_denominator() throws Exception {
        script.put("fine", List.of(text("ok")));
        var needsMcp = new Case(
                "mcp",
                "tool",
                "",
                "use the weather tool",
                1,
                null,
                List.of(Check.of("tool_called", Json.parse("\"weather@forecast\""))),
                List.of("weather@forecast"),
                List.of("mcp"),
                Map.of(),
                null,
                null);
        Run run = run(List.of(needsMcp, evalCase("fine", "tool", "fine case", "contains", "\"ok\"")), ToolMode.NATIVE);
        Item skipped = items(run).get("mcp");
        assertThat(skipped.status()).isEqualTo(ItemStatus.SKIPPED);
        assertThat(skipped.error().type()).isEqualTo("case.missing_tools");
        assertThat(skipped.error().details().get("missing_tools"))
                .asInstanceOf(InstanceOfAssertFactories.LIST)
                .containsExactly("weather@forecast");
        assertThat(run.dimensionScores()).containsEntry("tool", 1.0);
        assertThat(run.counts().skipped()).isEqualTo(1);
        assertThat(server.requests()).noneMatch(body -> body.toString().contains("weather tool"));
    }

    @Test
    void cancelling_keeps_finished_items_and_stores_the_run_as_cancelled() throws Exception {
        script.put("quick", List.of(text("ok")));
        script.put("slow", List.of(new Reply.Delayed(10_000, text("late"))));
        var cases = new ArrayList<Case>();
        cases.add(evalCase("quick", "common", "quick case", "contains", "\"ok\""));
        for (int i = 0; i < 5; i++) {
            cases.add(evalCase("slow_" + i, "common", "slow case " + i, "contains", "\"ok\""));
        }
        RunHandle handle = start(cases, ToolMode.NATIVE, 1, Duration.ofSeconds(30));
        long deadline = System.currentTimeMillis() + 10_000;
        // Cancel once the first slow case is in flight, i.e. its request has reached the model.
        while (server.requests().stream().noneMatch(body -> body.toString().contains("slow case 0"))
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertThat(handle.cancel()).isTrue();
        Run run = handle.await();
        assertThat(run.status()).isEqualTo(RunStatus.CANCELLED);
        var items = items(run);
        assertThat(items.get("quick").status()).isEqualTo(ItemStatus.PASSED);
        assertThat(items.get("slow_0").status()).isEqualTo(ItemStatus.CANCELLED);
        assertThat(items).doesNotContainKey("slow_4");
        // The final record is written after the interrupted case stored itself, so it counts it.
        assertThat(run.counts().cancelled()).isEqualTo(1);
        assertThat(run.counts().passed()).isEqualTo(1);
        assertThat(store.findRun(run.runId()).orElseThrow().status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(run.dimensionScores()).containsEntry("common", 1.0);
    }

    @Test
    void a_case_cancelled_while_its_checks_run_is_stored_as_cancelled() throws Exception {
        var checking = new CountDownLatch(1);
        RunHandle handle = startWithChecker("judged", context -> {
            checking.countDown();
            Thread.sleep(30_000);
            return Verdict.passed(null);
        });
        assertThat(checking.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(handle.cancel()).isTrue();
        Run run = handle.await();

        assertThat(items(run).get("judged").status()).isEqualTo(ItemStatus.CANCELLED);
        assertThat(run.counts().cancelled()).isEqualTo(1);
    }

    @Test
    void a_checker_that_overflows_the_stack_gives_an_error_item_and_the_run_goes_on() throws Exception {
        Run run = startWithChecker("deep", context -> {
                    throw new StackOverflowError();
                })
                .await();

        Item item = items(run).get("deep");
        assertThat(item.status()).isEqualTo(ItemStatus.ERROR);
        assertThat(item.error().type()).isEqualTo("check.internal_error");
    }

    @Test
    void checks_are_told_how_long_the_system_under_test_took_for_latency_assertions() throws Exception {
        var seen = new java.util.concurrent.atomic.AtomicReference<Duration>();
        Run run = startWithChecker("timed", context -> {
                    seen.set(context.subjectTime());
                    return dev.assay.check.Verdict.passed(null);
                })
                .await();

        Item item = items(run).get("timed");
        assertThat(item.status()).isEqualTo(ItemStatus.PASSED);
        assertThat(seen.get()).isNotNull().isPositive();
        // Within the item's time, which is kept to the millisecond.
        assertThat(seen.get().toMillis())
                .isLessThanOrEqualTo(
                        Duration.between(item.startedAt(), item.finishedAt()).toMillis() + 1);
    }

    @Test
    void a_case_that_fails_inside_the_engine_is_still_stored_as_an_error_item() throws Exception {
        // A plug-in's skipped verdict without the reason type that a stored problem needs.
        Run run = startWithChecker("untyped", context -> new Verdict(Verdict.Status.SKIPPED, 0, null, "skipped", null))
                .await();

        Item item = items(run).get("untyped");
        assertThat(item.status()).isEqualTo(ItemStatus.ERROR);
        assertThat(item.error().type()).isEqualTo("run.internal_error");
        assertThat(run.counts().error()).isEqualTo(1);
    }

    @Test
    void placeholders_and_suite_fixtures_reach_the_workspace_and_the_checks() throws Exception {
        script.put(
                "summarise",
                List.of(calls(Call.of("read_file", "{\"path\": \"eval/RUN/fixtures/alpha.txt\"}")), text("beta")));
        var evalCase = Case.of(
                "fixture",
                "complex",
                "summarise eval/{run_id}/fixtures/alpha.txt",
                Check.of("file_exists", Json.parse("\"eval/{run_id}/fixtures/alpha.txt\"")));
        var suite = new Suite(
                "fixtures",
                "v1",
                List.of(evalCase),
                Map.of("eval/{run_id}/fixtures/alpha.txt", "alpha beta gamma\n"),
                List.of());
        var model = new OpenAiChatModel(
                new OpenAiSettings("scripted", server.baseUrl(), "", false, null, RetryPolicy.none()), line -> {});
        var subject = new AgentSubject(model, BuiltinTools.all(new UnsandboxedSandbox()), AgentSettings.defaults(), 4);
        Run run = new Engine(store)
                .run(
                        new RunPlan(suite, subject, TestSpecs.config(temp.resolve("work")), CheckerRegistry.builtins()),
                        RunListener.NONE);
        Item item = items(run).get("fixture");
        assertThat(item.status()).isEqualTo(ItemStatus.PASSED);
        assertThat(item.prompt()).isEqualTo("summarise eval/" + run.runId() + "/fixtures/alpha.txt");
    }

    @Test
    void listeners_see_every_item_and_the_final_record() throws Exception {
        script.put("fine", List.of(text("ok")));
        var seen = new CopyOnWriteArrayList<String>();
        var model = new OpenAiChatModel(
                new OpenAiSettings("scripted", server.baseUrl(), "", false, null, RetryPolicy.none()), line -> {});
        var subject = new AgentSubject(model, List.of(), AgentSettings.defaults(), 4);
        Function<Integer, Case> make = i -> evalCase("fine_" + i, "common", "fine case " + i, "contains", "\"ok\"");
        var suite = new Suite("listen", "v1", List.of(make.apply(1), make.apply(2)), Map.of(), List.of());
        new Engine(store)
                .run(
                        new RunPlan(suite, subject, TestSpecs.config(temp.resolve("work")), CheckerRegistry.builtins()),
                        new RunListener() {
                            @Override
                            public void itemFinished(Run run, Item item) {
                                seen.add(item.caseId());
                            }

                            @Override
                            public void runFinished(Run run) {
                                seen.add("finished:" + run.counts().passed());
                                throw new IllegalStateException("a failing listener must not break the run");
                            }
                        });
        assertThat(seen).containsExactlyInAnyOrder("fine_1", "fine_2", "finished:2");
    }

    @Test
    void a_case_judged_frees_its_slot_for_the_next_while_its_item_waits_to_be_stored() throws Exception {
        script.put("slot", List.of(text("ok")));
        var model = new OpenAiChatModel(
                new OpenAiSettings("scripted", server.baseUrl(), "", false, null, RetryPolicy.none()), line -> {});
        var subject = new AgentSubject(model, List.of(), AgentSettings.defaults(), 4);
        Function<String, Case> make = id -> evalCase(id, "common", "slot case " + id, "contains", "\"ok\"");
        var suite = new Suite("slots", "v1", List.of(make.apply("first"), make.apply("second")), Map.of(), List.of());
        var plan = new RunPlan(
                suite,
                subject,
                TestSpecs.config(temp.resolve("work"), settings -> settings.concurrency(1)),
                CheckerRegistry.builtins());
        var firstStoring = new CountDownLatch(1);
        var storeMayEnd = new CountDownLatch(1);
        var secondStarted = new CountDownLatch(1);
        // The first item's store does not end until the second case has started: one slot, so the second can start
        // only if the first gave its slot back once judged, its item still waiting for the store.
        Workload slowStore = new DelegatingWorkload(new CaseWorkload(plan)) {
            @Override
            public void stored(Item item) {
                if (item.caseId().equals("first")) {
                    firstStoring.countDown();
                    try {
                        storeMayEnd.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                super.stored(item);
            }
        };
        RunHandle handle = new Engine(store).start(slowStore, new RunListener() {
            @Override
            public void itemStarted(Run run, String itemId, String prompt) {
                if (itemId.equals("second")) {
                    secondStarted.countDown();
                }
            }
        });
        assertThat(firstStoring.await(30, TimeUnit.SECONDS)).isTrue();
        boolean startedWhileStoring = secondStarted.await(30, TimeUnit.SECONDS);
        storeMayEnd.countDown();
        Run run = handle.await();
        assertThat(startedWhileStoring).isTrue();
        assertThat(run.status()).isEqualTo(RunStatus.FINISHED);
        assertThat(run.counts().passed()).isEqualTo(2);
    }

    @Test
    void an_item_judged_before_the_run_is_cancelled_is_stored_and_counted_though_its_store_was_still_under_way()
            throws Exception {
        script.put("quick", List.of(text("ok")));
        // The second case is still running when the run is cancelled: it is the one the cancellation stops.
        script.put("slow", List.of(new Reply.Delayed(10_000, text("late"))));
        var firstStoring = new CountDownLatch(1);
        var storeMayEnd = new CountDownLatch(1);
        // A store whose commit of the first item takes until the test lets it end, as a slow database's would; like a
        // JDBC call, it does not give up when its thread is interrupted.
        Store slowStore = (Store) Proxy.newProxyInstance(
                Store.class.getClassLoader(), new Class<?>[] {Store.class}, (proxy, method, arguments) -> {
                    if (method.getName().equals("saveAll")
                            && arguments[1] instanceof List<?> items
                            && items.stream()
                                    .anyMatch(item -> ((Item) item).caseId().equals("first"))) {
                        firstStoring.countDown();
                        boolean interrupted = false;
                        while (true) {
                            try {
                                storeMayEnd.await();
                                break;
                            } catch (InterruptedException e) {
                                interrupted = true;
                            }
                        }
                        if (interrupted) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    try {
                        return method.invoke(store, arguments);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        var plan = new RunPlan(
                new Suite(
                        "slots",
                        "v1",
                        List.of(
                                evalCase("first", "common", "quick case", "contains", "\"ok\""),
                                evalCase("second", "common", "slow case", "contains", "\"ok\"")),
                        Map.of(),
                        List.of()),
                new AgentSubject(
                        new OpenAiChatModel(
                                new OpenAiSettings("scripted", server.baseUrl(), "", false, null, RetryPolicy.none()),
                                line -> {}),
                        List.of(),
                        AgentSettings.defaults(),
                        4),
                TestSpecs.config(temp.resolve("work"), settings -> settings.concurrency(1)),
                CheckerRegistry.builtins());
        var secondStarted = new CountDownLatch(1);
        RunHandle handle = new Engine(slowStore).start(new CaseWorkload(plan), new RunListener() {
            @Override
            public void itemStarted(Run run, String itemId, String prompt) {
                if (itemId.equals("second")) {
                    secondStarted.countDown();
                }
            }
        });
        assertThat(firstStoring.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(secondStarted.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(handle.cancel()).isTrue();
        storeMayEnd.countDown();
        Run run = handle.await();
        assertThat(run.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(items(run).get("first").status()).isEqualTo(ItemStatus.PASSED);
        assertThat(run.counts().passed()).isEqualTo(1);
        assertThat(run.counts().cancelled()).isEqualTo(1);
    }

    /** A workload that does what another does, for a test to change one step. */
    private static class DelegatingWorkload implements Workload {
        private final Workload delegate;

        DelegatingWorkload(Workload delegate) {
            this.delegate = delegate;
        }

        @Override
        public String requestedRunId() {
            return delegate.requestedRunId();
        }

        @Override
        public Run newRun(String runId, java.time.Instant started) {
            return delegate.newRun(runId, started);
        }

        @Override
        public void register(Store store, java.time.Instant started) {
            delegate.register(store, started);
        }

        @Override
        public int itemCount() {
            return delegate.itemCount();
        }

        @Override
        public int concurrency() {
            return delegate.concurrency();
        }

        @Override
        public dev.assay.score.Weights weights() {
            return delegate.weights();
        }

        @Override
        public WorkItem item(int seq) {
            return delegate.item(seq);
        }

        @Override
        public void stored(Item item) {
            delegate.stored(item);
        }

        @Override
        public Run conclude(Run ended, Store store) {
            return delegate.conclude(ended, store);
        }
    }
}
