package dev.assay.run;

import static dev.assay.testing.ScriptedOpenAiServer.calls;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.cases.Selection;
import dev.assay.cases.Suite;
import dev.assay.cases.SuiteLoader;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.RetryPolicy;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.model.openai.OpenAiSettings;
import dev.assay.report.RunReport;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.sandbox.UnsandboxedSandbox;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.AgentSubject;
import dev.assay.subject.ToolMode;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.ScriptedOpenAiServer.Call;
import dev.assay.testing.ScriptedOpenAiServer.ChatRequest;
import dev.assay.testing.ScriptedOpenAiServer.Reply;
import dev.assay.testing.TestSpecs;
import dev.assay.tools.BuiltinTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Function-calling cases with their own tools, end to end: a suite file declares functions (one with a dot in its name,
 * one in OpenAI's wrapper, BFCL's types), the scripted model calls one natively or in text, the result comes from the
 * case's {@code tool_results}, and {@code tool_args} judges the call.
 */
class FunctionCallingRunTest {
    private static final String SUITE = """
            {"case_set": "fc", "cases": [
              {"id": "forecast_native", "dimension": "tool", "prompt": "Forecast for Paris, natively.",
               "tools": [
                 {"type": "function", "function": {"name": "weather.forecast", "description": "Forecast for a city.",
                  "parameters": {"type": "dict", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                                 "required": ["city"]}}},
                 {"name": "set_flag", "description": "Turn a feature on or off.",
                  "parameters": {"type": "dict", "properties": {"enabled": {"type": "boolean"}}, "required": ["enabled"]}}],
               "tool_results": {"weather.forecast": [{"args": {"city": "Rome"}, "result": "rainy in Rome"},
                                                     {"args": {"city": "Paris"}, "result": {"sky": "clear", "temp_c": 21}}]},
               "checks": [
                 {"checker": "tool_args", "expected": {"tool": "weather.forecast", "args": {"city": ["Paris"], "days": ["", 3]},
                  "match": "bfcl"}},
                 {"checker": "contains", "expected": "temp_c"}]},
              {"id": "forecast_text", "dimension": "tool", "prompt": "Forecast for Rome, in text.",
               "tools": [{"name": "weather.forecast", "description": "Forecast for a city.",
                  "parameters": {"type": "dict", "properties": {"city": {"type": "string"}}, "required": ["city"]}}],
               "tool_results": {"weather.forecast": [{"args": {"city": "Rome"}, "result": "rainy in Rome"}]},
               "checks": [
                 {"checker": "tool_args", "expected": {"tool": "weather.forecast", "args": {"city": ["rome"]}}},
                 {"checker": "contains", "expected": "rainy in Rome"}]},
              {"id": "beside_builtins", "dimension": "tool", "prompt": "Forecast for Oslo, with files at hand.",
               "tools": [{"name": "weather.forecast", "parameters": {"type": "dict", "properties": {"city": {"type": "string"}}}}],
               "builtin_tools": true,
               "checker": "tool_args", "expected": {"tool": "weather.forecast", "args": {"city": ["Oslo"]}}},
              {"id": "builtins_only", "dimension": "tool", "prompt": "Just answer: hello.",
               "checker": "contains", "expected": "hello"}
            ]}""";

    @TempDir
    Path temp;

    /** First turn: the call each prompt asks for; then an answer quoting the tool result the model was sent. */
    private static Reply reply(ChatRequest request) {
        String prompt = request.firstUserText();
        if (request.assistantTurns() == 0) {
            if (prompt.contains("natively")) {
                return calls(Call.of("weather_forecast", "{\"city\": \"Paris\", \"days\": 3}"));
            }
            if (prompt.contains("in text")) {
                return text(
                        "<tool_call>{\"name\": \"weather.forecast\", \"arguments\": {\"city\": \"Rome\"}}</tool_call>");
            }
            if (prompt.contains("Oslo")) {
                return calls(Call.of("weather_forecast", "{\"city\": \"Oslo\"}"));
            }
            return text("hello");
        }
        return text("Forecast: "
                + ScriptedOpenAiServer.contentText(request.lastMessage().path("content")));
    }

