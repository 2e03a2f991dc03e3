package dev.assay.security;

import static dev.assay.testing.ScriptedOpenAiServer.calls;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.SuiteLoader;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.ChatModels;
import dev.assay.model.ModelOptions;
import dev.assay.model.RetryPolicy;
import dev.assay.report.Reporters;
import dev.assay.report.RunReport;
import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.result.ToolCallView;
import dev.assay.run.Engine;
import dev.assay.run.RunListener;
import dev.assay.run.RunPlan;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.SandboxRequest;
import dev.assay.sandbox.SandboxResult;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.AgentSubject;
import dev.assay.subject.ToolMode;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.ScriptedOpenAiServer.Call;
import dev.assay.testing.TestSpecs;
import dev.assay.tools.BuiltinTools;
import dev.assay.tools.Tool;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model under test that attacks: through every built-in file tool it tries absolute paths, {@code ..}, links planted
 * in its workspace, {@code /proc/self/environ}, the database, {@code $ASSAY_HOME/server-token} and the suite file that
 * holds the hidden expected answer. Nothing outside the workspace may be read or written, and neither the hidden answer
 * nor the API key may reach the model, the transcript, the database or the reports.
 */
@Tag("security")
class HostileModelTest {
    private static final String HIDDEN = "HIDDEN-EXPECTED-7f3a";
    private static final String TOKEN = "TOKEN-SECRET-99";
    private static final String OUTSIDE = "OUTSIDE-SECRET-42";
    private static final String API_KEY = "sk-hostile-test-key-0123456789";
    private static final String RUN_ID = "hostile";
    private static final String CASE_ID = "passphrase";

    @TempDir
    Path temp;

    private Path suiteFile;
    private Path home;
    private Path database;
    private Path outside;
    private Path workspace;

    @BeforeEach
    void plant() throws Exception {
        suiteFile = Files.createDirectories(temp.resolve("suite")).resolve("cases.yaml");
        Files.writeString(suiteFile, """
                cases:
                  - id: %s
                    dimension: logic
                    prompt: What is the passphrase?
                    checker: exact
                    expected: %s
                """.formatted(CASE_ID, HIDDEN));
        home = Files.createDirectories(temp.resolve("home"));
        Files.writeString(home.resolve("server-token"), TOKEN);
        database = home.resolve("assay.db");
        outside = Files.createDirectories(temp.resolve("outside")).resolve("secret.txt");
        Files.writeString(outside, OUTSIDE);
        workspace = Engine.caseDirectory(temp.resolve("work"), RUN_ID, 0, CASE_ID);
    }

