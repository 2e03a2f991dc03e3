package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.store.Stores;
import dev.assay.testing.ScriptedOpenAiServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of a run whose trials each hold an environment: the environment servers die with Assay, even one that
 * outlives its standard input, in bubblewrap and unsandboxed alike; {@code --resume} keeps the finished trial (its
 * model is not asked again) and runs the others, each on a fresh environment of its own.
 */
class KilledEnvironmentRunTest {
    /**
     * A stdio MCP environment written for this test: one tool that records an entry, the entries as its state. At the
     * end of its input it does not exit, as a server with work of its own might not: only a kill ends it.
     */
    private static final String LEDGER = """
            import json, sys, time
            entries = []
            def answer(request_id, result):
                print(json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}), flush=True)
            for line in sys.stdin:
                message = json.loads(line)
                method, request_id = message.get("method"), message.get("id")
                if request_id is None:
                    continue
                if method == "initialize":
                    answer(request_id, {"protocolVersion": message["params"]["protocolVersion"],
                                        "capabilities": {"tools": {}, "resources": {}},
                                        "serverInfo": {"name": "ledger", "version": "1"}})
                elif method == "tools/list":
                    answer(request_id, {"tools": [{"name": "record", "description": "Records an entry.",
                        "inputSchema": {"type": "object", "properties": {"entry": {"type": "string"}},
                                        "required": ["entry"]}}]})
                elif method == "tools/call":
                    entries.append(message["params"]["arguments"]["entry"])
                    answer(request_id, {"content": [{"type": "text", "text": "recorded"}], "isError": False})
                elif method == "resources/read":
                    answer(request_id, {"contents": [{"uri": message["params"]["uri"],
                        "mimeType": "application/json", "text": json.dumps({"entries": entries})}]})
                else:
                    print(json.dumps({"jsonrpc": "2.0", "id": request_id,
                                      "error": {"code": -32601, "message": "no " + method}}), flush=True)
            time.sleep(3600)
            """;

    private static final List<String> CASES = List.of("quick", "slow0", "slow1", "slow2");

    @TempDir
    Path home;

    /** Marks this test's environment processes among the host's. */
    private final String tag = "ledger-" + UUID.randomUUID();

    private final AtomicBoolean slow = new AtomicBoolean(true);
    private final Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();

    @BeforeEach
    void needsPython() {
        assumeTrue(python().isPresent(), "python3 is not on the PATH");
    }

    @Test
    void environments_die_with_a_killed_run_and_resume_keeps_the_finished_trial() throws Exception {
        killAndResume(Map.of());
    }

    @Test
    void unsandboxed_environments_die_with_a_killed_run_too() throws Exception {
        // A PATH without bubblewrap: the run's environments are started unconfined.
        Path bin = Files.createDirectories(home.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("python3"), python().orElseThrow());
        for (String tool : List.of("setpriv", "prlimit")) {
            Optional<Path> found = onPath(tool);
            if (found.isPresent()) {
                Files.createSymbolicLink(bin.resolve(tool), found.get());
            }
        }
        killAndResume(Map.of("PATH", bin.toString()));
    }

    private void killAndResume(Map<String, String> env) throws Exception {
        Path suite = suite();
        try (var model = ScriptedOpenAiServer.start(this::answer)) {
            Process run = QuickThenSlowRun.cli(
                    home,
                    env,
                    "run",
                    suite.toString(),
                    "--model",
                    "openai:scripted",
                    "--base-url",
                    model.baseUrl(),
                    "--api-key-env",
                    "NONE",
                    "--concurrency",
                    "4",
                    "--verbose");
            awaitFirstItem(run);
            // The three slow trials wait on the model, each with its environment.
            assertThat(within(() -> environmentRoots().size() == 3))
                    .as("three environments running")
                    .isTrue();

            run.destroyForcibly();
            assertThat(run.waitFor(30, TimeUnit.SECONDS)).isTrue();

            assertThat(within(() -> environments().isEmpty()))
                    .as("environment processes left running after kill -9: %s", environments())
                    .isTrue();
            var cli = new CliRunner(home);
            String runId = Json.parse(
                            cli.run("runs", "list", "--format", "json").out())
                    .at("/runs/0/run_id")
                    .asText();
            assertThat(asked.get("quick").get()).isEqualTo(2);
            slow.set(false);

            var resumed = cli.run("run", "--resume", runId, "--format", "json", "-q");

            assertThat(resumed.code()).as(resumed.err()).isZero();
            String summary = resumed.out();
            assertThat(asked.get("quick").get())
                    .as("the finished trial's model calls")
                    .isEqualTo(2);
            for (String slowCase : CASES.subList(1, CASES.size())) {
                // One call lost with the killed run, then the tool call and the answer.
                assertThat(asked.get(slowCase).get())
                        .as(slowCase + " in " + summary)
                        .isEqualTo(3);
            }
            JsonNode ended = Json.parse(
                            cli.run("runs", "list", "--format", "json").out())
                    .at("/runs/0");
            assertThat(ended.path("status").asText()).isEqualTo("finished");
            // Each trial's state held its own entry only, equal to the gold action's on a fresh environment.
            assertThat(ended.path("counts").path("passed").asInt()).isEqualTo(4);
            try (var store = Stores.open(Stores.defaultUrl(home))) {
                assertThat(store.countItems(runId)).isEqualTo(4);
            }
            assertThat(within(() -> environments().isEmpty())).isTrue();
        }
    }

