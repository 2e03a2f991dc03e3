package dev.assay.dialog;

import static dev.assay.dialog.Dialogs.assistant;
import static dev.assay.dialog.Dialogs.dialog;
import static dev.assay.dialog.Dialogs.user;
import static dev.assay.testing.ScriptedSseAgent.event;
import static dev.assay.testing.ScriptedSseAgent.events;
import static dev.assay.testing.ScriptedSseAgent.failure;
import static dev.assay.testing.ScriptedSseAgent.pause;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.model.RetryPolicy;
import dev.assay.run.FieldMapping;
import dev.assay.run.ScoreOptions;
import dev.assay.subject.sse.SseAgentSettings;
import dev.assay.testing.ScriptedSseAgent;
import dev.assay.testing.ScriptedSseAgent.Reply;
import dev.assay.testing.ScriptedSseAgent.Step;
import dev.assay.testing.SharedData;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Dialog replay against a wunder-style agent service on loopback, over real HTTP and server-sent events. */
class SseAgentReplayTest {
    @TempDir
    Path dir;

    private ScriptedSseAgent agent;

    @AfterEach
    void stop() {
        if (agent != null) {
            agent.close();
        }
    }

    /**
     * An agent with memory per session. Each turn it recalls the session's earlier user messages as long-term items
     * (event {@code memory_recall}), searches a knowledge base (a tool call and its result), reports its compliance
     * check (a minor violation on the first turn only) and the profile it holds, then answers.
     */
    static final class MemoryAgent implements ScriptedSseAgent.Script {
        final Map<String, List<String>> sessions = new ConcurrentHashMap<>();

        @Override
        public Reply reply(JsonNode body) {
            String question = body.path("question").asText();
            List<String> seen = sessions.computeIfAbsent(
                    body.path("session_id").asText(), session -> Collections.synchronizedList(new ArrayList<>()));
            ObjectNode recall = Json.object()
                    .put("query", question)
                    .put("short_term_context", "")
                    .put("profile_context", "风险偏好: 稳健");
            var items = recall.putArray("items");
            for (int i = 0; i < seen.size(); i++) {
                items.addObject().put("rank", i + 1).put("content", seen.get(i)).put("source", "semantic");
            }
            ObjectNode compliance =
                    Json.object().put("needs_modification", false).put("is_compliant", !seen.isEmpty());
            var violations = compliance.putArray("violations");
            if (seen.isEmpty()) {
                violations
                        .addObject()
                        .put("type", "recommendation")
                        .put("match", "建议")
                        .put("severity", "medium");
            }
            seen.add(question);
            return events(
                    new Step.Event("memory_recall", recall, true),
                    event(
                            "tool_call",
                            "{\"tool\": \"search_knowledge\", \"args\": {\"query\": \"基金\"}, "
                                    + "\"tool_call_id\": \"k1\"}"),
                    event(
                            "tool_result",
                            "{\"tool\": \"search_knowledge\", \"tool_call_id\": \"k1\", "
                                    + "\"data\": \"宽基指数基金的历史波动\"}"),
                    new Step.Event("compliance", compliance, false),
                    event(
                            "profile_snapshot",
                            "{\"risk_level\": \"medium\", \"investment_horizon\": \"long\", "
                                    + "\"liquidity_need\": \"medium\"}"),
                    event("llm_output", "{\"content\": \"草稿\"}"),
                    event("final", "{\"answer\": \"根据数据分析，波动风险需注意，仅供参考。\"}"));
        }
    }

    private SseAgentSettings settings(RetryPolicy retry) {
        return new SseAgentSettings(
                URI.create(agent.url()),
                null,
                "",
                "",
                List.of(),
                null,
                null,
                null,
                null,
                false,
                null,
                Duration.ofSeconds(5),
                retry,
                Integer.MAX_VALUE);
    }

