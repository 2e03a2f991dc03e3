package dev.assay.subject.sse.internal;

import static dev.assay.testing.ScriptedSseAgent.event;
import static dev.assay.testing.ScriptedSseAgent.events;
import static dev.assay.testing.ScriptedSseAgent.failure;
import static dev.assay.testing.ScriptedSseAgent.multilineEvent;
import static dev.assay.testing.ScriptedSseAgent.pause;
import static dev.assay.testing.ScriptedSseAgent.writeFile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.cases.Suite;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.RetryPolicy;
import dev.assay.report.RunReport;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.run.Engine;
import dev.assay.run.RunHandle;
import dev.assay.run.RunListener;
import dev.assay.run.RunPlan;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.subject.sse.EventMapping;
import dev.assay.subject.sse.SseAgentSettings;
import dev.assay.testing.CutStreamServer;
import dev.assay.testing.ScriptedSseAgent;
import dev.assay.testing.ScriptedSseAgent.Reply;
import dev.assay.testing.TestSpecs;
import dev.assay.transcript.Transcript;
import dev.assay.transcript.TranscriptEvent;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SSE agent target end to end: a wunder-style agent service on loopback, the real engine, the real checkers and a
 * SQLite store.
 */
class SseAgentSubjectTest {
    @TempDir
    Path temp;

    private Store store;
    private ScriptedSseAgent agent;
    private final Map<String, Reply> script = new LinkedHashMap<>();

    @BeforeEach
    void start() {
        store = Stores.open("jdbc:sqlite:" + temp.resolve("assay.db"));
        agent = ScriptedSseAgent.start(
                ScriptedSseAgent.byPrompt(script, events(event("final", "{\"answer\": \"no script\"}"))));
    }

    @AfterEach
    void stop() {
        agent.close();
        store.close();
    }

    private SseAgentSettings settings() {
        return settings(agent);
    }

