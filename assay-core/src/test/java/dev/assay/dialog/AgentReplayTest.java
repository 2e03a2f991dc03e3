package dev.assay.dialog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.run.FieldMapping;
import dev.assay.run.ScoreOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Replays MemFinConv.jsonl against a scripted agent that reports recall, tools and a profile in its own shape. */
class AgentReplayTest {
    @TempDir
    Path dir;

    /**
     * An agent with memory per session: it recalls the previous user message as a long-term item, reports the user's
     * profile as "稳健"/long, and calls one tool; its report nests these under its own field names.
     */
    static final class ScriptedAgent implements AgentService {
        final Map<String, List<String>> sessions = new ConcurrentHashMap<>();

        @Override
        public String name() {
            return "scripted-agent";
        }

        @Override
        public Reply send(String sessionId, String userId, String message, Duration timeout) {
            List<String> seen = sessions.computeIfAbsent(sessionId, id -> new ArrayList<>());
            ObjectNode report = JsonNodeFactory.instance.objectNode();
            ObjectNode memory = report.putObject("memory");
            memory.put("short_term_context", "");
            memory.put("profile_context", "风险偏好: 稳健");
            var items = memory.putArray("items");
            for (int i = 0; i < seen.size(); i++) {
                items.addObject().put("rank", i + 1).put("content", seen.get(i)).put("source", "semantic");
            }
            report.putArray("tool_calls").addObject().put("tool_name", "search").put("result_excerpt", "ok");
            report.putObject("user_profile")
                    .put("risk_level", "medium")
                    .put("investment_horizon", "long")
                    .put("liquidity_need", "unknown");
            seen.add(message);
            return new Reply("根据数据分析，波动风险需注意，仅供参考。", report);
        }
    }

    private DialogEngine.Result replay(ScriptedAgent agent) {
        Dataset dataset = Dataset.load(SharedData.memfin().resolve("datasets/MemFinConv.jsonl"));
        FieldMapping mapping =
                FieldMapping.parse("recall=/memory,tools=/tool_calls,compliance=,profile_snapshot=/user_profile");
        var config = new DialogRunConfig(
                "e2e",
                "MemFinConv.jsonl",
                "scripted-agent",
                "",
                2,
                Duration.ofSeconds(10),
                0,
                ScoreOptions.defaults(),
                mapping);
        return DialogEngine.run(dataset, new AgentServiceSubject(agent, mapping), config, dir);
    }

    @Test
    void every_dialog_is_played_in_its_own_session_turn_by_turn() {
        var agent = new ScriptedAgent();

        DialogEngine.Result outcome = replay(agent);

        assertThat(agent.sessions).hasSize(2);
        assertThat(outcome.scores().traces()).allSatisfy(trace -> {
            assertThat(trace.dialogStatus()).isEqualTo(DialogStatus.OK);
            assertThat(agent.sessions.get(trace.sessionId()))
                    .containsExactlyElementsOf(
                            trace.turns().stream().map(TurnTrace::userText).toList());
        });
        assertThat(outcome.scores().summary().counters().totalTurnPairs()).isEqualTo(37);
    }

    @Test
    void the_reported_fields_are_mapped_into_the_trace() {
        DialogTrace trace = replay(new ScriptedAgent()).scores().traces().getFirst();

        TurnTrace second = trace.turns().get(1);
        assertThat(second.recall().path("items").get(0).path("content").asText())
                .isEqualTo(trace.turns().get(0).userText());
        assertThat(second.tools().get(0).path("tool_name").asText()).isEqualTo("search");
        assertThat(second.compliance().isNull()).isTrue();
        assertThat(second.profileSnapshot().path("risk_level").asText()).isEqualTo("medium");
    }

    @Test
    void metrics_are_computed_from_the_mapped_fields() {
        EvalSummary summary = replay(new ScriptedAgent()).scores().summary();

        MetricResult m1 = summary.metric(Metrics.M1);
        assertThat(m1.counts().get("long_term_hit_total")).isPositive();
        assertThat(m1.counts().get("profile_hit_total")).isPositive();
        assertThat(summary.metric(Metrics.M2).micro())
                .containsEntry("risk_level_acc", 1.0)
                .containsEntry("horizon_acc", 1.0);
        assertThat(summary.metric(Metrics.M5).micro().get("rubric_hit_rate")).isPositive();
    }
}