    private DialogEngine.Result replay(
            Dataset dataset, SseAgentSettings settings, FieldMapping mapping, int workers, Duration turnTimeout) {
        var service = SseAgentService.open(settings, "sse-run", name -> null, line -> {});
        var config = new DialogRunConfig(
                "sse-run",
                dataset.path(),
                service.name(),
                "",
                workers,
                turnTimeout,
                0,
                ScoreOptions.defaults(),
                mapping);
        return DialogEngine.run(dataset, new AgentServiceSubject(service, mapping), config, dir.resolve("run"));
    }

    private DialogEngine.Result replayMemFin(MemoryAgent script) {
        Dataset dataset = Dataset.load(SharedData.require("memfin/datasets/MemFinConv.jsonl"));
        agent = ScriptedSseAgent.start(script);
        return replay(
                dataset,
                settings(RetryPolicy.none()),
                FieldMapping.parse("recall=/memory_recall"),
                2,
                Duration.ofSeconds(10));
    }

    /** Two dialogs of three pairs whose user messages are {@code <id> 第n问}. */
    private static Dataset smallDataset() {
        var lines = new ArrayList<String>();
        for (String id : List.of("d1", "d2")) {
            var turns = new ArrayList<ObjectNode>();
            for (int n = 1; n <= 3; n++) {
                turns.add(user(id + " 第" + n + "问"));
                turns.add(assistant("答" + n, List.of("profile_gt.risk_level_gt"), List.of("波动风险"), List.of("边界声明")));
            }
            lines.add(dialog(id, turns.toArray(ObjectNode[]::new)).toString());
        }
        return Dialogs.dataset(lines.toArray(String[]::new));
    }

    private static ScriptedSseAgent.Script answering(String answer) {
        return body -> events(event("final", Json.object().put("answer", answer).toString()));
    }

    private static List<TurnTrace> turns(DialogEngine.Result outcome) {
        return outcome.scores().traces().stream()
                .flatMap(trace -> trace.turns().stream())
                .toList();
    }

    @Test
    void each_dialog_is_one_session_and_each_turn_one_request_in_order() {
        var script = new MemoryAgent();

        DialogEngine.Result outcome = replayMemFin(script);

        Map<String, List<String>> questions = agent.requests().stream()
                .collect(Collectors.groupingBy(
                        request -> request.body().path("session_id").asText(),
                        Collectors.mapping(
                                request -> request.body().path("question").asText(), Collectors.toList())));
        assertThat(outcome.scores().traces()).hasSize(2).allSatisfy(trace -> {
            assertThat(trace.dialogStatus()).isEqualTo(DialogStatus.OK);
            assertThat(trace.sessionId()).isEqualTo("eval_session_" + trace.dialogId());
            assertThat(questions.get(trace.sessionId()))
                    .containsExactlyElementsOf(
                            trace.turns().stream().map(TurnTrace::userText).toList());
        });
        assertThat(agent.requests())
                .allSatisfy(request -> assertThat(request.body().path("user_id").asText())
                        .isEqualTo(request.body().path("session_id").asText().replace("eval_session_", "eval_user_")));
    }

    @Test
    void recall_tools_compliance_and_profile_events_land_in_the_trace() {
        DialogTrace trace = replayMemFin(new MemoryAgent()).scores().traces().getFirst();

        TurnTrace second = trace.turns().get(1);
        assertThat(second.predAssistantText()).isEqualTo("根据数据分析，波动风险需注意，仅供参考。");
        assertThat(second.recall().at("/items/0/content").asText())
                .isEqualTo(trace.turns().get(0).userText());
        assertThat(second.recall().at("/items/0/source").asText()).isEqualTo("semantic");
        JsonNode tool = second.tools().get(0);
        assertThat(tool.path("tool_name").asText()).isEqualTo("search_knowledge");
        assertThat(tool.at("/args/query").asText()).isEqualTo("基金");
        assertThat(tool.path("result_excerpt").asText()).isEqualTo("宽基指数基金的历史波动");
        assertThat(tool.path("error").isNull()).isTrue();
        assertThat(second.compliance().path("is_compliant").asBoolean()).isTrue();
        assertThat(second.profileSnapshot().path("risk_level").asText()).isEqualTo("medium");
    }

