package dev.assay.run;

import static dev.assay.testing.ScriptedOpenAiServer.calls;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.check.CheckerRegistry;
import dev.assay.model.ModelOptions;
import dev.assay.model.RetryPolicy;
import dev.assay.report.RunReport;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.sandbox.Sandboxes;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.ScriptedOpenAiServer.Call;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Without a sandbox, execute_command would run the model's commands with Assay's rights, where they could read the API
 * key from Assay's own {@code /proc} entry. So it is not offered unless the user opts in, and a case that needs it is
 * skipped with the reason instead of run.
 */
@Tag("security")
class CommandsWithoutSandboxTest {
    private static final Sandboxes.Finder NO_BUBBLEWRAP = Optional::empty;

    @TempDir
    Path temp;

    private Item runCommandCase(ToolOptions tools, ScriptedOpenAiServer server) throws Exception {
        Path suite = temp.resolve("suite.jsonl");
        Files.writeString(suite, """
                {"id": "shell", "dimension": "tool", "prompt": "Run echo hi.", "checker": "tool_called", \
                "expected": "execute_command"}
                """);
        var request = new RunSettings()
                .suites(List.of(suite))
                .model(new ModelOptions("openai:scripted", server.baseUrl(), null, false, null, RetryPolicy.none()))
                .allowUnsandboxedCommands(tools.allowUnsandboxedCommands())
                .resolve();
        CheckerRegistry checkers = CheckerRegistry.builtins();
        try (var prepared = request.prepare(
                        null,
                        temp.resolve("work"),
                        checkers,
                        Map.<String, String>of()::get,
                        line -> {},
                        NO_BUBBLEWRAP);
                Store store = Stores.open("jdbc:sqlite:" + temp.resolve("assay.db"))) {
            Run run = new Engine(store).run(prepared.plan(), RunListener.NONE);
            assertThat(run.config().path("sandbox").asText())
                    .isEqualTo(tools.allowUnsandboxedCommands() ? "none" : "unavailable");
            return RunReport.load(store, run.runId()).items().getFirst();
        }
    }

    @Test
    void a_case_needing_execute_command_is_skipped_with_the_reason_and_the_model_is_never_called() throws Exception {
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("done")))) {
            Item item = runCommandCase(ToolOptions.DEFAULTS, server);

            assertThat(item.status()).isEqualTo(ItemStatus.SKIPPED);
            assertThat(item.error().type()).isEqualTo("sandbox.unavailable");
            assertThat(item.error().message()).contains("--allow-unsandboxed-commands");
            assertThat(server.requests()).isEmpty();
        }
    }

    @Test
    void with_the_users_opt_in_commands_run_unconfined_and_the_run_records_it() throws Exception {
        var script = ScriptedOpenAiServer.byPrompt(
                Map.of(
                        "Run echo hi.",
                        List.of(calls(Call.of("execute_command", "{\"command\": \"echo hi\"}")), text("done"))),
                r -> text("?"));
        try (var server = ScriptedOpenAiServer.start(script)) {
            Item item = runCommandCase(new ToolOptions(List.of(), null, List.of(), true), server);

            assertThat(item.status()).as(String.valueOf(item.checkerDetail())).isEqualTo(ItemStatus.PASSED);
        }
    }
}
