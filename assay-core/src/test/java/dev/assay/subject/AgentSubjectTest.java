package dev.assay.subject;

import static dev.assay.testing.ScriptedOpenAiServer.calls;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.model.RetryPolicy;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.model.openai.OpenAiSettings;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.ScriptedOpenAiServer.Call;
import dev.assay.tools.Tool;
import dev.assay.tools.ToolResult;
import dev.assay.tools.Workspace;
import dev.assay.transcript.Transcript;
import dev.assay.transcript.TranscriptBuilder;
import dev.assay.transcript.TranscriptEvent;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentSubjectTest {
    @TempDir
    Path temp;

    /** A tool named like an MCP tool, answering with its argument. */
    private static final Tool FORECAST = new Tool() {
        @Override
        public String name() {
            return "weather@forecast";
        }

        @Override
        public String description() {
            return "Forecast for a city.";
        }

        @Override
        public JsonNode parameters() {
            return Json.parse("{\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}}}");
        }

        @Override
        public ToolResult call(JsonNode arguments, Workspace workspace) {
            return ToolResult.ok("sunny in " + arguments.path("city").asText());
        }
    };

    private Transcript run(ScriptedOpenAiServer server, List<Tool> tools, AgentSettings settings) throws Exception {
        var model = new OpenAiChatModel(
                new OpenAiSettings("scripted", server.baseUrl(), "", false, null, RetryPolicy.none()), line -> {});
        var subject = new AgentSubject(model, tools, settings, 1);
        var session = new Session(
                "run",
                "s1",
                "",
                new Workspace(temp),
                Instant.now().plusSeconds(20),
                new TranscriptBuilder(),
                line -> {});
        return subject.run(
                SubjectInput.of(
                        Case.of("c", "tool", "weather in Paris?", Check.of("contains", Json.parse("\"sunny\"")))),
                session);
    }

    @Test
    void tool_names_that_apis_reject_are_offered_under_a_wire_name_and_mapped_back() throws Exception {
        try (var server = ScriptedOpenAiServer.start(request -> request.assistantTurns() == 0
                ? calls(Call.of("weather__forecast", "{\"city\": \"Paris\"}"))
                : text("It is sunny."))) {
            Transcript transcript = run(server, List.of(FORECAST), AgentSettings.defaults());
            assertThat(server.requests().get(0).at("/tools/0/function/name").asText())
                    .isEqualTo("weather__forecast");
            assertThat(transcript.toolCalls()).singleElement().satisfies(call -> {
                assertThat(call.tool()).isEqualTo("weather@forecast");
                assertThat(call.rawName()).isEqualTo("weather__forecast");
            });
            assertThat(transcript.events())
                    .anySatisfy(event -> assertThat(event)
                            .isInstanceOfSatisfying(
                                    TranscriptEvent.ToolOutput.class,
                                    output -> assertThat(output.output()).isEqualTo("sunny in Paris")));
            assertThat(transcript.finalAnswer()).isEqualTo("It is sunny.");
        }
    }

    @Test
    void the_loop_stops_at_the_step_limit_without_an_error() throws Exception {
        try (var server = ScriptedOpenAiServer.start(
                ScriptedOpenAiServer.always(calls(Call.of("weather__forecast", "{\"city\": \"Oslo\"}"))))) {
            Transcript transcript =
                    run(server, List.of(FORECAST), new AgentSettings(ToolMode.NATIVE, 3, null, null, null));
            assertThat(server.requests()).hasSize(3);
            assertThat(transcript.toolCalls()).hasSize(3);
            assertThat(transcript.error()).isEmpty();
        }
    }

    @Test
    void an_unknown_tool_is_reported_to_the_model_as_a_failed_call() throws Exception {
        try (var server = ScriptedOpenAiServer.start(
                request -> request.assistantTurns() == 0 ? calls(Call.of("teleport", "{}")) : text("cannot"))) {
            Transcript transcript = run(server, List.of(FORECAST), AgentSettings.defaults());
            assertThat(server.requests().get(1).toString()).contains("tool.unknown");
            assertThat(transcript.finalAnswer()).isEqualTo("cannot");
        }
    }

    /**
     * A case declaring {@code a.b}, {@code a_b} and {@code search}, functions whose names clash on the wire or with
     * aliases.
     */
    private static Case declaring(String prompt) {
        var attributes = (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse("""
                {"tools": [{"name": "a.b", "parameters": {"type": "dict", "properties": {"x": {"type": "integer"}}}},
                           {"name": "a_b", "parameters": {"type": "dict", "properties": {"y": {"type": "integer"}}}},
                           {"name": "search", "parameters": {"type": "dict", "properties": {}}}],
                 "tool_results": {"a_b": "from a_b", "a.b": "from a.b", "search": "from search"}}""");
        return new Case(
                "declared",
                "tool",
                "",
                prompt,
                1.0,
                null,
                List.of(Check.of("contains", Json.parse("\"from\""))),
                List.of(),
                List.of(),
                java.util.Map.of(),
                attributes,
                null);
    }

    @Test
    void declared_names_that_clash_on_the_wire_get_distinct_wire_names_and_each_maps_back() throws Exception {
        try (var server = ScriptedOpenAiServer.start(request -> request.assistantTurns() == 0
                ? calls(Call.of("a_b_2", "{\"y\": 1}"), Call.of("a_b", "{\"x\": 1}"), Call.of("search", "{}"))
                : text("done"))) {
            var model = new OpenAiChatModel(
                    new OpenAiSettings("scripted", server.baseUrl(), "", false, null, RetryPolicy.none()), line -> {});
            var subject = new AgentSubject(model, List.of(FORECAST), AgentSettings.defaults(), 1);
            var session = new Session(
                    "run",
                    "s1",
                    "",
                    new Workspace(temp),
                    Instant.now().plusSeconds(20),
                    new TranscriptBuilder(),
                    line -> {});
            Transcript transcript = subject.run(SubjectInput.of(declaring("call them")), session);

            assertThat(server.requests().get(0).path("tools").findValuesAsText("name"))
                    .containsExactly("a_b", "a_b_2", "search");
            // A declared `search` is that function, not the built-in search_files the alias table would make of it.
            assertThat(transcript.toolCalls())
                    .extracting(TranscriptEvent.ToolCall::tool)
                    .containsExactly("a_b", "a.b", "search");
            assertThat(transcript.events())
                    .filteredOn(TranscriptEvent.ToolOutput.class::isInstance)
                    .extracting(event -> ((TranscriptEvent.ToolOutput) event).output())
                    .containsExactly("from a_b", "from a.b", "from search");
            assertThat(subject.toolNames(SubjectInput.of(declaring("x")))).containsExactly("a.b", "a_b", "search");
            assertThat(subject.toolNames()).containsExactly("weather@forecast");
        }
    }
}
