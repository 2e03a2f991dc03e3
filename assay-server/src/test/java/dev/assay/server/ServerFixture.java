package dev.assay.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.check.CheckerRegistry;
import dev.assay.check.judge.JudgeConfig;
import dev.assay.model.ModelOptions;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.run.Engine;
import dev.assay.run.RunSettings;
import dev.assay.sandbox.Sandboxes;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.testing.ScriptedOpenAiServer;
import io.javalin.Javalin;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A real server on a loopback port over a SQLite store in a temporary directory, a scripted OpenAI-compatible model
 * server, and an HTTP client that speaks to both. The scripted model answers {@code Paris} except: a prompt containing
 * {@code slow} waits 300 ms first, one containing {@code script} answers with a {@code <script>} tag. Case set
 * {@code tools.jsonl} has a case needing {@code write_file} and one needing {@code read_file}, whose prompt the model
 * answers by calling {@code read_file} first.
 */
final class ServerFixture implements AutoCloseable {
    static final String TOKEN = "test-token-0123456789";
    static final String KEY_VARIABLE = "SCRIPTED_API_KEY";
    /** The rubric of the cases of {@code judged.jsonl}, which the scripted judge grades. */
    static final String JUDGE_RUBRIC = "The answer names Paris";
    /** The judge's model id at the scripted server; {@code openai:} before it is the judge model's name. */
    static final String JUDGE_MODEL = "scripted-judge";
    /** Markup that would run a script if the page inserted it as HTML: it must always show as text. */
    static final String MARKUP = "<img src=x onerror=\"window.__assayPageXss = 1\">";

    final Path home;
    final Store store;
    final ScriptedOpenAiServer model;
    final Javalin app;
    final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    ServerFixture(Path home) throws IOException {
        this(home, Sandboxes.ISOLATING);
    }

