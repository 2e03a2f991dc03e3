package dev.assay.subject.replay.internal;

import static dev.assay.testing.ScriptedOpenAiServer.calls;
import static dev.assay.testing.ScriptedOpenAiServer.failure;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.cases.Suite;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.RetryPolicy;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.model.openai.OpenAiSettings;
import dev.assay.report.Reporters;
import dev.assay.report.RunReport;
import dev.assay.report.TranscriptExport;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.run.Engine;
import dev.assay.run.RunListener;
import dev.assay.run.RunPlan;
import dev.assay.sandbox.UnsandboxedSandbox;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.AgentSubject;
import dev.assay.subject.Subject;
import dev.assay.subject.ToolMode;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.ScriptedOpenAiServer.Call;
import dev.assay.testing.TestSpecs;
import dev.assay.tools.BuiltinTools;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replay re-scores a recorded run: a live run against the scripted OpenAI-compatible server, its transcripts exported,
 * then replayed through the same engine and checkers, must give the same verdicts.
 */
class ReplaySubjectTest {
    private static final Pattern EVAL_DIR = Pattern.compile("eval/[0-9a-f]{32}");

    @TempDir
    Path temp;

    private Store store;
    private ScriptedOpenAiServer server;

    @BeforeEach
    void start() {
        store = Stores.open("jdbc:sqlite:" + temp.resolve("assay.db"));
        var script = new LinkedHashMap<String, List<ScriptedOpenAiServer.Reply>>();
        script.put("capital", List.of(text("The answer is Paris.")));
        script.put("colour", List.of(text("red")));
        script.put("list the files", List.of(calls(Call.of("list_files", "{\"path\": \".\"}")), text("a.txt")));
        script.put("broken", List.of(failure(500)));
        server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.byPrompt(script, request -> {
            Matcher dir = EVAL_DIR.matcher(request.firstUserText());
            if (dir.find() && request.assistantTurns() == 0) {
                return calls(Call.of(
                        "write_file",
                        Json.write(Json.object()
                                .put("path", dir.group() + "/out.txt")
                                .put("content", "half of it"))));
            }
            return text(request.assistantTurns() > 0 ? "done" : "no script");
        }));
    }

    @AfterEach
    void stop() {
        server.close();
        store.close();
    }

    private static List<Case> cases() {
        return List.of(
                Case.of("capital", "common", "capital of France?", Check.of("contains", Json.parse("\"Paris\""))),
                Case.of("colour", "common", "colour of the sky?", Check.of("exact", Json.parse("\"blue\""))),
                Case.of("list", "tool", "list the files", Check.of("tool_called", Json.parse("\"list_files\""))),
                Case.of("broken", "logic", "broken question", Check.of("exact", Json.parse("\"x\""))),
                new Case(
                        "needs_mcp",
                        "tool",
                        "",
                        "search the docs",
                        1,
                        null,
                        List.of(Check.of("tool_called", Json.parse("\"docs@search\""))),
                        List.of("docs@search"),
                        List.of(),
                        Map.of(),
                        null,
                        null),
                new Case(
                        "artifact",
                        "complex",
                        "",
                        "write into eval/{run_id}/out.txt",
                        1,
                        null,
                        List.of(
                                new Check("file_exists", Json.parse("{\"path\": \"eval/{run_id}/out.txt\"}"), 1),
                                new Check(
                                        "file_contains",
                                        Json.parse("{\"path\": \"eval/{run_id}/out.txt\", "
                                                + "\"contains\": \"all of it\"}"),
                                        1)),
                        List.of(),
                        List.of(),
                        Map.of(),
                        null,
                        null));
    }

    private Run run(Subject subject, List<Case> cases) throws InterruptedException {
        var suite = new Suite("replay-test", "v1", cases, Map.of(), List.of());
        var config = TestSpecs.config(
                temp.resolve("work"),
                settings -> settings.timeout(Duration.ofSeconds(20)).keepWorkspaces(true));
        return new Engine(store).run(new RunPlan(suite, subject, config, CheckerRegistry.builtins()), RunListener.NONE);
    }

    private Run live() throws InterruptedException {
        var model = new OpenAiChatModel(
                new OpenAiSettings("scripted", server.baseUrl(), "", false, Duration.ofSeconds(10), RetryPolicy.none()),
                line -> {});
        return run(
                new AgentSubject(
                        model,
                        BuiltinTools.all(new UnsandboxedSandbox()),
                        new AgentSettings(ToolMode.NATIVE, 4, 0.0, null, null),
                        8),
                cases());
    }

    private Path export(Run run) throws Exception {
        var out = new StringWriter();
        TranscriptExport.write(store, run.runId(), temp.resolve("work"), out);
        Path file = temp.resolve("recorded.jsonl");
        Files.writeString(file, out.toString());
        return file;
    }

    private Map<String, Item> items(Run run) {
        var byCase = new LinkedHashMap<String, Item>();
        RunReport.load(store, run.runId()).items().forEach(item -> byCase.put(item.caseId(), item));
        return byCase;
    }

    @Test
    void replaying_an_exported_run_gives_the_live_runs_verdicts() throws Exception {
        Run live = live();
        Run replayed = run(new ReplaySubject(Recording.read(export(live))), cases());

        var liveItems = items(live);
        var replayItems = items(replayed);
        assertThat(liveItems.values())
                .extracting(Item::status)
                .contains(
                        ItemStatus.PASSED, ItemStatus.FAILED, ItemStatus.PARTIAL, ItemStatus.ERROR, ItemStatus.SKIPPED);
        liveItems.forEach((caseId, item) -> {
            assertThat(replayItems.get(caseId).status()).as(caseId).isEqualTo(item.status());
            assertThat(replayItems.get(caseId).score()).as(caseId).isEqualTo(item.score());
        });
        assertThat(replayed.totalScore()).isEqualTo(live.totalScore());
        assertThat(replayed.dimensionScores()).isEqualTo(live.dimensionScores());
    }

    @Test
    void a_workspace_link_to_a_file_outside_is_not_exported() throws Exception {
        Run live = live();
        Path secret = Files.writeString(temp.resolve("secret.txt"), "host secret");
        Path workspace = Engine.caseDirectory(
                temp.resolve("work"), live.runId(), items(live).get("artifact").seq(), "artifact");
        Files.createSymbolicLink(workspace.resolve("leak.txt"), secret);

        String exported = Files.readString(export(live));

        assertThat(exported).doesNotContain("host secret");
        assertThat(exported).contains("half of it");
    }

    @Test
    void a_report_json_is_replayed_like_the_jsonl_export() throws Exception {
        Run live = live();
        Path reports = temp.resolve("reports");
        Reporters.builtins().writeAll(RunReport.load(store, live.runId()), reports);

        Run replayed = run(new ReplaySubject(Recording.read(reports.resolve("report.json"))), cases());

        var replayItems = items(replayed);
        items(live).forEach((caseId, item) -> {
            if (!caseId.equals("artifact")) {
                assertThat(replayItems.get(caseId).status()).as(caseId).isEqualTo(item.status());
            }
        });
    }

    @Test
    void a_case_missing_from_the_recording_is_skipped_with_the_reason() throws Exception {
        Path file = temp.resolve("one.jsonl");
        Files.writeString(
                file,
                Json.write(new Recording.Recorded(
                                        "capital",
                                        "",
                                        new dev.assay.transcript.Transcript(
                                                List.of(new dev.assay.transcript.TranscriptEvent.FinalAnswer(
                                                        java.time.Instant.now(), "Paris"))),
                                        Map.of())
                                .toJson())
                        + "\n");

        var items = items(run(new ReplaySubject(Recording.read(file)), cases().subList(0, 2)));

        assertThat(items.get("capital").status()).isEqualTo(ItemStatus.PASSED);
        assertThat(items.get("colour").status()).isEqualTo(ItemStatus.SKIPPED);
        assertThat(items.get("colour").error().type()).isEqualTo("replay.missing_case");
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void a_line_that_is_not_a_recording_names_its_line() throws Exception {
        Path file = temp.resolve("bad.jsonl");
        Files.writeString(file, "{\"tool_names\": []}\n\n{\"case_id\": \"x\"}\n");

        assertThatThrownBy(() -> Recording.read(file)).isInstanceOfSatisfying(AssayException.class, e -> {
            assertThat(e.problem().type()).isEqualTo("replay.invalid");
            assertThat(e.problem().details()).containsEntry("line", 3);
        });
    }

    @Test
    void a_case_recorded_twice_is_refused() throws Exception {
        String line = "{\"case_id\": \"x\", \"transcript\": []}\n";
        Path file = temp.resolve("twice.jsonl");
        Files.writeString(file, line + line);

        assertThatThrownBy(() -> Recording.read(file))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("replay.duplicate_case"));
    }
}