    @Test
    void metrics_are_computed_from_the_reported_fields() {
        Scoring.Result scores = replayMemFin(new MemoryAgent()).scores();

        MetricResult m1 = scores.summary().metric(Metrics.M1);
        assertThat(m1.counts().get("long_term_hit_total")).isPositive();
        assertThat(m1.counts().get("profile_hit_total")).isPositive();
        assertThat(scores.rows())
                .anySatisfy(row -> assertThat(row.keyHitSources())
                        .anySatisfy(sources -> assertThat(sources).contains("long_term")));
        assertThat(scores.summary().metric(Metrics.M2).micro())
                .containsEntry("risk_level_acc", 1.0)
                .containsEntry("horizon_acc", 1.0);
        assertThat(scores.rows())
                .allSatisfy(row -> assertThat(row.predComplianceLabel())
                        .isEqualTo(row.turnPairId() == 1 ? "minor_violation" : "compliant"));
    }

    @Test
    void an_agent_that_reports_only_answers_still_gets_m2_to_m5() {
        agent = ScriptedSseAgent.start(answering("您的风险偏好稳健，注意波动风险，仅供参考，不构成投资建议。"));

        DialogEngine.Result outcome = replay(
                smallDataset(), settings(RetryPolicy.none()), FieldMapping.defaults(), 1, Duration.ofSeconds(10));

        assertThat(turns(outcome)).hasSize(6).allSatisfy(turn -> {
            assertThat(turn.turnStatus()).isEqualTo(TurnStatus.OK);
            assertThat(turn.recall().isNull()).isTrue();
            assertThat(turn.tools()).isEmpty();
            assertThat(turn.compliance().isNull()).isTrue();
            assertThat(turn.profileSnapshot().isNull()).isTrue();
        });
        EvalSummary summary = outcome.scores().summary();
        assertThat(summary.metric(Metrics.M1).counts())
                .containsEntry("long_term_hit_total", 0)
                .containsEntry("profile_hit_total", 0);
        assertThat(summary.metric(Metrics.M2).counts().get("eligible_count")).isEqualTo(2);
        assertThat(summary.metric(Metrics.M2).micro().get("risk_level_acc")).isEqualTo(1.0);
        for (String metric : List.of(Metrics.M3, Metrics.M4, Metrics.M5)) {
            assertThat(summary.metric(metric).counts().get("eligible_count"))
                    .as(metric)
                    .isEqualTo(6);
        }
        assertThat(summary.metric(Metrics.M3).micro().get("risk_coverage")).isEqualTo(1.0);
    }

    @Test
    void an_error_event_mid_stream_makes_that_turn_an_error_and_the_run_goes_on() {
        agent = ScriptedSseAgent.start(ScriptedSseAgent.byPrompt(
                Map.of(
                        "d1 第2问",
                        events(
                                event("llm_output_delta", "{\"delta\": \"部分\"}"),
                                event("error", "{\"code\": \"LLM_UNAVAILABLE\", \"message\": \"model down\"}"),
                                event("final", "{\"answer\": \"never read\"}"))),
                events(event("final", "{\"answer\": \"注意波动风险。\"}"))));

        DialogEngine.Result outcome = replay(
                smallDataset(), settings(RetryPolicy.none()), FieldMapping.defaults(), 1, Duration.ofSeconds(10));

        List<TurnTrace> turns = turns(outcome);
        assertThat(turns)
                .filteredOn(turn -> turn.turnStatus() == TurnStatus.ERROR)
                .singleElement()
                .satisfies(turn -> {
                    assertThat(turn.userText()).isEqualTo("d1 第2问");
                    assertThat(turn.error()).startsWith("target.agent_error");
                    assertThat(turn.predAssistantText()).isEmpty();
                });
        assertThat(outcome.scores().traces())
                .extracting(DialogTrace::dialogStatus)
                .containsExactly(DialogStatus.PARTIAL, DialogStatus.OK);
        assertThat(agent.requests()).hasSize(6);
    }

