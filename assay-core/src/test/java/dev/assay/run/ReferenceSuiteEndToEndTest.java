package dev.assay.run;

import static dev.assay.testing.ScriptedOpenAiServer.calls;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.cases.Suite;
import dev.assay.cases.SuiteLoader;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.RetryPolicy;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.model.openai.OpenAiSettings;
import dev.assay.report.RunReport;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.sandbox.UnsandboxedSandbox;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.AgentSubject;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.ScriptedOpenAiServer.Call;
import dev.assay.testing.ScriptedOpenAiServer.Reply;
import dev.assay.testing.SharedData;
import dev.assay.testing.TestSpecs;
import dev.assay.tools.BuiltinTools;
import dev.assay.tools.ToolNames;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The reference server's own final case sets, unmodified, run end to end against a scripted model that answers each
 * case correctly through Assay's tools (Chinese tool names included). Every case Assay can run must pass; the cases
 * needing tools Assay does not have (apply_patch, ptc) must be skipped with that reason.
 */
class ReferenceSuiteEndToEndTest {
    private static final String RUN_ID = "0123456789abcdef0123456789abcdef";

    @TempDir
    Path temp;

    @ParameterizedTest
    @ValueSource(strings = {"zh-CN", "en-US"})
    void the_reference_default_set_passes_where_assay_has_the_tools(String language) throws Exception {
        Path file = SharedData.require("wunder/becbe543/config/evaluation/cases/default." + language + ".json");
        var checkers = CheckerRegistry.builtins();
        Suite suite = new SuiteLoader(checkers).load(file).requireValid();
        Map<String, List<Reply>> script = new HashMap<>();
        for (Case evalCase : suite.cases()) {
            Case filled = evalCase.withPlaceholders(Map.of("run_id", RUN_ID, "user_id", ""));
            script.put(filled.prompt(), oracle(filled));
        }
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.byPrompt(script, r -> text("?")));
                Store store = Stores.open("jdbc:sqlite:" + temp.resolve("assay.db"))) {
            var model = new OpenAiChatModel(
                    new OpenAiSettings("scripted", server.baseUrl(), "", false, null, RetryPolicy.none()), line -> {});
            var subject =
                    new AgentSubject(model, BuiltinTools.all(new UnsandboxedSandbox()), AgentSettings.defaults(), 8);
            var config = TestSpecs.config(temp.resolve("work")).withRunId(RUN_ID);
            Run run = new Engine(store).run(new RunPlan(suite, subject, config, checkers), RunListener.NONE);

            var items = RunReport.load(store, run.runId()).items();
            assertThat(items).hasSize(21);
            assertThat(items)
                    .filteredOn(item -> item.status() == ItemStatus.SKIPPED)
                    .extracting(Item::caseId)
                    .containsExactlyInAnyOrder("tool_apply_patch", "tool_ptc");
            assertThat(items)
                    .filteredOn(item -> item.status() != ItemStatus.SKIPPED)
                    .allSatisfy(item -> assertThat(item.status())
                            .as(item.caseId() + " " + item.checkerDetail())
                            .isEqualTo(ItemStatus.PASSED));
            assertThat(run.totalScore()).isEqualTo(1.0);
            assertThat(run.counts().skipped()).isEqualTo(2);
        }
    }

    /** The replies of a model that knows the answer key. */
    private static List<Reply> oracle(Case evalCase) {
        Check check = evalCase.checks().get(0);
        JsonNode expected = check.expected();
        String fixture = "eval/" + RUN_ID + "/fixtures/alpha.txt";
        return switch (check.checker()) {
            case "choice" -> List.of(text("答案：" + expected.asText()));
            case "tool_called" -> {
                String written = expected.asText();
                String arguments = switch (ToolNames.canonical(written)) {
                    case ToolNames.READ_FILE -> "{\"path\": \"" + fixture + "\"}";
                    case ToolNames.SEARCH_FILES -> "{\"pattern\": \"beta\", \"path\": \"eval\"}";
                    case ToolNames.WRITE_FILE ->
                        "{\"path\": \"eval/" + RUN_ID + "/outputs/w.txt\", \"content\": \"x\"}";
                    case ToolNames.EXECUTE_COMMAND -> "{\"command\": \"echo hello\"}";
                    default -> "{}";
                };
                yield List.of(calls(Call.of(written, arguments)), text("done"));
            }
            case "file_contains" ->
                List.of(
                        write(
                                expected.path("path").asText(),
                                expected.path("contains").asText()),
                        text("done"));
            case "json_contains" ->
                List.of(write(expected.path("path").asText(), Json.write(expected.path("required"))), text("done"));
            case "file_exists" -> List.of(write(expected.path("path").asText(), "png"), text("done"));
            default -> throw new IllegalStateException("no oracle for " + check.checker());
        };
    }

    private static Reply write(String path, String content) {
        var arguments = Json.object().put("path", path).put("content", content);
        return calls(new Call("写入文件", arguments));
    }
}