    /** As {@link #ServerFixture(Path)}, the server finding sandboxes with {@code sandboxes}. */
    ServerFixture(Path home, Sandboxes.Finder sandboxes) throws IOException {
        this.home = home;
        Path suites = Files.createDirectories(home.resolve("suites"));
        Files.writeString(suites.resolve("basic.jsonl"), cases("basic", 4, ""));
        Files.writeString(suites.resolve("slow.jsonl"), cases("slow", 8, " slow"));
        Files.writeString(suites.resolve("xss.jsonl"), """
                {"id": "xss_1", "dimension": "common", "prompt": "Say something with a script tag", "checker": "contains", "expected": "Paris"}
                {"id": "xss_2", "dimension": "logic", "prompt": "Capital of France?", "checker": "exact", "expected": "Berlin"}
                """);
        Files.writeString(suites.resolve("tools.jsonl"), """
                {"id": "needs_write", "dimension": "tool", "prompt": "Write a file", "prerequisites": ["write_file"], "tags": ["builtin"], "checker": "contains", "expected": "Paris"}
                {"id": "needs_read", "dimension": "tool", "prompt": "Read a file", "prerequisites": ["read_file"], "tags": ["builtin"], "checker": "contains", "expected": "Paris"}
                """);
        Files.writeString(suites.resolve("page.jsonl"), """
                {"id": "page_tool", "dimension": "tool", "language": "en-US", "tags": ["builtin"], "prompt": "Read the notes", "files": {"notes.txt": "%s in the notes"}, "checker": "exact", "expected": "Paris, France"}
                {"id": "page_regex", "dimension": "logic", "language": "zh-CN", "tags": ["knowledge"], "prompt": "Give the code", "checker": "regex", "expected": "\\\\d{3}"}
                {"id": "page_json", "dimension": "complex", "language": "en-US", "prompt": "Reply with JSON", "checker": "json_contains", "expected": {"required": {"status": "ok", "count": 3}}}
                {"id": "page_long", "dimension": "common", "language": "en-US", "tags": ["user"], "prompt": "Write a long text", "checker": "contains", "expected": "Paris"}
                """.formatted(MARKUP.replace("\"", "\\\"")));
        Files.writeString(suites.resolve("code.jsonl"), """
                {"id": "code_add", "dimension": "code", "prompt": "Write add(a, b) in Python", "checker": "code", "code_language": "python", "entry_point": "add", "test_cases": [{"input": [1, 2], "expected": 3}, {"input": [2, 2], "expected": 4}]}
                """);
        // Six answers a judge grades: it passes the first four and fails the last two (the judge is the same scripted
        // server, told apart by the rubric in its request).
        var judged = new StringBuilder();
        for (int i = 1; i <= 6; i++) {
            judged.append(
                    "{\"id\": \"judged_%d\", \"dimension\": \"common\", \"prompt\": \"Judge me %d\", \"checker\": \"judge\", \"expected\": {\"rubric\": \"%s\", \"scale\": \"pass_fail\"}}\n"
                            .formatted(i, i, JUDGE_RUBRIC));
        }
        Files.writeString(suites.resolve("judged.jsonl"), judged);
        store = Stores.open("jdbc:sqlite:" + home.resolve("assay.db"));
        model = ScriptedOpenAiServer.start(request -> {
            if (request.firstUserText().contains(JUDGE_RUBRIC)) {
                boolean passes = java.util.stream.IntStream.rangeClosed(1, 4)
                        .anyMatch(i -> request.firstUserText().contains("Judge me " + i));
                return ScriptedOpenAiServer.text("{\"reasoning\": \"judged\", \"pass\": " + passes + "}");
            }
            if (request.firstUserText().contains("script tag")) {
                return ScriptedOpenAiServer.text("<script>window.__assayXss = 1</script><b>Paris</b>");
            }
            if (request.firstUserText().contains("Read a file") && request.assistantTurns() == 0) {
                return ScriptedOpenAiServer.calls(
                        ScriptedOpenAiServer.Call.of("read_file", "{\"path\": \"notes.txt\"}"));
            }
            if (request.firstUserText().equals("Read the notes")) {
                return request.assistantTurns() == 0
                        ? ScriptedOpenAiServer.calls(ScriptedOpenAiServer.Call.of(
                                "read_file",
                                Json.object()
                                        .put("path", "notes.txt")
                                        .put("note", MARKUP)
                                        .toString()))
                        : ScriptedOpenAiServer.text("<think>The notes say where.</think>Paris " + MARKUP);
            }
            if (request.firstUserText().equals("Write add(a, b) in Python")) {
                return ScriptedOpenAiServer.text("```python\ndef add(a, b):\n    return 0 if a == 2 else a + b\n```");
            }
            if (request.firstUserText().equals("Give the code")) {
                return ScriptedOpenAiServer.text("the code is 123 today");
            }
            if (request.firstUserText().equals("Reply with JSON")) {
                return ScriptedOpenAiServer.text("{\"status\": \"failed\", \"count\": 3}");
            }
            if (request.firstUserText().equals("Write a long text")) {
                return ScriptedOpenAiServer.text("lorem ipsum ".repeat(400) + "Paris");
            }
            ScriptedOpenAiServer.Reply paris = ScriptedOpenAiServer.text("Paris");
            return request.firstUserText().contains("slow")
                    ? new ScriptedOpenAiServer.Reply.Delayed(300, paris)
                    : paris;
        });
        CheckerRegistry checkers = CheckerRegistry.builtins();
        var config = new ServerConfig(
                        "127.0.0.1",
                        TOKEN,
                        suites,
                        home.resolve("workspaces"),
                        Map.of(KEY_VARIABLE, "sk-scripted")::get)
                .withSandboxes(sandboxes);
        // The server's own judge (as `assay serve` takes assay.yaml's): API runs resolve it into their spec.
        var judge = new JudgeConfig(
                "default",
                new ModelOptions("openai:" + JUDGE_MODEL, model.baseUrl(), KEY_VARIABLE, false, null, null),
                Duration.ofSeconds(10));
        app = AssayServer.create(config, new Engine(store), store, checkers, new RunSettings().judges(List.of(judge)))
                .start(0);
    }

    /**
     * Cases cycling through the four dimensions (common, logic, tool, complex) and alternating between a pass
     * ({@code contains Paris}) and a failure ({@code exact Berlin}).
     */
    private static String cases(String prefix, int count, String promptSuffix) {
        var lines = new StringBuilder();
        for (int i = 1; i <= count; i++) {
            String dimension = List.of("common", "logic", "tool", "complex").get((i - 1) % 4);
            String check = i % 2 == 0
                    ? "\"checker\": \"exact\", \"expected\": \"Berlin\""
                    : "\"checker\": \"contains\", \"expected\": \"Paris\"";
            lines.append("{\"id\": \"%s_%d\", \"dimension\": \"%s\", \"prompt\": \"Capital of France? %d%s\", %s}\n"
                    .formatted(prefix, i, dimension, i, promptSuffix, check));
        }
        return lines.toString();
    }