    @Test
    void an_http_failure_makes_one_turn_an_error() {
        agent = ScriptedSseAgent.start(answering("注意波动风险。"));
        agent.inject(failure(503));

        DialogEngine.Result outcome = replay(
                smallDataset(), settings(RetryPolicy.none()), FieldMapping.defaults(), 1, Duration.ofSeconds(10));

        assertThat(turns(outcome))
                .filteredOn(turn -> turn.turnStatus() == TurnStatus.ERROR)
                .singleElement()
                .satisfies(turn -> assertThat(turn.error()).startsWith("target.http_error"));
        assertThat(outcome.scores().summary().counters().totalTurnPairs()).isEqualTo(6);
    }

    @Test
    void a_turn_past_its_time_limit_is_an_error_and_its_stream_is_closed() throws InterruptedException {
        agent = ScriptedSseAgent.start(ScriptedSseAgent.byPrompt(
                Map.of("d2 第1问", events(pause(4000), event("final", "{\"answer\": \"too late\"}"))),
                events(event("final", "{\"answer\": \"注意波动风险。\"}"))));

        DialogEngine.Result outcome =
                replay(smallDataset(), settings(RetryPolicy.none()), FieldMapping.defaults(), 2, Duration.ofSeconds(1));

        assertThat(turns(outcome))
                .filteredOn(turn -> turn.turnStatus() == TurnStatus.ERROR)
                .singleElement()
                .satisfies(turn -> {
                    assertThat(turn.userText()).isEqualTo("d2 第1问");
                    assertThat(turn.error()).isEqualTo("turn_timeout: exceeded 1s");
                });
        long until = System.currentTimeMillis() + 5000;
        while (agent.abandonedStreams() < 1 && System.currentTimeMillis() < until) {
            Thread.sleep(50);
        }
        assertThat(agent.abandonedStreams()).isEqualTo(1);
    }

    @Test
    void the_body_template_and_the_credential_are_sent() throws InterruptedException {
        agent = ScriptedSseAgent.start(answering("好的"));
        var settings = new SseAgentSettings(
                URI.create(agent.url()),
                Json.parse(
                        "{\"input\": \"{{prompt}}\", \"sid\": \"{{session_id}}\", \"uid\": \"{{user_id}}\", \"run\": \"{{run_id}}\"}"),
                "",
                "",
                List.of(),
                null,
                null,
                "X-API-Key",
                "AGENT_TOKEN",
                false,
                null,
                Duration.ofSeconds(5),
                RetryPolicy.none(),
                4);
        var service = SseAgentService.open(settings, "r7", Map.of("AGENT_TOKEN", "s3cret")::get, line -> {});

        service.send("eval_session_d1", "eval_user_d1", "你好", Duration.ofSeconds(5));

        ScriptedSseAgent.Request request = agent.requests().getFirst();
        assertThat(request.body())
                .isEqualTo(
                        Json.parse(
                                "{\"input\": \"你好\", \"sid\": \"eval_session_d1\", \"uid\": \"eval_user_d1\", \"run\": \"r7\"}"));
        assertThat(request.header("X-API-Key")).isEqualTo("s3cret");
    }

    @Test
    void the_service_name_recorded_with_the_run_holds_no_credential_of_its_url() {
        var settings = new SseAgentSettings(
                URI.create("http://user:pa55@127.0.0.1:9/wunder?api_key=k3y"),
                null,
                "",
                "",
                List.of(),
                null,
                null,
                null,
                null,
                false,
                null,
                null,
                null,
                1);

        String name = SseAgentService.open(settings, "r", variable -> null, line -> {})
                .name();

        assertThat(name).isEqualTo("http://127.0.0.1:9/wunder");
    }

    @Test
    void an_unset_credential_stops_before_any_request() {
        agent = ScriptedSseAgent.start(answering("好的"));
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

        assertThatThrownBy(() -> SseAgentService.open(settings, "r", name -> null, line -> {}))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("target.missing_api_key"));
        assertThat(agent.requests()).isEmpty();
    }
}