    private Map<String, dev.assay.result.Item> run(ScriptedOpenAiServer server, Suite suite, ToolMode mode)
            throws Exception {
        try (Store store = Stores.open("jdbc:sqlite:" + temp.resolve(mode + ".db"))) {
            var chat = new OpenAiChatModel(
                    new OpenAiSettings(
                            "scripted", server.baseUrl(), "", false, Duration.ofSeconds(10), RetryPolicy.none()),
                    line -> {});
            var subject = new AgentSubject(
                    chat, BuiltinTools.all(new UnsandboxedSandbox()), new AgentSettings(mode, 4, 0.0, null, null), 2);
            Run run = new Engine(store)
                    .run(
                            new RunPlan(
                                    suite,
                                    subject,
                                    TestSpecs.config(temp.resolve("work-" + mode)),
                                    CheckerRegistry.builtins()),
                            RunListener.NONE);
            var items = new HashMap<String, dev.assay.result.Item>();
            RunReport.load(store, run.runId()).items().forEach(item -> items.put(item.caseId(), item));
            return items;
        }
    }

    private Suite suite(String... ids) throws Exception {
        Path file = Files.writeString(temp.resolve("fc.json"), SUITE);
        Suite suite = new SuiteLoader(CheckerRegistry.builtins()).load(file).requireValid();
        return new Selection(List.of(), "", List.of(), List.of(ids), null, 0).select(suite);
    }

    private static List<String> offeredNames(JsonNode request) {
        var names = new ArrayList<String>();
        request.path("tools")
                .forEach(tool -> names.add(tool.at("/function/name").asText()));
        return names;
    }

    private static JsonNode firstRequestFor(ScriptedOpenAiServer server, String promptFragment) {
        return server.requests().stream()
                .filter(request -> request.path("messages").toString().contains(promptFragment))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void a_native_call_of_a_declared_function_gets_its_result_from_the_case_and_is_judged_by_its_schema()
            throws Exception {
        try (var server = ScriptedOpenAiServer.start(FunctionCallingRunTest::reply)) {
            var items = run(server, suite("forecast_native", "beside_builtins", "builtins_only"), ToolMode.NATIVE);

            var forecast = items.get("forecast_native");
            assertThat(forecast.status()).isEqualTo(ItemStatus.PASSED);
            // The dotted name travelled as weather_forecast and was mapped back.
            assertThat(forecast.toolCalls())
                    .singleElement()
                    .satisfies(call -> assertThat(call.name()).isEqualTo("weather.forecast"));
            assertThat(offeredNames(firstRequestFor(server, "natively")))
                    .containsExactly("weather_forecast", "set_flag");
            // BFCL's "dict" and the wrapper were normalised before the schema reached the API.
            assertThat(firstRequestFor(server, "natively")
                            .at("/tools/0/function/parameters/type")
                            .asText())
                    .isEqualTo("object");
            assertThat(forecast.finalAnswer()).contains("\"temp_c\":21");

            assertThat(items.get("beside_builtins").status()).isEqualTo(ItemStatus.PASSED);
            assertThat(offeredNames(firstRequestFor(server, "Oslo")))
                    .startsWith("weather_forecast")
                    .contains("read_file", "final_answer");
            assertThat(items.get("beside_builtins").finalAnswer())
                    .contains(dev.assay.subject.internal.DeclaredFunctionTool.ACKNOWLEDGEMENT);

            assertThat(items.get("builtins_only").status()).isEqualTo(ItemStatus.PASSED);
            assertThat(offeredNames(firstRequestFor(server, "Just answer")))
                    .contains("read_file")
                    .doesNotContain("weather_forecast");
        }
    }

    @Test
    void a_text_mode_call_of_a_declared_function_is_judged_and_answered_from_the_matching_result() throws Exception {
        try (var server = ScriptedOpenAiServer.start(FunctionCallingRunTest::reply)) {
            var items = run(server, suite("forecast_text"), ToolMode.TEXT);

            var forecast = items.get("forecast_text");
            assertThat(forecast.status()).isEqualTo(ItemStatus.PASSED);
            assertThat(forecast.toolCalls())
                    .singleElement()
                    .satisfies(call -> assertThat(call.name()).isEqualTo("weather.forecast"));
            assertThat(forecast.finalAnswer()).contains("rainy in Rome");
            // The text-mode prompt teaches the declared function under its own name, not the built-in tools.
            String system =
                    firstRequestFor(server, "in text").at("/messages/0/content").asText();
            assertThat(system).contains("weather.forecast").doesNotContain("read_file");
        }
    }
}
