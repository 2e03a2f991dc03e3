package dev.assay.server;

import static dev.assay.testing.ScriptedSseAgent.events;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.check.judge.JudgeCache;
import dev.assay.dialog.DialogPreparation;
import dev.assay.model.ChatModels;
import dev.assay.model.ModelOptions;
import dev.assay.run.Engine;
import dev.assay.run.EvalSpec;
import dev.assay.run.RunListener;
import dev.assay.run.RunSettings;
import dev.assay.testing.ScriptedSseAgent;
import dev.assay.testing.ScriptedSseAgent.Step;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dialog runs over HTTP: started with {@code "kind": "dialog"}, followed on the run's SSE stream turn by turn,
 * cancelled keeping the dialogs that ended, and, replayed against an agent that answers as the recorded MemFin run did,
 * ending with that run's metrics.
 */
class DialogRunApiTest {
    @TempDir
    static Path home;

    static ServerFixture server;

    @BeforeAll
    static void startServer() throws Exception {
        server = new ServerFixture(home);
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void a_dialog_run_streams_each_turn_and_ends_with_the_recorded_runs_metrics() throws Exception {
        Path recorded = memfin().resolve("runs/20260219_101855");
        Files.copy(memfin().resolve("datasets/MemFinConv.jsonl"), home.resolve("suites/MemFinConv.jsonl"));
        try (var agent = ScriptedSseAgent.start(new RecordedAgent(recorded.resolve("dialog_trace.jsonl")))) {
            var started = server.post("/api/runs", """
                    {"kind": "dialog", "dataset": "MemFinConv.jsonl", "agent": {"url": "%s"}, "concurrency": 2}
                    """.formatted(agent.url()));
            assertThat(started.status()).as(started.text()).isEqualTo(201);
            assertThat(started.json().path("case_count").asInt()).isEqualTo(2);
            String runId = started.json().path("run_id").asText();

            List<ServerFixture.Event> stream;
            try (var events = server.stream(runId, 0L)) {
                stream = events.untilFinished();
            }

            assertThat(stream.stream().filter(event -> event.name().equals("eval_progress")))
                    .filteredOn(event -> event.data().has("current_turn"))
                    .hasSize(37)
                    .allSatisfy(event -> assertThat(
                                    event.data().path("current_case_id").asText())
                            .isNotEmpty());
            assertThat(stream.stream().filter(event -> event.name().equals("eval_item")))
                    .extracting(event -> event.data().path("status").asText())
                    .containsExactly("passed", "passed");
            JsonNode finished = stream.getLast().data();
            assertThat(stream.getLast().name()).isEqualTo("eval_finished");
            assertThat(finished.path("status").asText()).isEqualTo("finished");
            assertThat(finished.path("kind").asText()).isEqualTo("dialog");

            JsonNode golden = Json.parse(Files.readString(recorded.resolve("metrics_summary.json")));
            JsonNode stored = server.get("/api/runs/" + runId).json().at("/run/config/metrics_summary");
            assertThat(stored.path("metrics")).isEqualTo(golden.path("metrics"));
            assertThat(stored.path("counters")).isEqualTo(golden.path("counters"));
            Path runDirectory = home.resolve("workspaces/dialog").resolve(runId);
            JsonNode written = Json.parse(Files.readString(runDirectory.resolve("metrics_summary.json")));
            assertThat(written.path("metrics")).isEqualTo(golden.path("metrics"));
            assertThat(Files.readAllLines(runDirectory.resolve("turn_eval.jsonl")))
                    .hasSameSizeAs(Files.readAllLines(recorded.resolve("turn_eval.jsonl")));
        }
    }

    @Test
    void cancelling_a_dialog_run_keeps_the_dialogs_that_ended() throws Exception {
        Files.writeString(
                home.resolve("suites/three.jsonl"),
                String.join(
                        "\n", DialogRuns.oneTurn("quick"), DialogRuns.oneTurn("stuck"), DialogRuns.oneTurn("never")));
        var stuckAsked = new java.util.concurrent.CountDownLatch(1);
        ScriptedSseAgent.Script script = body -> {
            if (body.path("session_id").asText().endsWith("quick")) {
                return events(ScriptedSseAgent.event("final", "{\"answer\": \"注意波动风险\"}"));
            }
            stuckAsked.countDown();
            return events(ScriptedSseAgent.pause(60_000), ScriptedSseAgent.event("final", "{\"answer\": \"late\"}"));
        };
        try (var agent = ScriptedSseAgent.start(script)) {
            var started = server.post("/api/runs", """
                    {"kind": "dialog", "dataset": "three.jsonl", "agent": {"url": "%s"}}
                    """.formatted(agent.url()));
            assertThat(started.status()).as(started.text()).isEqualTo(201);
            String runId = started.json().path("run_id").asText();
            assertThat(stuckAsked.await(20, java.util.concurrent.TimeUnit.SECONDS))
                    .isTrue();

            var cancel = server.post("/api/runs/" + runId + "/cancel", null);
            assertThat(cancel.status()).as(cancel.text()).isEqualTo(202);
            JsonNode run = server.awaitEnd(runId);

            assertThat(run.path("status").asText()).isEqualTo("cancelled");
            JsonNode items = server.get("/api/runs/" + runId + "/items").json().path("items");
            assertThat(items.findValuesAsText("case_id")).containsExactly("quick", "stuck");
            assertThat(items.findValuesAsText("status")).containsExactly("passed", "cancelled");
            assertThat(run.at("/config/metrics_summary/counters/total_dialogs").asInt())
                    .as("the metrics cover the dialog that ended")
                    .isEqualTo(1);
        }
    }

    @Test
    void a_cancelled_dialog_run_is_resumed_over_http_replaying_only_the_dialogs_that_had_not_ended() throws Exception {
        Files.writeString(
                home.resolve("suites/resumed.jsonl"),
                String.join("\n", DialogRuns.oneTurn("first"), DialogRuns.oneTurn("held"), DialogRuns.oneTurn("last")));
        var held = new java.util.concurrent.atomic.AtomicBoolean(true);
        var heldAsked = new java.util.concurrent.CountDownLatch(1);
        var requests = new AtomicInteger();
        ScriptedSseAgent.Script script = body -> {
            requests.incrementAndGet();
            if (body.path("session_id").asText().endsWith("held") && held.get()) {
                heldAsked.countDown();
                return events(
                        ScriptedSseAgent.pause(60_000), ScriptedSseAgent.event("final", "{\"answer\": \"late\"}"));
            }
            return events(ScriptedSseAgent.event("final", "{\"answer\": \"注意波动风险\"}"));
        };
        try (var agent = ScriptedSseAgent.start(script)) {
            String body = """
                    {"kind": "dialog", "dataset": "resumed.jsonl", "agent": {"url": "%s"}}
                    """.formatted(agent.url());
            String runId = server.post("/api/runs", body).json().path("run_id").asText();
            assertThat(heldAsked.await(20, java.util.concurrent.TimeUnit.SECONDS))
                    .isTrue();
            server.post("/api/runs/" + runId + "/cancel", null);
            assertThat(server.awaitEnd(runId).path("status").asText()).isEqualTo("cancelled");
            held.set(false);

            var resumed = server.post("/api/runs/" + runId + "/resume", null);

            assertThat(resumed.status()).as(resumed.text()).isEqualTo(202);
            assertThat(resumed.json().path("kept").asInt()).isEqualTo(1);
            JsonNode run = server.awaitEnd(runId);
            assertThat(run.path("status").asText()).isEqualTo("finished");
            JsonNode items = server.get("/api/runs/" + runId + "/items").json().path("items");
            assertThat(items.findValuesAsText("case_id")).containsExactly("first", "held", "last");
            assertThat(items.findValuesAsText("status")).doesNotContain("cancelled");
            // Three turns, and at most the one in flight at the cancel asked twice (one dialog at a time).
            assertThat(requests.get()).isLessThanOrEqualTo(3 + 1);

            String whole = server.post("/api/runs", body).json().path("run_id").asText();
            JsonNode uninterrupted = server.awaitEnd(whole);
            assertThat(run.at("/config/metrics_summary/metrics"))
                    .isEqualTo(uninterrupted.at("/config/metrics_summary/metrics"));
            assertThat(run.at("/config/metrics_summary/counters"))
                    .isEqualTo(uninterrupted.at("/config/metrics_summary/counters"));
            assertThat(run.path("dimension_scores")).isEqualTo(uninterrupted.path("dimension_scores"));
            assertThat(Files.readString(
                            home.resolve("workspaces/dialog").resolve(runId).resolve("turn_eval.jsonl")))
                    .isEqualTo(Files.readString(home.resolve("workspaces/dialog")
                                    .resolve(whole)
                                    .resolve("turn_eval.jsonl"))
                            .replace(whole, runId));
        }
    }

    @Test
    void a_dialog_run_whose_dataset_is_outside_the_datasets_directory_is_not_resumed_over_http() throws Exception {
        Path outside = Files.writeString(home.resolve("outside.jsonl"), DialogRuns.oneTurn("outside"));
        EvalSpec spec = new RunSettings()
                .dialogs(new EvalSpec.Dialogs(
                        outside.toString(), outside, home.resolve("cli-runs/outside"), "", "", null, 0, null, null))
                .model(ModelOptions.of("mock"))
                .resolve();
        try (var prepared = DialogPreparation.prepare(
                spec,
                "outside-run",
                options -> ChatModels.chatModel(options, name -> null, line -> {}),
                name -> null,
                line -> {},
                JudgeCache.disabled())) {
            new Engine(server.store).run(prepared.workload(), RunListener.NONE);
        }

        var resumed = server.post("/api/runs/outside-run/resume", null);

        assertThat(resumed.status()).as(resumed.text()).isEqualTo(409);
        assertThat(resumed.json().path("type").asText()).isEqualTo("run.not_resumable");
    }

    @Test
    void a_dialog_start_names_the_field_it_cannot_take() throws Exception {
        assertThat(server.post("/api/runs", "{\"kind\": \"dialog\", \"model_name\": \"mock\"}")
                        .json()
                        .path("field")
                        .asText())
                .isEqualTo("dataset");
        var escape = server.post(
                "/api/runs", "{\"kind\": \"dialog\", \"dataset\": \"../assay.db\", \"model_name\": \"mock\"}");
        assertThat(escape.status()).isEqualTo(400);
        var missing = server.post(
                "/api/runs", "{\"kind\": \"dialog\", \"dataset\": \"basic.jsonl\", \"model_name\": \"mock\"}");
        assertThat(missing.status()).as(missing.text()).isEqualTo(404);
        Files.writeString(home.resolve("suites/one.jsonl"), DialogRuns.oneTurn("one"));
        var both = server.post(
                "/api/runs",
                "{\"kind\": \"dialog\", \"dataset\": \"one.jsonl\", \"model_name\": \"mock\", "
                        + "\"agent\": {\"url\": \"http://127.0.0.1:9/wunder\"}}");
        assertThat(both.status()).isEqualTo(400);
        assertThat(server.get("/api/datasets").json().findValuesAsText("name")).contains("one.jsonl");
    }

    @Test
    void a_dialog_run_with_a_model_ends_with_one_item_per_dialog() throws Exception {
        Files.writeString(
                home.resolve("suites/model.jsonl"),
                String.join("\n", DialogRuns.oneTurn("m1"), "not json", DialogRuns.oneTurn("m2")));
        var started = server.post("/api/runs", """
                {"kind": "dialog", "dataset": "model.jsonl", "model_name": "mock", "concurrency": 2}
                """);
        assertThat(started.status()).as(started.text()).isEqualTo(201);
        assertThat(started.json().path("warnings").toString()).contains("invalid_json");

        JsonNode run = server.awaitEnd(started.json().path("run_id").asText());

        assertThat(run.path("status").asText()).isEqualTo("finished");
        assertThat(run.path("counts").path("total").asInt()).isEqualTo(3);
        assertThat(run.path("counts").path("skipped").asInt()).isEqualTo(1);
        assertThat(run.path("dimension_scores").properties())
                .extracting(Map.Entry::getKey)
                .containsExactly("m1", "m2", "m3", "m4", "m5");
    }

    /**
     * Answers each turn as the recorded run's agent did: its answer, and its recall, tools, compliance and profile as
     * events of the names the default field mapping reads.
     */
    private static final class RecordedAgent implements ScriptedSseAgent.Script {
        private final Map<String, List<JsonNode>> turnsBySession = new HashMap<>();
        private final Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();

        RecordedAgent(Path traces) throws IOException {
            for (String line : Files.readAllLines(traces, StandardCharsets.UTF_8)) {
                JsonNode trace = Json.parse(line);
                var turns = new ArrayList<JsonNode>();
                trace.path("turns").forEach(turns::add);
                turnsBySession.put("eval_session_" + trace.path("dialog_id").asText(), turns);
            }
        }

        @Override
        public ScriptedSseAgent.Reply reply(JsonNode body) {
            String session = body.path("session_id").asText();
            int turn =
                    asked.computeIfAbsent(session, any -> new AtomicInteger()).getAndIncrement();
            JsonNode recorded = turnsBySession.get(session).get(turn);
            var steps = new ArrayList<Step>();
            for (String field : List.of("recall", "tools", "compliance", "profile_snapshot")) {
                if (!recorded.path(field).isNull()) {
                    steps.add(new Step.Event(field, recorded.get(field), false));
                }
            }
            steps.add(new Step.Event(
                    "final",
                    Json.object()
                            .put("answer", recorded.path("pred_assistant_text").asText()),
                    false));
            return new ScriptedSseAgent.Reply.Events(steps);
        }
    }

    private static Path memfin() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared/data/memfin");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        Assumptions.abort("reference data shared/data/memfin not found above "
                + Path.of("").toAbsolutePath() + "; the golden dialog run over HTTP is skipped");
        throw new IllegalStateException("unreachable");
    }
}