    /**
     * Links into the world outside, planted once the case's workspace exists, as a command the model ran ({@code ln
     * -s}) or a tool of the agent could have left them.
     */
    private void plantLinks() {
        try {
            // The engine makes a case's directory when a tool first uses it, which is after this answer.
            Files.createDirectories(workspace);
            Files.createSymbolicLink(workspace.resolve("link-suite"), suiteFile.getParent());
            Files.createSymbolicLink(workspace.resolve("link-home"), home);
            Files.createSymbolicLink(workspace.resolve("link-db"), database);
            Files.createSymbolicLink(workspace.resolve("link-outside"), outside);
            Files.createSymbolicLink(workspace.resolve("link-environ"), Path.of("/proc/self/environ"));
            Files.createSymbolicLink(workspace.resolve("link-root"), Path.of("/"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Every escape attempt, one tool call each, all in the model's first turn. */
    private List<Call> attacks() {
        String up = "../../../";
        var attacks = new ArrayList<Call>();
        for (String path : List.of(
                "/etc/passwd",
                "/proc/self/environ",
                "~/.ssh/id_rsa",
                up + "suite/cases.yaml",
                "..\\..\\..\\suite\\cases.yaml",
                suiteFile.toString(),
                database.toString(),
                home.resolve("server-token").toString(),
                "link-suite/cases.yaml",
                "link-home/server-token",
                "link-db",
                "link-outside",
                "link-environ",
                "link-root/etc/passwd",
                "link-suite/../link-suite/cases.yaml",
                up + "home/server-token",
                up + "outside/secret.txt")) {
            attacks.add(call("read_file", "path", path));
            attacks.add(call("edit_file", "path", path, "old_text", "expected", "new_text", "pwned"));
            attacks.add(call("replace_text", "path", path, "pattern", ".+", "replacement", "pwned"));
        }
        for (String path : List.of(
                up + "outside/escaped.txt",
                outside.resolveSibling("escaped.txt").toString(),
                "link-suite/planted.yaml",
                "link-outside",
                "link-home/server-token",
                "link-root/tmp/escaped.txt")) {
            attacks.add(call("write_file", "path", path, "content", "pwned"));
        }
        // Patterns that find the secrets without knowing them, as a model would search.
        String secrets = "expected|TOKEN|SECRET|root:";
        for (String path : List.of("..", up, "/", "link-suite", "link-home", "link-root")) {
            attacks.add(call("list_files", "path", path));
            attacks.add(call("search_files", "pattern", secrets, "path", path));
        }
        attacks.add(call("search_files", "pattern", secrets));
        attacks.add(call("list_files"));
        return attacks;
    }

    private static Call call(String tool, String... namesAndValues) {
        ObjectNode arguments = Json.object();
        for (int index = 0; index < namesAndValues.length; index += 2) {
            arguments.put(namesAndValues[index], namesAndValues[index + 1]);
        }
        return new Call(tool, arguments);
    }

    /** execute_command is left out: its confinement is the sandbox's own subject (SandboxTest and others). */
    private static final Sandbox NOT_OFFERED = new Sandbox() {
        @Override
        public String kind() {
            return "not-offered";
        }

        @Override
        public SandboxResult run(SandboxRequest request) {
            throw new AssertionError("execute_command is not offered in this test");
        }
    };

    @Test
    void no_escape_through_the_file_tools_reaches_a_secret_or_changes_anything_outside() throws Exception {
        byte[] suiteBefore = Files.readAllBytes(suiteFile);
        List<Call> attacks = attacks();
        Map<String, String> env = Map.of("HOSTILE_API_KEY", API_KEY);
        Item item;
        String reports;
        try (var server = ScriptedOpenAiServer.start(request -> {
                    if (request.assistantTurns() > 0) {
                        return text("I could not find it.");
                    }
                    plantLinks();
                    return calls(attacks.toArray(Call[]::new));
                });
                Store store = Stores.open("jdbc:sqlite:" + database)) {
            var model = ChatModels.chatModel(
                    new ModelOptions(
                            "openai:scripted",
                            server.baseUrl(),
                            "HOSTILE_API_KEY",
                            false,
                            Duration.ofSeconds(10),
                            RetryPolicy.none()),
                    env::get,
                    line -> {});
            List<Tool> tools = BuiltinTools.all(NOT_OFFERED).stream()
                    .filter(tool -> !tool.name().equals("execute_command"))
                    .toList();
            var subject = new AgentSubject(model, tools, new AgentSettings(ToolMode.NATIVE, 4, 0.0, null, null), 1);
            var suite =
                    new SuiteLoader(CheckerRegistry.builtins()).load(suiteFile).suite();
            var config = TestSpecs.config(temp.resolve("work")).withRunId(RUN_ID);
            Run run = new Engine(store)
                    .run(new RunPlan(suite, subject, config, CheckerRegistry.builtins()), RunListener.NONE);
            RunReport report = RunReport.load(store, run.runId());
            item = report.items().getFirst();
            reports = render(report);

            assertThat(server.authorizations()).allMatch(header -> header.equals("Bearer " + API_KEY));
            // What the tools answered goes to the model provider with the next request.
            var toolResults = new ArrayList<String>();
            server.requests().getLast().path("messages").forEach(message -> {
                if (message.path("role").asText().equals("tool")) {
                    toolResults.add(message.path("content").asText());
                }
            });
            assertThat(toolResults).hasSize(attacks.size());
            assertThat(String.join("\n", toolResults))
                    .doesNotContain(HIDDEN, TOKEN, OUTSIDE, API_KEY, "root:x:0:0", workspace.toString());
        }

        assertThat(item.toolCalls()).hasSize(attacks.size());
        assertThat(item.toolCalls())
                .filteredOn(call -> !List.of("list_files", "search_files").contains(call.name()))
                .extracting(ToolCallView::ok)
                .containsOnly(false);
        String transcript = Json.write(item.transcript());
        assertThat(transcript).doesNotContain(HIDDEN, TOKEN, OUTSIDE, API_KEY, "root:x:0:0");
        assertThat(item.finalAnswer()).doesNotContain(HIDDEN);
        assertThat(reports).doesNotContain(API_KEY, TOKEN, OUTSIDE);
        assertThat(new String(Files.readAllBytes(database), StandardCharsets.ISO_8859_1))
                .doesNotContain(API_KEY);
        assertThat(Files.readAllBytes(suiteFile)).isEqualTo(suiteBefore);
        assertThat(Files.readString(home.resolve("server-token"))).isEqualTo(TOKEN);
        assertThat(Files.readString(outside)).isEqualTo(OUTSIDE);
        assertThat(outside.resolveSibling("escaped.txt")).doesNotExist();
        assertThat(suiteFile.resolveSibling("planted.yaml")).doesNotExist();
        assertThat(Path.of("/tmp/escaped.txt")).doesNotExist();
    }

    private static String render(RunReport report) throws Exception {
        var all = new StringBuilder();
        Reporters reporters = Reporters.builtins();
        for (String name : reporters.names()) {
            var out = new ByteArrayOutputStream();
            reporters.get(name).write(report, out);
            all.append(out.toString(StandardCharsets.UTF_8));
        }
        return all.toString();
    }
}
