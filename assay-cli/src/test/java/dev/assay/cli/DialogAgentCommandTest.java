package dev.assay.cli;

import static dev.assay.testing.ScriptedSseAgent.event;
import static dev.assay.testing.ScriptedSseAgent.events;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.testing.ScriptedSseAgent;
import dev.assay.testing.ScriptedSseAgent.Step;
import dev.assay.testing.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code assay dialog run --agent}: the reference dialogs replayed against an SSE agent service on loopback. */
class DialogAgentCommandTest {
    @TempDir
    Path home;

    private ScriptedSseAgent agent;

    /** Recalls the session's earlier questions (event {@code memory_recall}) and reports a profile. */
    @BeforeEach
    void start() {
        Map<String, List<String>> sessions = new ConcurrentHashMap<>();
        agent = ScriptedSseAgent.start(body -> {
            List<String> seen = sessions.computeIfAbsent(body.path("session_id").asText(), id -> new ArrayList<>());
            ObjectNode recall = Json.object().put("short_term_context", "").put("profile_context", "");
            seen.forEach(question -> recall.withArray("items")
                    .addObject()
                    .put("content", question)
                    .put("source", "semantic"));
            seen.add(body.path("question").asText());
            return events(
                    new Step.Event("memory_recall", recall, false),
                    event("profile_snapshot", "{\"risk_level\": \"medium\", \"investment_horizon\": \"long\"}"),
                    event("final", "{\"answer\": \"投资有风险，注意波动风险，仅供参考。\"}"));
        });
    }

    @AfterEach
    void stop() {
        agent.close();
    }

    private String db() {
        return "jdbc:sqlite:" + home.resolve("a.db");
    }

    private CliRunner.Result run(CliRunner cli, String... extra) {
        var args = new ArrayList<>(List.of(
                "dialog",
                "run",
                SharedData.require("memfin/datasets/MemFinConv.jsonl").toString(),
                "--run-id",
                "agent-e2e",
                "--out",
                home.resolve("runs").toString(),
                "--db",
                db(),
                "--workers-dialog",
                "2"));
        args.addAll(List.of(extra));
        return cli.run(args.toArray(String[]::new));
    }

    @Test
    void dialogs_replayed_against_an_agent_are_traced_scored_and_stored() throws Exception {
        var result = run(
                new CliRunner(home).withEnv("AGENT_TOKEN", "tok"),
                "--agent",
                agent.url(),
                "--agent-auth-env",
                "AGENT_TOKEN",
                "--field-mapping",
                "recall=/memory_recall");

        assertThat(result.code()).as(result.err()).isZero();
        Path runDir = home.resolve("runs/agent-e2e");
        JsonNode trace = Json.parse(
                Files.readAllLines(runDir.resolve("dialog_trace.jsonl")).getFirst());
        assertThat(trace.at("/turns/1/recall/items/0/content").asText())
                .isEqualTo(trace.at("/turns/0/user_text").asText());
        assertThat(trace.at("/turns/1/profile_snapshot/risk_level").asText()).isEqualTo("medium");
        JsonNode manifest = Json.parse(Files.readString(runDir.resolve("run_manifest.json")));
        assertThat(manifest.path("target").asText()).isEqualTo("agent:" + agent.url());
        assertThat(manifest.at("/field_mapping/recall").asText()).isEqualTo("/memory_recall");
        JsonNode summary = Json.parse(Files.readString(runDir.resolve("metrics_summary.json")));
        assertThat(summary.at("/metrics/m1_context_continuity/counts/long_term_hit_total")
                        .asInt())
                .isPositive();
        assertThat(agent.requests())
                .allSatisfy(
                        request -> assertThat(request.header("Authorization")).isEqualTo("Bearer tok"));
        try (Store store = Stores.open(db())) {
            assertThat(store.findRun("agent-e2e")).isPresent();
        }
    }

    @Test
    void model_and_agent_together_are_a_usage_error() {
        var result = run(new CliRunner(home), "--agent", agent.url(), "--model", "openai:x");

        assertThat(result.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(agent.requests()).isEmpty();
    }

    @Test
    void an_invalid_field_mapping_is_a_usage_error() {
        var result = run(new CliRunner(home), "--agent", agent.url(), "--field-mapping", "memory=/recall");

        assertThat(result.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(agent.requests()).isEmpty();
    }

    @Test
    void a_system_prompt_with_an_agent_is_a_usage_error() throws Exception {
        Path prompt = Files.writeString(home.resolve("prompt.txt"), "你是投资顾问");

        var result = run(new CliRunner(home), "--agent", agent.url(), "--system-prompt", prompt.toString());

        assertThat(result.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(agent.requests()).isEmpty();
    }

    @Test
    void a_request_body_that_is_not_json_is_a_usage_error() {
        var result = run(new CliRunner(home), "--agent", agent.url(), "--agent-body", "{not json");

        assertThat(result.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(agent.requests()).isEmpty();
    }

    @Test
    void an_unset_credential_variable_stops_the_run_before_any_request() {
        var result = run(new CliRunner(home), "--agent", agent.url(), "--agent-auth-env", "AGENT_TOKEN");

        assertThat(result.code()).isEqualTo(3);
        assertThat(result.err()).contains("target.missing_api_key");
        assertThat(agent.requests()).isEmpty();
    }
}
