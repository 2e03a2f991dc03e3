package dev.assay.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.cases.Suite;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.RetryPolicy;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.model.openai.OpenAiSettings;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.run.Engine;
import dev.assay.run.RunHandle;
import dev.assay.run.RunListener;
import dev.assay.run.RunPlan;
import dev.assay.run.RunSettings;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.AgentSubject;
import dev.assay.testing.TestSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunApiTest {
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
    void a_started_run_streams_every_item_and_finishes() throws Exception {
        String runId = server.start("basic.jsonl", "\"user_id\": \"stream-user\"");
        List<ServerFixture.Event> events;
        try (var stream = server.stream(runId, null)) {
            events = stream.untilFinished();
        }
        // A late client's first event is the current state; after it, every item arrives.
        assertThat(events.getFirst().name()).isIn("eval_progress", "eval_finished");
        List<Long> ids = events.stream().map(ServerFixture.Event::id).toList();
        assertThat(ids).isSorted().doesNotHaveDuplicates();
        ServerFixture.Event finished = events.getLast();
        assertThat(finished.name()).isEqualTo("eval_finished");
        assertThat(finished.data().path("status").asText()).isEqualTo("finished");
        assertThat(finished.data().path("counts").path("passed").asInt()).isEqualTo(2);
        assertThat(finished.data().path("counts").path("failed").asInt()).isEqualTo(2);
        assertThat(finished.data().path("dimension_scores").path("common").asDouble())
                .isEqualTo(1.0);
    }

    @Test
    void a_stream_asked_for_without_accepting_an_event_stream_says_what_to_send() throws Exception {
        String runId = server.start("basic.jsonl", "");

        var plain = server.get("/api/runs/" + runId + "/events");

        assertThat(plain.status()).isEqualTo(406);
        assertThat(plain.json().path("type").asText()).isEqualTo("request.not_acceptable");
        assertThat(plain.json().path("detail").asText()).contains("Accept: text/event-stream");
    }

    @Test
    void a_stream_from_the_first_event_id_holds_every_item_and_progress_in_order() throws Exception {
        String runId = server.start("slow.jsonl", "\"concurrency\": 2");
        List<ServerFixture.Event> events;
        try (var stream = server.stream(runId, 0L)) {
            events = stream.untilFinished();
        }
        assertThat(events.stream().map(ServerFixture.Event::id).toList())
                .containsExactlyElementsOf(
                        LongStream.rangeClosed(1, events.size()).boxed().toList());
        assertThat(events.stream()
                        .filter(event -> event.name().equals("eval_item"))
                        .count())
                .isEqualTo(8);
        assertThat(events.stream()
                        .filter(event -> event.name().equals("eval_progress"))
                        .mapToInt(event -> event.data().path("completed").asInt())
                        .max()
                        .orElse(0))
                .isEqualTo(8);
        assertThat(events.getFirst().name()).isEqualTo("eval_progress");
    }

    @Test
    void a_client_reconnecting_with_last_event_id_misses_nothing() throws Exception {
        String runId = server.start("slow.jsonl", "\"concurrency\": 1");
        var seen = new ArrayList<ServerFixture.Event>();
        try (var first = server.stream(runId, 0L)) {
            for (int i = 0; i < 4; i++) {
                seen.add(first.next());
            }
        }
        Thread.sleep(700);
        try (var second = server.stream(runId, seen.getLast().id())) {
            seen.addAll(second.untilFinished());
        }
        assertThat(seen.stream().map(ServerFixture.Event::id).toList())
                .containsExactlyElementsOf(
                        LongStream.rangeClosed(1, seen.size()).boxed().toList());
        assertThat(seen.stream()
                        .filter(event -> event.name().equals("eval_item"))
                        .map(event -> event.data().path("case_id").asText())
                        .distinct()
                        .count())
                .isEqualTo(8);
        assertThat(seen.getLast().name()).isEqualTo("eval_finished");
    }

    @Test
    void a_client_reconnecting_to_an_ended_run_with_an_id_past_its_end_still_gets_eval_finished() throws Exception {
        String runId = server.start("basic.jsonl", "");
        server.awaitEnd(runId);

        for (long lastEventId : new long[] {99_999_999L, 0L}) {
            List<ServerFixture.Event> events;
            try (var stream = server.stream(runId, lastEventId)) {
                events = stream.untilFinished();
            }

            assertThat(events).as("Last-Event-ID %d", lastEventId).isNotEmpty();
            assertThat(events.getLast().name()).isEqualTo("eval_finished");
            assertThat(events.getLast().data().path("status").asText()).isEqualTo("finished");
        }
    }

    @Test
    void cancelling_mid_run_keeps_the_finished_items() throws Exception {
        String runId = server.start("slow.jsonl", "\"concurrency\": 1");
        try (var stream = server.stream(runId, 0L)) {
            for (var event = stream.next(); !event.name().equals("eval_item"); event = stream.next()) {
                assertThat(event).isNotNull();
            }
        }
        var cancelled = server.post("/api/runs/" + runId + "/cancel", null);
        assertThat(cancelled.status()).isEqualTo(202);
        JsonNode run = server.awaitEnd(runId);
        assertThat(run.path("status").asText()).isEqualTo("cancelled");
        JsonNode items = server.get("/api/runs/" + runId + "/items?limit=500").json();
        assertThat(items.path("items_total").asInt()).isBetween(1, 7);
        assertThat(items.path("items").get(0).path("status").asText()).isEqualTo("passed");
        assertThat(server.post("/api/runs/" + runId + "/cancel", null)
                        .json()
                        .path("type")
                        .asText())
                .isEqualTo("run.not_running");
    }

    @Test
    void a_cancelled_run_is_resumed_over_http_keeping_its_finished_items() throws Exception {
        String runId = server.start("slow.jsonl", "\"concurrency\": 1");
        try (var stream = server.stream(runId, 0L)) {
            for (var event = stream.next(); !event.name().equals("eval_item"); event = stream.next()) {
                assertThat(event).isNotNull();
            }
        }
        server.post("/api/runs/" + runId + "/cancel", null);
        assertThat(server.awaitEnd(runId).path("status").asText()).isEqualTo("cancelled");
        JsonNode before = server.get("/api/runs/" + runId + "/items?limit=500").json();
        long finishedBefore = 0;
        for (JsonNode item : before.path("items")) {
            finishedBefore += item.path("status").asText().equals("cancelled") ? 0 : 1;
        }

        var resumed = server.post("/api/runs/" + runId + "/resume", null);

        assertThat(resumed.status()).as(resumed.text()).isEqualTo(202);
        assertThat(resumed.json().path("kept").asLong()).isEqualTo(finishedBefore);
        JsonNode run = server.awaitEnd(runId);
        assertThat(run.path("status").asText()).isEqualTo("finished");
        JsonNode items = server.get("/api/runs/" + runId + "/items?limit=500").json();
        assertThat(items.path("items_total").asInt()).isEqualTo(8);
        assertThat(items.path("items").findValuesAsText("status")).doesNotContain("cancelled");
        assertThat(run.path("counts").path("total").asInt()).isEqualTo(8);
        assertThat(server.post("/api/runs/nothing-here/resume", null).status()).isEqualTo(404);
    }

    @Test
    void a_run_whose_suite_file_changed_is_not_resumed_over_http_unless_asked_to_run_its_stored_cases()
            throws Exception {
        Path file = server.home.resolve("suites").resolve("changing.jsonl");
        Files.writeString(file, """
                {"id": "kept", "dimension": "common", "prompt": "Capital of France? kept", "checker": "contains", "expected": "Paris"}
                {"id": "edited", "dimension": "common", "prompt": "Capital of France? edited", "checker": "contains", "expected": "Paris"}
                {"id": "dropped", "dimension": "common", "prompt": "Capital of France? dropped", "checker": "contains", "expected": "Paris"}
                """);
        String runId = server.start("changing.jsonl", "");
        assertThat(server.awaitEnd(runId).path("status").asText()).isEqualTo("finished");
        Files.writeString(file, """
                {"id": "kept", "dimension": "common", "prompt": "Capital of France? kept", "checker": "contains", "expected": "Paris"}
                {"id": "edited", "dimension": "common", "prompt": "Capital of France? edited", "checker": "exact", "expected": "Berlin"}
                {"id": "added", "dimension": "common", "prompt": "Capital of France? added", "checker": "contains", "expected": "Paris"}
                """);

        var refused = server.post("/api/runs/" + runId + "/resume", null);

        assertThat(refused.status()).as(refused.text()).isEqualTo(409);
        assertThat(refused.json().path("type").asText()).isEqualTo("run.suite_changed");
        assertThat(refused.json().path("modified").toString()).isEqualTo("[\"edited\"]");
        assertThat(refused.json().path("added").toString()).isEqualTo("[\"added\"]");
        assertThat(refused.json().path("removed").toString()).isEqualTo("[\"dropped\"]");
        assertThat(server.get("/api/runs/" + runId).json().at("/run/status").asText())
                .isEqualTo("finished");

        var resumed = server.post("/api/runs/" + runId + "/resume", "{\"stored_cases\": true}");

        assertThat(resumed.status()).as(resumed.text()).isEqualTo(202);
        JsonNode run = server.awaitEnd(runId);
        assertThat(run.path("status").asText()).isEqualTo("finished");
        assertThat(run.path("counts").path("total").asInt()).isEqualTo(3);
        assertThat(run.path("counts").path("passed").asInt()).isEqualTo(3);
    }

    @Test
    void the_detail_tells_whether_the_run_can_be_resumed_and_why_not_as_resuming_it_would() throws Exception {
        String runId = server.start("basic.jsonl", "");
        assertThat(server.awaitEnd(runId).path("status").asText()).isEqualTo("finished");
        Run ended = server.store.findRun(runId).orElseThrow();
        JsonNode resumable = server.get("/api/runs/" + runId).json();
        assertThat(resumable.path("resumable").asBoolean()).isTrue();
        assertThat(resumable.path("resume_problem").isNull()).isTrue();
        // A recording's run calls nothing: stored as `assay run --replay` stores it.
        String replayId = runId + "-replay";
        server.store.createRun(new Run(
                replayId,
                ended.kind(),
                ended.userId(),
                ended.modelName(),
                ended.language(),
                RunStatus.INTERRUPTED,
                ended.caseSet(),
                ended.caseSetVersion(),
                new RunSettings()
                        .suites(List.of(server.home.resolve("suites/basic.jsonl")))
                        .replay(server.home.resolve("recording.jsonl"))
                        .resolve()
                        .toJson(),
                ended.toolSnapshot(),
                Map.of(),
                null,
                ended.counts(),
                ended.startedAt(),
                ended.startedAt(),
                0.0,
                null));

        JsonNode replay = server.get("/api/runs/" + replayId).json();

        assertThat(replay.path("resumable").asBoolean()).isFalse();
        assertThat(replay.at("/resume_problem/type").asText()).isEqualTo("run.not_resumable");
        assertThat(replay.at("/resume_problem/message").asText()).contains("a recording's run calls nothing");
        var refused = server.post("/api/runs/" + replayId + "/resume", null);
        assertThat(refused.status()).as(refused.text()).isEqualTo(409);
        assertThat(refused.json().path("type").asText()).isEqualTo("run.not_resumable");
        assertThat(refused.json().path("detail").asText())
                .isEqualTo(replay.at("/resume_problem/message").asText());
    }

    @Test
    void a_run_status_filter_that_names_no_status_is_refused_naming_every_status_interrupted_among_them()
            throws Exception {
        ServerFixture.Response bad = server.get("/api/runs?status=bogus");

        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().path("field").asText()).isEqualTo("status");
        assertThat(bad.json().path("detail").asText())
                .contains(Arrays.stream(RunStatus.values())
                        .map(RunStatus::wireName)
                        .toList());
        assertThat(server.get("/api/runs?status=interrupted").status()).isEqualTo(200);
    }

    @Test
    void runs_are_listed_newest_first_with_filters_and_paging() throws Exception {
        String first = server.start("basic.jsonl", "\"user_id\": \"pager\"");
        server.awaitEnd(first);
        String second = server.start("basic.jsonl", "\"user_id\": \"pager\"");
        server.awaitEnd(second);
        JsonNode all = server.get("/api/runs?user_id=pager").json();
        assertThat(all.path("total").asInt()).isEqualTo(2);
        assertThat(all.path("runs").get(0).path("run_id").asText()).isEqualTo(second);
        JsonNode page = server.get("/api/runs?user_id=pager&offset=1&limit=1").json();
        assertThat(page.path("runs")).hasSize(1);
        assertThat(page.path("runs").get(0).path("run_id").asText()).isEqualTo(first);
        assertThat(server.get("/api/runs?user_id=pager&status=cancelled")
                        .json()
                        .path("total")
                        .asInt())
                .isZero();
        assertThat(server.get("/api/runs?user_id=pager&model_name=scripted")
                        .json()
                        .path("total")
                        .asInt())
                .isEqualTo(2);
        assertThat(server.get("/api/runs?user_id=pager&since=2999-01-01T00:00:00Z")
                        .json()
                        .path("total")
                        .asInt())
                .isZero();
    }

    @Test
    void the_reference_scoring_preset_is_taken_from_the_body_and_recorded_with_the_run() throws Exception {
        String runId = server.start("basic.jsonl", "\"scoring\": \"reference\", \"weights\": {\"logic\": 40}");
        server.awaitEnd(runId);
        JsonNode config = server.get("/api/runs/" + runId).json().findPath("config");

        assertThat(config.path("scoring").asText()).isEqualTo("reference");
        assertThat(config.path("weights"))
                .isEqualTo(
                        dev.assay.Json.parse("{\"tool\": 30.0, \"logic\": 40.0, \"common\": 15.0, \"complex\": 30.0}"));
        assertThat(server.post("/api/runs", server.startBody("basic.jsonl", "\"scoring\": \"wunder\""))
                        .json()
                        .path("field")
                        .asText())
                .isEqualTo("scoring");
    }

    @Test
    void the_extra_metrics_a_body_names_are_in_the_run_detail_and_an_unknown_one_is_refused() throws Exception {
        String runId = server.start("basic.jsonl", "\"metrics\": [\"weighted-score\"]");
        server.awaitEnd(runId);
        JsonNode run = server.get("/api/runs/" + runId).json().path("run");

        assertThat(run.path("metrics").path("weighted-score").asDouble())
                .isEqualTo(run.path("total_score").asDouble());
        var refused = server.post("/api/runs", server.startBody("basic.jsonl", "\"metrics\": [\"nosuch\"]"));
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.json().path("type").asText()).isEqualTo("plugin.unknown");
    }

    @Test
    void run_detail_pages_its_items_and_an_item_holds_its_transcript() throws Exception {
        String runId = server.start("basic.jsonl", "");
        server.awaitEnd(runId);
        JsonNode detail = server.get("/api/runs/" + runId + "?offset=1&limit=2").json();
        assertThat(detail.path("items_total").asInt()).isEqualTo(4);
        assertThat(detail.path("items")).hasSize(2);
        assertThat(detail.path("items").get(0).path("case_id").asText()).isEqualTo("basic_2");
        assertThat(detail.path("items").get(0).has("transcript")).isFalse();
        JsonNode item = server.get("/api/runs/" + runId + "/items/0").json();
        assertThat(item.path("case_id").asText()).isEqualTo("basic_1");
        assertThat(item.path("transcript").isArray()).isTrue();
        assertThat(item.path("transcript")).isNotEmpty();
        assertThat(server.get("/api/runs/" + runId + "/items/99")
                        .json()
                        .path("type")
                        .asText())
                .isEqualTo("item.not_found");
    }

    @Test
    void items_are_filtered_by_status_dimension_language_tag_text_and_case_before_paging() throws Exception {
        String runId = server.start("page.jsonl", "");
        server.awaitEnd(runId);
        String items = "/api/runs/" + runId + "/items?";

        assertThat(caseIds(server.get(items + "status=failed").json())).containsExactly("page_tool", "page_json");
        assertThat(caseIds(server.get(items + "status=passed,failed&dimension=logic")
                        .json()))
                .containsExactly("page_regex");
        assertThat(caseIds(server.get(items + "language=zh-CN").json())).containsExactly("page_regex");
        assertThat(caseIds(server.get(items + "tag=user").json())).containsExactly("page_long");
        assertThat(caseIds(server.get(items + "q=WITH%20JSON").json())).containsExactly("page_json");
        assertThat(caseIds(server.get(items + "case_id=page_long").json())).containsExactly("page_long");
        JsonNode secondFailure =
                server.get(items + "status=failed&offset=1&limit=1").json();
        assertThat(secondFailure.path("items_total").asInt()).isEqualTo(2);
        assertThat(caseIds(secondFailure)).containsExactly("page_json");
        // The position is the item's place in the whole list: what /items/{position} takes.
        int position = secondFailure.path("items").get(0).path("position").asInt();
        assertThat(position).isEqualTo(2);
        assertThat(server.get(items.replace("?", "/") + position)
                        .json()
                        .path("case_id")
                        .asText())
                .isEqualTo("page_json");
        JsonNode detail = server.get("/api/runs/" + runId + "?status=passed").json();
        assertThat(detail.path("items_total").asInt()).isEqualTo(2);
        assertThat(detail.path("languages")).extracting(JsonNode::asText).containsExactly("en-US", "zh-CN");
        ServerFixture.Response bad = server.get(items + "status=passed,great");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().path("field").asText()).isEqualTo("status");
    }

    @Test
    void run_detail_holds_the_dimension_intervals_and_pass_at_k_of_a_sampled_run() throws Exception {
        String runId = server.start("basic.jsonl", "\"samples\": 2");
        server.awaitEnd(runId);
        JsonNode detail = server.get("/api/runs/" + runId).json();
        assertThat(detail.path("samples").asInt()).isEqualTo(2);
        assertThat(detail.path("pass_at_k").path("1").asDouble()).isEqualTo(0.5);
        assertThat(detail.path("pass_at_k").path("2").asDouble()).isEqualTo(0.5);
        JsonNode common = detail.path("dimension_stats").path("common");
        assertThat(common.path("n").asInt()).isEqualTo(2);
        assertThat(common.path("mean").asDouble()).isEqualTo(1.0);
        assertThat(common.has("low") && common.has("high")).isTrue();
    }

    private static List<String> caseIds(JsonNode page) {
        var ids = new ArrayList<String>();
        page.path("items").forEach(item -> ids.add(item.path("case_id").asText()));
        return ids;
    }

    @Test
    void a_deleted_run_is_gone() throws Exception {
        String runId = server.start("basic.jsonl", "");
        server.awaitEnd(runId);
        var deleted = server.send("DELETE", "/api/runs/" + runId, null, true);
        assertThat(deleted.status()).isEqualTo(200);
        var missing = server.get("/api/runs/" + runId);
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.json().path("type").asText()).isEqualTo("run.not_found");
        assertThat(server.send("DELETE", "/api/runs/" + runId, null, true).status())
                .isEqualTo(404);
    }

    @Test
    void compare_takes_the_id_prefixes_the_command_line_takes_and_refuses_ambiguous_or_short_ones() throws Exception {
        String a = server.start("basic.jsonl", "");
        server.awaitEnd(a);
        String b = server.start("basic.jsonl", "");
        server.awaitEnd(b);

        var byPrefix = server.get("/api/compare?a=" + a.substring(0, 8) + "&b=" + b.substring(0, 8));

        assertThat(byPrefix.status()).as(byPrefix.text()).isEqualTo(200);
        assertThat(byPrefix.json().path("a").path("run_id").asText()).isEqualTo(a);
        assertThat(byPrefix.json().path("b").path("run_id").asText()).isEqualTo(b);

        // Two runs whose ids share "twin-": the prefix names neither.
        for (String id : List.of("twin-one", "twin-two")) {
            var plan = new RunPlan(
                    new Suite(
                            "twins",
                            "v1",
                            List.of(Case.of(
                                    "twin",
                                    "common",
                                    "Capital of France?",
                                    Check.of("contains", Json.parse("\"Paris\"")))),
                            Map.of(),
                            List.of()),
                    new AgentSubject(
                            new OpenAiChatModel(
                                    new OpenAiSettings(
                                            "scripted",
                                            server.model.baseUrl(),
                                            "",
                                            false,
                                            Duration.ofSeconds(10),
                                            RetryPolicy.none()),
                                    line -> {}),
                            List.of(),
                            AgentSettings.defaults(),
                            1),
                    TestSpecs.config(home.resolve("twins")).withRunId(id),
                    CheckerRegistry.builtins());
            new Engine(server.store).start(plan, RunListener.NONE).await();
        }
        var ambiguous = server.get("/api/compare?a=twin-&b=" + b);
        var tooShort = server.get("/api/compare?a=" + a + "&b=" + b.substring(0, 3));

        assertThat(ambiguous.status()).isEqualTo(404);
        assertThat(ambiguous.json().path("type").asText()).isEqualTo("run.not_found");
        assertThat(ambiguous.json().path("field").asText()).isEqualTo("a");
        assertThat(ambiguous.json().path("detail").asText()).contains("matches 2 runs");
        assertThat(tooShort.status()).isEqualTo(404);
        assertThat(tooShort.json().path("field").asText()).isEqualTo("b");
        assertThat(tooShort.json().path("detail").asText()).contains("at least 4 characters");
    }

    @Test
    @Tag("fault")
    void a_run_another_engine_is_writing_is_refused_with_409_and_kept_whole() throws Exception {
        // Another process on the same database: its own store and engine, so the server does not own the run.
        try (Store other = Stores.open("jdbc:sqlite:" + home.resolve("assay.db"))) {
            var chat = new OpenAiChatModel(
                    new OpenAiSettings(
                            "scripted", server.model.baseUrl(), "", false, Duration.ofSeconds(10), RetryPolicy.none()),
                    line -> {});
            List<Case> cases = IntStream.range(0, 4)
                    .mapToObj(i -> Case.of(
                            "other_" + i,
                            "common",
                            "Capital of France? slow " + i,
                            Check.of("contains", Json.parse("\"Paris\""))))
                    .toList();
            var plan = new RunPlan(
                    new Suite("other", "v1", cases, Map.of(), List.of()),
                    new AgentSubject(chat, List.of(), AgentSettings.defaults(), 1),
                    TestSpecs.config(home.resolve("other-work"), settings -> settings.concurrency(1)),
                    CheckerRegistry.builtins());
            RunHandle writing = new Engine(other).start(plan, RunListener.NONE);

            var refused = server.send("DELETE", "/api/runs/" + writing.runId(), null, true);

            assertThat(refused.status()).isEqualTo(409);
            assertThat(refused.json().path("type").asText()).isEqualTo("run.still_running");
            Run ended = writing.await();
            assertThat(ended.status()).isEqualTo(RunStatus.FINISHED);
            assertThat(other.countItems(writing.runId())).isEqualTo(4);
            assertThat(ended.counts().passed()).isEqualTo(4);
            assertThat(server.send("DELETE", "/api/runs/" + writing.runId(), null, true)
                            .status())
                    .isEqualTo(200);
        }
    }

    @Test
    void an_interrupted_run_is_cancelled_at_once_keeping_its_items_and_an_ended_one_is_refused() throws Exception {
        // A run another process wrote, then left interrupted (as SilentRuns leaves a run whose process died).
        String runId;
        try (Store other = Stores.open("jdbc:sqlite:" + home.resolve("assay.db"))) {
            var chat = new OpenAiChatModel(
                    new OpenAiSettings(
                            "scripted", server.model.baseUrl(), "", false, Duration.ofSeconds(10), RetryPolicy.none()),
                    line -> {});
            List<Case> cases = IntStream.range(0, 2)
                    .mapToObj(i -> Case.of(
                            "left_" + i,
                            "common",
                            "Capital of France? " + i,
                            Check.of("contains", Json.parse("\"Paris\""))))
                    .toList();
            var plan = new RunPlan(
                    new Suite("left", "v1", cases, Map.of(), List.of()),
                    new AgentSubject(chat, List.of(), AgentSettings.defaults(), 1),
                    TestSpecs.config(home.resolve("left-work")),
                    CheckerRegistry.builtins());
            Run ended = new Engine(other).start(plan, RunListener.NONE).await();
            runId = ended.runId();
            ServerFixture.leaveInterrupted(other, ended);
        }

        var cancelled = server.send("POST", "/api/runs/" + runId + "/cancel", "", true);

        assertThat(cancelled.status()).isEqualTo(200);
        assertThat(cancelled.json().path("status").asText()).isEqualTo("cancelled");
        JsonNode run =
                server.send("GET", "/api/runs/" + runId, null, true).json().path("run");
        assertThat(run.path("status").asText()).isEqualTo("cancelled");
        assertThat(run.path("counts").path("passed").asInt()).isEqualTo(2);
        var again = server.send("POST", "/api/runs/" + runId + "/cancel", "", true);
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.json().path("type").asText()).isEqualTo("run.not_running");
    }

    @Test
    void a_path_jetty_refuses_is_answered_with_the_json_problem() throws Exception {
        var uri = java.net.URI.create(server.url("/"));
        try (var socket = new java.net.Socket(uri.getHost(), uri.getPort())) {
            socket.getOutputStream()
                    .write(("GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort()
                                    + "\r\nConnection: close\r\n\r\n")
                            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);

            assertThat(answer).startsWith("HTTP/1.1 400").containsIgnoringCase("content-type: application/json");
            String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
            assertThat(Json.parse(body).path("type").asText()).isEqualTo("request.rejected");
            assertThat(Json.parse(body).path("status").asInt()).isEqualTo(400);
        }
    }

    @Test
    void the_page_may_not_be_framed_by_another_site() throws Exception {
        var page = server.http.send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.url("/")))
                        .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("X-Frame-Options")).hasValue("DENY");
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValue("frame-ancestors 'none'");
    }

    @Test
    void mutating_calls_without_the_token_are_refused() throws Exception {
        var noToken = server.send("POST", "/api/runs", server.startBody("basic.jsonl", ""), false);
        assertThat(noToken.status()).isEqualTo(401);
        assertThat(noToken.json().path("type").asText()).isEqualTo("auth.missing_token");
        assertThat(noToken.json().path("field").asText()).isEqualTo("token");
        var wrong = server.http.send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.url("/api/runs")))
                        .header("Authorization", "Bearer wrong")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{}"))
                        .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.body()).contains("auth.bad_token");
        assertThat(server.send("DELETE", "/wunder/admin/evaluation/x", null, false)
                        .status())
                .isEqualTo(401);
        assertThat(server.get("/api/runs").status()).isEqualTo(200);
    }

    @Test
    void a_bad_body_gets_a_json_error_naming_the_field() throws Exception {
        var badType = server.post("/api/runs", server.startBody("basic.jsonl", "\"concurrency\": \"many\""));
        assertThat(badType.status()).isEqualTo(400);
        assertThat(badType.json().path("field").asText()).isEqualTo("concurrency");
        assertThat(badType.json().path("type").asText()).isEqualTo("request.invalid_field");
        assertThat(badType.json().has("title")).isTrue();
        assertThat(badType.json().path("status").asInt()).isEqualTo(400);
        assertThat(server.post("/api/runs", server.startBody("../../etc", ""))
                        .json()
                        .path("field")
                        .asText())
                .isEqualTo("case_set");
        assertThat(server.post("/api/runs", server.startBody("/etc/passwd", "")).status())
                .isEqualTo(400);
        assertThat(server.post("/api/runs", server.startBody("basic.jsonl", "\"colour\": 1"))
                        .json()
                        .path("field")
                        .asText())
                .isEqualTo("colour");
        assertThat(server.post("/api/runs", "{not json").json().path("field").asText())
                .isEqualTo("body");
        var noKey = server.post("/api/runs", server.startBody("basic.jsonl", "\"api_key_env\": \"HOME\""));
        assertThat(noKey.json().path("field").asText()).isEqualTo("api_key_env");
        assertThat(noKey.text()).doesNotContain("at dev.assay");
    }

    @Test
    void tool_coverage_switches_skip_cases_that_need_other_tools() throws Exception {
        String runId = server.start("tools.jsonl", "\"tool_names\": [\"read_file\"]");
        JsonNode run = server.awaitEnd(runId);
        assertThat(run.path("counts").path("skipped").asInt()).isEqualTo(1);
        assertThat(run.path("counts").path("passed").asInt()).isEqualTo(1);
        JsonNode skipped = server.get("/api/runs/" + runId + "/items/0").json();
        assertThat(skipped.path("case_id").asText()).isEqualTo("needs_write");
        assertThat(skipped.path("error").path("type").asText()).isEqualTo("case.missing_tools");
    }

    @Test
    void tool_coverage_switches_offer_the_model_only_the_allowed_tools() throws Exception {
        String runId = server.start("tools.jsonl", "\"tool_names\": [\"read_file\"]");
        server.awaitEnd(runId);
        JsonNode request = server.model.requests().stream()
                .filter(body -> body.toString().contains("Read a file"))
                .findFirst()
                .orElseThrow();
        List<String> offered = new ArrayList<>();
        request.path("tools")
                .forEach(tool -> offered.add(tool.path("function").path("name").asText()));
        assertThat(offered).containsExactlyInAnyOrder("read_file", "final_answer");
    }

    @Test
    void run_detail_holds_the_tool_coverage() throws Exception {
        String runId = server.start("tools.jsonl", "\"tool_names\": [\"read_file\"]");
        server.awaitEnd(runId);
        JsonNode coverage = server.get("/api/runs/" + runId).json().path("coverage");
        assertThat(coverage.path("available"))
                .extracting(JsonNode::asText)
                .contains("read_file")
                .doesNotContain("write_file");
        assertThat(coverage.path("exercised")).extracting(JsonNode::asText).containsExactly("read_file");
        assertThat(coverage.path("calls").path("read_file").asInt()).isEqualTo(1);
        assertThat(coverage.path("by_tag").has("builtin")).isTrue();
        assertThat(coverage.path("skipped").get(0).path("case_id").asText()).isEqualTo("needs_write");
        assertThat(coverage.path("skipped").get(0).path("type").asText()).isEqualTo("case.missing_tools");
        assertThat(coverage.path("skipped").get(0).path("missing_tools").has("write_file"))
                .isTrue();
        JsonNode alias = server.get("/wunder/admin/evaluation/" + runId).json();
        assertThat(alias.path("coverage").path("skipped").get(0).path("case_id").asText())
                .isEqualTo("needs_write");
    }

    @Test
    void a_stored_dialog_run_is_listed_by_kind() throws Exception {
        String runId =
                DialogRuns.store(server.store, home.resolve("dialog-runs").resolve("listed"), "dialog-listed");
        JsonNode dialogs = server.get("/api/runs?kind=dialog").json().path("runs");
        assertThat(dialogs).extracting(run -> run.path("run_id").asText()).contains(runId);
        assertThat(dialogs).extracting(run -> run.path("kind").asText()).containsOnly("dialog");
        JsonNode capability = server.get("/api/runs?kind=capability").json().path("runs");
        assertThat(capability).extracting(run -> run.path("run_id").asText()).doesNotContain(runId);
        assertThat(server.get("/api/runs?kind=chat").json().path("field").asText())
                .isEqualTo("kind");
    }

    @Test
    void a_dialog_run_detail_holds_the_metrics_and_each_turn() throws Exception {
        String runId =
                DialogRuns.store(server.store, home.resolve("dialog-runs").resolve("detail"), "dialog-detail");
        JsonNode detail = server.get("/api/runs/" + runId).json();
        JsonNode m1 = detail.path("run")
                .path("config")
                .path("metrics_summary")
                .path("metrics")
                .path("m1_context_continuity");
        assertThat(m1.path("micro").has("key_coverage")).isTrue();
        assertThat(m1.path("macro").has("key_coverage")).isTrue();
        assertThat(detail.path("items_total").asInt()).isEqualTo(3);
        JsonNode d1 = detail.path("items").get(0);
        assertThat(d1.path("case_id").asText()).isEqualTo("d1");
        assertThat(d1.path("checker_detail").path("metrics").has("m1")).isTrue();
        JsonNode first = d1.path("checker_detail").path("turns").get(0);
        assertThat(first.path("user_text").asText()).isEqualTo("我想买点基金");
        assertThat(first.path("pred_assistant_text").asText()).isEqualTo(DialogRuns.ANSWER);
        assertThat(first.path("recall_sources").get(0).path("content").asText()).isEqualTo(DialogRuns.RECALLED);
        JsonNode second = d1.path("checker_detail").path("turns").get(1);
        assertThat(second.path("turn_status").asText()).isEqualTo("error");
        assertThat(second.path("error").asText()).contains(DialogRuns.FAILURE);
        assertThat(detail.path("items").get(2).path("error").path("type").asText())
                .isEqualTo("dialog.skipped.invalid_json");
    }

    @Test
    void the_form_offers_every_built_in_tool_but_final_answer_as_a_switch() throws Exception {
        JsonNode tools = server.get("/api/info").json().path("tools");
        assertThat(tools)
                .extracting(JsonNode::asText)
                .contains("read_file", "write_file")
                .doesNotContain("final_answer");
    }

    @Test
    void the_case_sets_of_the_suites_directory_are_listed() throws Exception {
        JsonNode suites = server.get("/api/suites").json().path("suites");
        JsonNode basic = null;
        for (JsonNode suite : suites) {
            if (suite.path("name").asText().equals("basic.jsonl")) {
                basic = suite;
            }
        }
        assertThat(basic).isNotNull();
        assertThat(basic.path("case_count").asInt()).isEqualTo(4);
        assertThat(basic.path("dimensions").path("logic").asInt()).isEqualTo(1);
    }

    @Test
    void a_report_is_exported_in_each_format() throws Exception {
        String runId = server.start("basic.jsonl", "");
        server.awaitEnd(runId);
        Set<String> partialBefore = partialReports();
        JsonNode json = server.get("/api/runs/" + runId + "/report?format=json").json();
        assertThat(json.path("run_id").asText()).isEqualTo(runId);
        assertThat(server.get("/api/runs/" + runId + "/report?format=junit").text())
                .contains("<testsuite");
        assertThat(server.get("/api/runs/" + runId + "/report?format=md").status())
                .isEqualTo(200);
        JsonNode promptfoo =
                server.get("/api/runs/" + runId + "/report?format=promptfoo").json();
        assertThat(promptfoo.path("evalId").asText()).isEqualTo(runId);
        assertThat(promptfoo.path("results").path("results")).hasSize(4);
        assertThat(server.get("/api/runs/" + runId + "/report?format=pdf")
                        .json()
                        .path("field")
                        .asText())
                .isEqualTo("format");
        // Each report was written to a temporary file and sent from it: none is left once sent.
        assertThat(partialReports()).isSubsetOf(partialBefore);
    }

    private static Set<String> partialReports() throws IOException {
        try (var files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return files.map(file -> file.getFileName().toString())
                    .filter(name -> name.startsWith("assay-report-") && name.endsWith(".partial"))
                    .collect(Collectors.toSet());
        }
    }

    @Test
    void a_body_over_the_size_limit_is_refused_as_too_large() throws Exception {
        String body = "{\"user_id\": \"" + "x".repeat(2_000_000) + "\"}";

        ServerFixture.Response response = server.post("/api/runs", body);

        assertThat(response.status()).isEqualTo(413);
        assertThat(response.json().path("type").asText()).isEqualTo("request.too_large");
    }

    @Test
    void an_exported_report_is_a_sandboxed_document() throws Exception {
        String runId = server.start("xss.jsonl", "");
        server.awaitEnd(runId);

        var response = server.http.send(
                java.net.http.HttpRequest.newBuilder(
                                java.net.URI.create(server.url("/api/runs/" + runId + "/report?format=html")))
                        .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Security-Policy")).hasValue("sandbox");
    }

    @Test
    void two_runs_over_the_same_cases_are_compared_by_dimension_and_changed_verdict() throws Exception {
        String scripted = server.start("basic.jsonl", "");
        server.awaitEnd(scripted);
        var mock = server.post("/api/runs", "{\"model_name\": \"mock\", \"case_set\": \"basic.jsonl\"}");
        String mocked = mock.json().path("run_id").asText();
        server.awaitEnd(mocked);
        JsonNode comparison =
                server.get("/api/compare?a=" + scripted + "&b=" + mocked).json();
        assertThat(comparison.path("common_cases").asInt()).isEqualTo(4);
        // The mock answers "mock response": the two Paris cases flip from passed to failed.
        assertThat(comparison.path("changed_count").asInt()).isEqualTo(2);
        assertThat(comparison.path("changed").get(0).path("a_status").asText()).isEqualTo("passed");
        assertThat(comparison.path("total").path("delta").asDouble()).isNegative();
        // Paired over the 4 shared cases: the 2 Paris cases passed only in a; 2 regressions, no improvement.
        JsonNode paired = comparison.path("paired");
        assertThat(paired.path("n").asInt()).isEqualTo(4);
        assertThat(paired.path("only_a").asInt()).isEqualTo(2);
        assertThat(paired.path("only_b").asInt()).isZero();
        assertThat(paired.path("mcnemar_p").asDouble()).isEqualTo(0.5);
        assertThat(paired.path("mean_delta").asDouble()).isNegative();
        assertThat(server.get("/api/compare?a=" + scripted).json().path("field").asText())
                .isEqualTo("b");
    }

    @Test
    void the_reference_paths_work_as_aliases_with_the_reference_fields() throws Exception {
        String prefix = "/wunder/admin/evaluation";
        var started = server.post(prefix + "/start", server.startBody("basic.jsonl", "\"user_id\": \"alias\""));
        assertThat(started.status()).isEqualTo(200);
        String runId = started.json().path("run_id").asText();
        assertThat(started.json().path("status").asText()).isEqualTo("running");
        assertThat(started.json().path("case_count").asInt()).isEqualTo(4);
        List<ServerFixture.Event> events;
        try (var stream = server.new EventStream(prefix + "/stream/" + runId, 0L)) {
            events = stream.untilFinished();
        }
        assertThat(events.getLast().name()).isEqualTo("eval_finished");
        JsonNode runs = server.get(prefix + "/runs?user_id=alias").json().path("runs");
        assertThat(runs).hasSize(1);
        assertThat(runs.get(0).path("passed_count").asInt()).isEqualTo(2);
        assertThat(runs.get(0).path("total_score").asDouble()).isBetween(0.0, 100.0);
        assertThat(runs.get(0).path("started_time").isNumber()).isTrue();
        JsonNode detail = server.get(prefix + "/" + runId).json();
        assertThat(detail.path("run").path("run_id").asText()).isEqualTo(runId);
        assertThat(detail.path("items")).hasSize(4);
        assertThat(server.get(prefix + "/cases").json().path("case_sets")).isNotEmpty();
        JsonNode notRunning =
                server.post(prefix + "/" + runId + "/cancel", null).json();
        assertThat(notRunning.path("ok").asBoolean()).isFalse();
        JsonNode deleted =
                server.send("DELETE", prefix + "/" + runId, null, true).json();
        assertThat(deleted.path("ok").asBoolean()).isTrue();
        assertThat(server.get(prefix + "/" + runId).status()).isEqualTo(404);
    }

    @Test
    void a_stream_of_an_unknown_run_is_a_json_404() throws Exception {
        var response = server.get("/api/runs/nope/events");
        assertThat(response.status()).isEqualTo(404);
        assertThat(response.json().path("type").asText()).isEqualTo("run.not_found");
    }
}