    /** Marks a run another process wrote as {@code interrupted}, as SilentRuns leaves a run whose process died. */
    static void leaveInterrupted(Store store, Run ended) {
        store.updateRun(ended.withProgress(
                RunStatus.INTERRUPTED,
                ended.dimensionScores(),
                ended.totalScore(),
                ended.counts(),
                ended.finishedAt(),
                ended.elapsedS(),
                Problem.of("run.process_died", "killed")));
    }

    String url(String path) {
        return "http://127.0.0.1:" + app.port() + path;
    }

    /** A start body for the scripted model over a case set. */
    String startBody(String caseSet, String extraFields) {
        return """
                {"model_name": "openai:scripted", "base_url": "%s", "api_key_env": "%s", "case_set": "%s"%s}
                """.formatted(model.baseUrl(), KEY_VARIABLE, caseSet, extraFields.isEmpty() ? "" : ", " + extraFields);
    }

    record Response(int status, JsonNode json, String text) {}

    Response send(String method, String path, String body, boolean withToken) throws Exception {
        var builder = HttpRequest.newBuilder(URI.create(url(path)))
                .timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (withToken) {
            builder.header("Authorization", "Bearer " + TOKEN);
        }
        HttpResponse<String> response = http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
        String text = response.body();
        JsonNode json = text.startsWith("{") || text.startsWith("[") ? Json.parse(text) : null;
        return new Response(response.statusCode(), json, text);
    }

    Response get(String path) throws Exception {
        return send("GET", path, null, false);
    }

    Response post(String path, String body) throws Exception {
        return send("POST", path, body, true);
    }

    /** Starts a run through the API and returns its id. */
    String start(String caseSet, String extraFields) throws Exception {
        Response started = post("/api/runs", startBody(caseSet, extraFields));
        assertThat(started.status()).as(started.text()).isEqualTo(201);
        return started.json().path("run_id").asText();
    }

    /** Polls the run's detail until it is no longer running; {@return the final run record} */
    JsonNode awaitEnd(String runId) throws Exception {
        Instant deadline = Instant.now().plusSeconds(30);
        while (Instant.now().isBefore(deadline)) {
            JsonNode run = get("/api/runs/" + runId).json().path("run");
            if (!run.path("status").asText().equals("running")) {
                return run;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("run " + runId + " did not end within 30 s");
    }

    /** One SSE event as received. */
    record Event(long id, String name, JsonNode data) {}

    /** An open SSE stream read line by line; closing it drops the connection. */
    final class EventStream implements AutoCloseable {
        private final java.util.stream.Stream<String> lines;
        private final Iterator<String> iterator;

        EventStream(String path, Long lastEventId) throws Exception {
            var builder = HttpRequest.newBuilder(URI.create(url(path))).header("Accept", "text/event-stream");
            if (lastEventId != null) {
                builder.header("Last-Event-ID", Long.toString(lastEventId));
            }
            HttpResponse<java.util.stream.Stream<String>> response =
                    http.send(builder.build(), HttpResponse.BodyHandlers.ofLines());
            assertThat(response.statusCode()).isEqualTo(200);
            lines = response.body();
            iterator = lines.iterator();
        }

        /** {@return the next event, or null when the server closed the stream} */
        Event next() {
            long id = -1;
            String name = "message";
            var data = new StringBuilder();
            while (iterator.hasNext()) {
                String line = iterator.next();
                if (line.isEmpty()) {
                    if (data.length() > 0) {
                        return new Event(id, name, Json.parse(data.toString()));
                    }
                    continue;
                }
                if (line.startsWith("id:")) {
                    id = Long.parseLong(line.substring(3).strip());
                } else if (line.startsWith("event:")) {
                    name = line.substring(6).strip();
                } else if (line.startsWith("data:")) {
                    data.append(line.substring(5).strip());
                }
            }
            return null;
        }

        /** {@return every event up to and including {@code eval_finished}} */
        List<Event> untilFinished() {
            var events = new ArrayList<Event>();
            for (Event event = next(); event != null; event = next()) {
                events.add(event);
                if (event.name().equals("eval_finished")) {
                    break;
                }
            }
            return events;
        }

        @Override
        public void close() {
            lines.close();
        }
    }

    EventStream stream(String runId, Long lastEventId) throws Exception {
        return new EventStream("/api/runs/" + runId + "/events", lastEventId);
    }

    @Override
    public void close() {
        app.stop();
        model.close();
        store.close();
    }
}