    /** Each case records its own id, then says it is done; the slow ones wait before their first turn. */
    private ScriptedOpenAiServer.Reply answer(ScriptedOpenAiServer.ChatRequest request) {
        String id = request.firstUserText();
        asked.computeIfAbsent(id, key -> new AtomicInteger()).incrementAndGet();
        if (request.assistantTurns() > 0) {
            return ScriptedOpenAiServer.text("done");
        }
        var record = ScriptedOpenAiServer.calls(
                new ScriptedOpenAiServer.Call("record", Json.object().put("entry", id)));
        return id.startsWith("slow") && slow.get() ? new ScriptedOpenAiServer.Reply.Delayed(30_000, record) : record;
    }

    private Path suite() throws IOException {
        // Readable by the sandbox's own user, as a suite's directory is.
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(home.resolve("ledger.py"), LEDGER);
        var lines = new StringBuilder();
        for (String id : CASES) {
            lines.append(Json.write(Map.of(
                            "id",
                            id,
                            "dimension",
                            "agent",
                            "prompt",
                            id,
                            "environment",
                            Map.of(
                                    "mcp",
                                    Map.of("command", List.of("python3", "ledger.py", tag)),
                                    "state",
                                    "ledger://entries"),
                            "checks",
                            List.of(Map.of(
                                    "checker",
                                    "state_matches",
                                    "actions",
                                    List.of(Map.of("name", "record", "arguments", Map.of("entry", id))))))))
                    .append('\n');
        }
        return Files.writeString(home.resolve("suite.jsonl"), lines);
    }

    private List<ProcessHandle> environments() {
        return ProcessHandle.allProcesses()
                .filter(ProcessHandle::isAlive)
                .filter(this::tagged)
                .toList();
    }

    /**
     * {@return one process per running environment}: the first of its tree to carry the tag (bubblewrap, and its copy
     * that is the sandbox's init, show the command too)
     */
    private List<ProcessHandle> environmentRoots() {
        return environments().stream()
                .filter(process ->
                        process.parent().map(parent -> !tagged(parent)).orElse(true))
                .toList();
    }

    private boolean tagged(ProcessHandle process) {
        return process.info().commandLine().orElse("").contains(tag);
    }

    /** Reads the run's output until its first item is printed, and keeps draining it after. */
    private static void awaitFirstItem(Process run) throws IOException {
        var lines = new BufferedReader(new InputStreamReader(run.getInputStream(), StandardCharsets.UTF_8));
        var seen = new ArrayList<String>();
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            seen.add(line);
            if (line.startsWith("[1/4]")) {
                Thread.ofVirtual().start(() -> lines.lines().forEach(rest -> {}));
                return;
            }
        }
        throw new AssertionError("the run ended before its first item: " + String.join("\n", seen));
    }

    /** {@return whether the condition held within ten seconds} */
    private static boolean within(BooleanSupplier condition) throws InterruptedException {
        Instant until = Instant.now().plusSeconds(10);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(until)) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    private static Optional<Path> python() {
        try {
            Process process = new ProcessBuilder("python3", "-c", "import sys; print(sys.executable)")
                    .redirectErrorStream(true)
                    .start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return process.waitFor() == 0 && !out.isEmpty() ? Optional.of(Path.of(out)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static Optional<Path> onPath(String name) {
        for (String directory : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path candidate = Path.of(directory, name);
            if (!directory.isEmpty() && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