    private static SseAgentSettings settings(ScriptedSseAgent service) {
        return new SseAgentSettings(
                URI.create(service.url()),
                null,
                "qwen-test",
                "zh-CN",
                List.of(),
                null,
                (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse("{\"max_rounds\": 4}"),
                null,
                null,
                true,
                null,
                Duration.ofSeconds(5),
                new RetryPolicy(3, Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofSeconds(2)),
                8);
    }

    private RunHandle start(SseAgentSettings settings, Map<String, String> env, Duration timeout, Case... cases)
            throws InterruptedException {
        var subject = SseAgentSubject.open(settings, env::get);
        var suite = new Suite("sse-test", "v1", List.of(cases), Map.of(), List.of());
        var config = TestSpecs.config(temp.resolve("shared"), given -> given.timeout(timeout));
        return new Engine(store)
                .start(new RunPlan(suite, subject, config, CheckerRegistry.builtins()), RunListener.NONE);
    }

    private Map<String, Item> run(Case... cases) throws InterruptedException {
        return items(start(settings(), Map.of(), Duration.ofSeconds(10), cases).await());
    }

    private Map<String, Item> items(Run run) {
        var byCase = new LinkedHashMap<String, Item>();
        RunReport.load(store, run.runId()).items().forEach(item -> byCase.put(item.caseId(), item));
        return byCase;
    }

    private static Case evalCase(String id, String dimension, String prompt, String checker, String expectedJson) {
        return Case.of(id, dimension, prompt, Check.of(checker, Json.parse(expectedJson)));
    }

    private static Transcript transcript(Item item) {
        return Transcript.fromJson(item.transcript());
    }

    @Test
    void tool_call_events_are_canonicalised_and_judged_by_the_tool_checkers() throws Exception {
        script.put(
                "read alpha",
                events(
                        event("progress", "{\"stage\": \"start\"}"),
                        event("tool_call", "{\"tool\": \"读取文件\", \"args\": {\"path\": \"fixtures/alpha.txt\"}}"),
                        event("tool_result", "{\"tool\": \"读取文件\", \"ok\": true, \"data\": \"alpha beta gamma\"}"),
                        event(
                                "llm_output",
                                "{\"content\": \"It says alpha beta gamma.\", \"usage\": "
                                        + "{\"input_tokens\": 12, \"output_tokens\": 5}}"),
                        event("final", "{\"answer\": \"alpha beta gamma\", \"stop_reason\": \"model_response\"}")));
        var check = new Case(
                "read",
                "tool",
                "",
                "read alpha",
                1,
                null,
                List.of(Check.of(
                        "tool_args",
                        Json.parse("{\"tool\": \"read_file\", \"args\": {\"path\": " + "\"fixtures/alpha.txt\"}}"))),
                List.of(),
                List.of(),
                Map.of(),
                null,
                null);

        Item item = run(check).get("read");

        assertThat(item.status()).isEqualTo(ItemStatus.PASSED);
        assertThat(item.toolCalls()).singleElement().satisfies(call -> {
            assertThat(call.name()).isEqualTo("read_file");
            assertThat(call.ok()).isTrue();
        });
        Transcript transcript = transcript(item);
        assertThat(transcript.toolCalls())
                .singleElement()
                .satisfies(call -> assertThat(call.rawName()).isEqualTo("读取文件"));
        assertThat(transcript.usage().inputTokens()).isEqualTo(12);
        assertThat(item.finalAnswer()).isEqualTo("alpha beta gamma");
    }

    @Test
    void the_final_answer_comes_from_the_final_event_and_is_judged() throws Exception {
        script.put(
                "capital",
                events(
                        event("llm_output_delta", "{\"delta\": \"The answer\"}"),
                        event("llm_output", "{\"content\": \"The answer is Paris.\"}"),
                        multilineEvent("final", "{\"answer\": \"Paris\"}")));
        script.put("colour", events(event("final", "{\"answer\": \"red\"}")));

        var items = run(
                evalCase("capital", "common", "capital of France?", "exact", "\"Paris\""),
                evalCase("colour", "common", "colour of the sky?", "exact", "\"blue\""));

        assertThat(items.get("capital").status()).isEqualTo(ItemStatus.PASSED);
        assertThat(items.get("colour").status()).isEqualTo(ItemStatus.FAILED);
    }

    @Test
    void streamed_deltas_without_a_final_event_become_the_answer() throws Exception {
        script.put(
                "spell",
                events(
                        event("llm_output_delta", "{\"delta\": \"ban\"}"),
                        event("llm_output_delta", "{\"delta\": \"ana\"}")));

        Item item = run(evalCase("spell", "common", "spell banana", "exact", "\"banana\""))
                .get("spell");

        assertThat(item.status()).isEqualTo(ItemStatus.PASSED);
    }

    @Test
    void an_agent_writing_into_the_shared_workspace_is_judged_by_the_file_checkers() throws Exception {
        script.put(
                "write report",
                events(
                        event("tool_call", "{\"tool\": \"write_file\", \"args\": {\"path\": \"outputs/report.txt\"}}"),
                        writeFile("outputs/report.txt", "quarterly report: revenue up\n"),
                        event("tool_result", "{\"tool\": \"write_file\", \"ok\": true, \"data\": \"written\"}"),
                        event("final", "{\"answer\": \"done\"}")));

        Item item = run(evalCase(
                        "report",
                        "complex",
                        "write report",
                        "file_contains",
                        "{\"path\": \"outputs/report.txt\", \"contains\": \"revenue up\"}"))
                .get("report");

        assertThat(item.status()).isEqualTo(ItemStatus.PASSED);
        assertThat(agent.requests().get(0).body().path("workspace").asText())
                .startsWith(temp.resolve("shared").toAbsolutePath().toString());
    }

    /**
     * docs/checkers.md, difference G1: a service that works in the shared workspace finds the suite's fixtures there
     * before it answers (the reference's own {@code eval/{run_id}/fixtures}), and the file checkers read what it wrote.
     */
    @Test
    void the_fixtures_are_seeded_into_the_shared_workspace_the_service_is_given() throws Exception {
        String runId = "0123456789abcdef0123456789abcdef";
        Path fixture = Path.of("eval", runId, "fixtures", "alpha.txt");
        try (var service = ScriptedSseAgent.start(body -> {
            Path workspace = Path.of(body.path("workspace").asText());
            String seeded;
            try {
                seeded = java.nio.file.Files.readString(workspace.resolve(fixture));
            } catch (java.io.IOException e) {
                seeded = "missing: " + e;
            }
            return events(
                    writeFile("eval/" + runId + "/outputs/complex_summary.txt", seeded),
                    event("final", Json.object().put("answer", seeded).toString()));
        })) {
            var summary = new Case(
                    "complex_summary",
                    "complex",
                    "",
                    "Summarise eval/{run_id}/fixtures/alpha.txt",
                    1,
                    null,
                    List.of(
                            Check.of(
                                    "file_contains",
                                    Json.parse(
                                            "{\"path\": "
                                                    + "\"eval/{run_id}/outputs/complex_summary.txt\", \"contains\": \"beta\"}")),
                            Check.of("contains", Json.parse("\"alpha beta gamma\""))),
                    List.of(),
                    List.of(),
                    Map.of(),
                    null,
                    null);
            var suite = new Suite(
                    "reference-shape",
                    "v1",
                    List.of(summary),
                    Map.of("eval/{run_id}/fixtures/alpha.txt", "alpha beta gamma\n"),
                    List.of());
            var config = TestSpecs.config(temp.resolve("shared")).withRunId(runId);
            Run run = new Engine(store)
                    .start(
                            new RunPlan(
                                    suite,
                                    SseAgentSubject.open(settings(service), Map.<String, String>of()::get),
                                    config,
                                    CheckerRegistry.builtins()),
                            RunListener.NONE)
                    .await();

            Item item = items(run).get("complex_summary");
            assertThat(item.status()).as(item.checkerDetail().toString()).isEqualTo(ItemStatus.PASSED);
            assertThat(item.finalAnswer()).isEqualTo("alpha beta gamma");
        }
    }

    @Test
    void files_returned_in_the_final_event_are_written_into_the_case_workspace() throws Exception {
        script.put(
                "make json",
                events(event(
                        "final",
                        "{\"answer\": \"ok\", \"files\": {\"out/data.json\": \"{\\\"name\\\": \\\"assay\\\"}\"}}")));

        Item item = run(evalCase(
                        "json",
                        "complex",
                        "make json",
                        "json_contains",
                        "{\"path\": \"out/data.json\", \"required\": {\"name\": \"assay\"}}"))
                .get("json");

        assertThat(item.status()).isEqualTo(ItemStatus.PASSED);
    }

    @Test
    void an_error_event_mid_stream_makes_the_item_an_error_with_its_code_and_keeps_earlier_events() throws Exception {
        script.put(
                "fail",
                events(
                        event("tool_call", "{\"tool\": \"list\", \"args\": {\"path\": \".\"}}"),
                        event("error", "{\"code\": \"LLM_UNAVAILABLE\", \"message\": \"model down\"}"),
                        event("final", "{\"answer\": \"never read\"}")));

        Item item =
                run(evalCase("fail", "common", "fail please", "exact", "\"x\"")).get("fail");

        assertThat(item.status()).isEqualTo(ItemStatus.ERROR);
        assertThat(item.error().type()).isEqualTo("target.agent_error");
        assertThat(item.error().details()).containsEntry("code", "LLM_UNAVAILABLE");
        assertThat(item.toolCalls())
                .singleElement()
                .satisfies(call -> assertThat(call.name()).isEqualTo("list_files"));
        assertThat(transcript(item).events()).noneMatch(TranscriptEvent.FinalAnswer.class::isInstance);
    }

    @Test
    void an_event_whose_data_is_not_json_makes_the_item_an_error() throws Exception {
        script.put("garbled", events(new ScriptedSseAgent.Step.Raw("event: final\ndata: {not json\n\n")));

        Item item = run(evalCase("garbled", "common", "garbled answer", "exact", "\"x\""))
                .get("garbled");

        assertThat(item.status()).isEqualTo(ItemStatus.ERROR);
        assertThat(item.error().type()).isEqualTo("target.malformed_event");
    }

    @Test
    void a_stream_whose_connection_breaks_is_a_truncated_error_in_plain_words() throws Exception {
        try (var cut = CutStreamServer.start("event: llm_output_delta\ndata: {\"delta\": \"half an ans\"}\n\n")) {
            var settings = new SseAgentSettings(
                    URI.create(cut.url("/wunder")),
                    null,
                    "qwen-test",
                    "zh-CN",
                    List.of(),
                    null,
                    null,
                    null,
                    null,
                    true,
                    null,
                    Duration.ofSeconds(5),
                    settings().retry(),
                    8);

            Item item = items(start(
                                    settings,
                                    Map.of(),
                                    Duration.ofSeconds(10),
                                    evalCase("cut", "common", "cut answer", "exact", "\"x\""))
                            .await())
                    .get("cut");

            assertThat(item.status()).isEqualTo(ItemStatus.ERROR);
            assertThat(item.error().type()).isEqualTo("target.truncated");
            assertThat(item.error().message()).doesNotContain("Exception").doesNotContain("java.");
        }
    }

    @Test
    void a_stream_slower_than_the_case_deadline_times_out_and_is_closed() throws Exception {
        script.put(
                "slow",
                events(
                        event("llm_output_delta", "{\"delta\": \"thinking\"}"),
                        pause(10_000),
                        event("final", "{\"answer\": \"late\"}")));
        long started = System.nanoTime();

        Run run = start(
                        settings(),
                        Map.of(),
                        Duration.ofMillis(700),
                        evalCase("slow", "common", "slow answer", "exact", "\"late\""))
                .await();

        Item item = items(run).get("slow");
        assertThat(item.status()).isEqualTo(ItemStatus.ERROR);
        assertThat(item.error().type()).isEqualTo("target.timeout");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        awaitAbandoned(1);
    }

    @Test
    void cancelling_the_run_closes_an_open_stream() throws Exception {
        script.put("slow", events(pause(10_000), event("final", "{\"answer\": \"late\"}")));
        RunHandle handle = start(
                settings(),
                Map.of(),
                Duration.ofSeconds(30),
                evalCase("slow", "common", "slow answer", "exact", "\"late\""));
        while (agent.requests().isEmpty()) {
            Thread.sleep(10);
        }

        handle.cancel();
        Run run = handle.await();

        assertThat(run.status()).isEqualTo(RunStatus.CANCELLED);
        awaitAbandoned(1);
    }

    private void awaitAbandoned(int streams) throws InterruptedException {
        long until = System.currentTimeMillis() + 3000;
        while (agent.abandonedStreams() < streams && System.currentTimeMillis() < until) {
            Thread.sleep(20);
        }
        assertThat(agent.abandonedStreams()).isEqualTo(streams);
    }

    @Test
    void server_errors_before_the_stream_are_retried() throws Exception {
        agent.inject(failure(503), new Reply.Failure(429, Map.of("Retry-After", "0")));
        script.put("capital", events(event("final", "{\"answer\": \"Paris\"}")));

        Item item = run(evalCase("capital", "common", "capital of France?", "exact", "\"Paris\""))
                .get("capital");

        assertThat(item.status()).isEqualTo(ItemStatus.PASSED);
        assertThat(agent.requests()).hasSize(3);
    }

    @Test
    void a_client_error_is_not_retried_and_becomes_the_items_error() throws Exception {
        agent.inject(failure(400));

        Item item = run(evalCase("bad", "common", "anything", "exact", "\"x\"")).get("bad");

        assertThat(item.status()).isEqualTo(ItemStatus.ERROR);
        assertThat(item.error().type()).isEqualTo("target.http_error");
        assertThat(item.error().details()).containsEntry("status", 400).containsEntry("attempts", 1);
    }

    /** Settings whose credential is read from {@code AGENT_TOKEN}, offering {@code toolNames}. */
    private SseAgentSettings credentialed(List<String> toolNames) {
        return new SseAgentSettings(
                URI.create(agent.url()),
                null,
                "qwen-test",
                "",
                toolNames,
                null,
                null,
                null,
                "AGENT_TOKEN",
                false,
                null,
                null,
                RetryPolicy.none(),
                1);
    }

    @Test
    void a_credential_the_agent_echoes_is_masked_in_the_stored_item() throws Exception {
        script.put("who are you", events(event("final", "{\"answer\": \"I was called with agent-s3cret-token\"}")));

        Run run = start(
                        credentialed(List.of()),
                        Map.of("AGENT_TOKEN", "agent-s3cret-token"),
                        Duration.ofSeconds(10),
                        evalCase("echo", "common", "who are you", "contains", "\"called\""))
                .await();

        Item item = items(run).get("echo");
        assertThat(item.finalAnswer()).isEqualTo("I was called with ***");
        assertThat(Json.write(item.transcript())).doesNotContain("agent-s3cret-token");
    }

    @Test
    void a_credential_the_agent_echoes_in_base64_or_with_a_character_more_is_masked_in_the_stored_item()
            throws Exception {
        String token = "agt_Qm7xT2vLk9WcR4nB8yHd3ZsF";
        String basic = java.util.Base64.getEncoder()
                .encodeToString(("user:" + token).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        script.put(
                "who are you",
                events(event(
                        "final",
                        Json.write(Map.of(
                                "answer", "Basic " + basic + " and " + token + "X and " + token.substring(2))))));

        Run run = start(
                        credentialed(List.of()),
                        Map.of("AGENT_TOKEN", token),
                        Duration.ofSeconds(10),
                        evalCase("echo", "common", "who are you", "contains", "\"and\""))
                .await();

        Item item = items(run).get("echo");
        String stored = item.finalAnswer() + Json.write(item.transcript());
        assertThat(stored).doesNotContain(basic.substring(8, 28)).doesNotContain(token.substring(4, 16));
        assertThat(item.finalAnswer()).contains("***");
    }

    @Test
    void the_request_is_the_reference_body_with_the_credential_from_the_named_variable() throws Exception {
        start(
                        credentialed(List.of("read", "写入文件")),
                        Map.of("AGENT_TOKEN", "s3cret"),
                        Duration.ofSeconds(10),
                        new Case(
                                "q",
                                "logic",
                                "en-US",
                                "what is 2+2?",
                                1,
                                null,
                                List.of(Check.of("exact", Json.parse("\"4\""))),
                                List.of(),
                                List.of(),
                                Map.of(),
                                null,
                                null))
                .await();

        var request = agent.requests().get(0);
        JsonNode body = request.body();
        assertThat(body.path("question").asText()).isEqualTo("what is 2+2?");
        assertThat(body.path("user_id").asText()).isNotBlank();
        assertThat(body.path("stream").asBoolean()).isTrue();
        assertThat(body.path("session_id").asText()).endsWith("_q");
        assertThat(body.path("model_name").asText()).isEqualTo("qwen-test");
        assertThat(body.path("language").asText()).isEqualTo("en-US");
        assertThat(body.path("tool_names")).isEqualTo(Json.parse("[\"read\", \"写入文件\"]"));
        assertThat(body.path("config_overrides").isObject()).isTrue();
        assertThat(body.has("workspace")).isFalse();
        assertThat(request.header("Authorization")).isEqualTo("Bearer s3cret");
    }

    @Test
    void the_snapshot_names_the_credentials_variable_but_never_holds_its_value() throws Exception {
        var settings = new SseAgentSettings(
                URI.create(agent.url()),
                null,
                "",
                "",
                List.of(),
                null,
                null,
                "X-API-Key",
                "AGENT_TOKEN",
                false,
                null,
                null,
                null,
                1);

        var subject = SseAgentSubject.open(settings, Map.of("AGENT_TOKEN", "s3cret")::get);

        assertThat(Json.write(subject.describe())).contains("AGENT_TOKEN").doesNotContain("s3cret");
    }

    @Test
    void a_missing_credential_variable_stops_before_any_case() {
        var settings = new SseAgentSettings(
                URI.create(agent.url()),
                null,
                "",
                "",
                List.of(),
                null,
                null,
                null,
                "AGENT_TOKEN",
                false,
                null,
                null,
                null,
                1);

        assertThatThrownBy(() -> SseAgentSubject.open(settings, Map.<String, String>of()::get))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("target.missing_api_key"));
    }

    @Test
    void the_tool_list_is_discovered_and_canonicalised() throws Exception {
        var settings = new SseAgentSettings(
                URI.create(agent.url()),
                null,
                "",
                "",
                List.of(),
                URI.create(agent.toolsUrl()),
                null,
                null,
                null,
                false,
                null,
                null,
                null,
                1);

        var subject = SseAgentSubject.open(settings, Map.<String, String>of()::get);

        assertThat(subject.toolNames()).containsExactlyInAnyOrder("read_file", "write_file", "docs@search");
    }

    /**
     * docs/checkers.md, difference T4: the reference keeps a string argument as a string, so its subset match fails.
     */
    @Test
    void arguments_sent_as_a_json_string_are_judged_as_the_object_they_encode() throws Exception {
        script.put(
                "save s",
                events(
                        event("tool_call", "{\"tool\": \"write_file\", \"args\": \"{\\\"path\\\": \\\"s.txt\\\"}\"}"),
                        event("final", "{\"answer\": \"saved\"}")));

        Item item = run(evalCase(
                        "save",
                        "tool",
                        "save s",
                        "tool_args",
                        "{\"tool\": \"write_file\", \"required\": {\"path\": \"s.txt\"}}"))
                .get("save");

        assertThat(item.status()).as(item.checkerDetail().toString()).isEqualTo(ItemStatus.PASSED);
    }

    /**
     * docs/checkers.md, difference T3: Assay cannot see what a service offers, so without {@code --agent-tools} it
     * assumes its own built-ins, and a case needing the reference's {@code apply_patch} is skipped until the tool is
     * named.
     */
    @Test
    void an_agent_service_offers_assays_built_ins_unless_its_tools_are_named() throws Exception {
        var base = settings();
        var naming = new SseAgentSettings(
                base.url(),
                null,
                "",
                "",
                List.of("apply_patch", "读取文件"),
                null,
                null,
                null,
                null,
                false,
                null,
                null,
                null,
                1);

        assertThat(SseAgentSubject.open(base, Map.<String, String>of()::get).toolNames())
                .containsAll(dev.assay.tools.ToolNames.BUILTIN)
                .doesNotContain("apply_patch");
        assertThat(SseAgentSubject.open(naming, Map.<String, String>of()::get).toolNames())
                .containsExactlyInAnyOrder("apply_patch", "read_file");
    }

    @Test
    void cases_needing_tools_the_agent_lacks_are_skipped() throws Exception {
        var settings = new SseAgentSettings(
                URI.create(agent.url()),
                null,
                "",
                "",
                List.of("read_file"),
                null,
                null,
                null,
                null,
                false,
                null,
                null,
                null,
                1);
        var evalCase = evalCase("exec", "tool", "run ls", "tool_called", "\"execute_command\"");

        Run run = start(settings, Map.of(), Duration.ofSeconds(10), evalCase).await();

        assertThat(items(run).get("exec").status()).isEqualTo(ItemStatus.SKIPPED);
        assertThat(agent.requests()).isEmpty();
    }

    @Test
    void a_service_with_other_event_names_and_paths_is_read_through_the_mapping() throws Exception {
        script.put(
                "weather",
                events(
                        event(
                                "ToolUse",
                                "{\"function\": {\"name\": \"bash\", \"input\": {\"command\": \"curl wttr.in\"}}}"),
                        event("Done", "{\"result\": {\"text\": \"sunny\"}}")));
        var mapping = new EventMapping(
                Map.of("tool_call", "ToolUse", "final", "Done"),
                Map.of(
                        "tool_call.tool",
                        "/function/name",
                        "tool_call.args",
                        "/function/input",
                        "final.answer",
                        "/result/text"));
        var base = settings();
        var settings = new SseAgentSettings(
                base.url(),
                Json.parse(
                        "{\"input\": \"{{prompt}}\", \"sid\": " + "\"{{session_id}}\", \"tools\": \"{{tool_names}}\"}"),
                "",
                "",
                List.of(),
                null,
                null,
                null,
                null,
                false,
                mapping,
                null,
                null,
                1);
        var evalCase = new Case(
                "weather",
                "tool",
                "",
                "weather today",
                1,
                null,
                List.of(
                        Check.of("tool_called", Json.parse("\"execute_command\"")),
                        Check.of("exact", Json.parse("\"sunny\""))),
                List.of(),
                List.of(),
                Map.of(),
                null,
                null);
        var agentForForeignShape = ScriptedSseAgent.start(
                body -> script.get(body.path("input").asText().contains("weather") ? "weather" : "none"));
        try {
            var foreign = new SseAgentSettings(
                    URI.create(agentForForeignShape.url()),
                    settings.body(),
                    "",
                    "",
                    List.of(),
                    null,
                    null,
                    null,
                    null,
                    false,
                    mapping,
                    null,
                    null,
                    1);

            Item item = items(start(foreign, Map.of(), Duration.ofSeconds(10), evalCase)
                            .await())
                    .get("weather");

            assertThat(item.status()).isEqualTo(ItemStatus.PASSED);
            assertThat(agentForForeignShape
                            .requests()
                            .get(0)
                            .body()
                            .path("tools")
                            .isArray())
                    .isTrue();
        } finally {
            agentForForeignShape.close();
        }
    }
}
