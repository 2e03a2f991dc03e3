package dev.assay.subject;

import static dev.assay.testing.ScriptedOpenAiServer.calls;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.cases.DeclaredTools;
import dev.assay.cases.SimulatedUser;
import dev.assay.model.ChatModel;
import dev.assay.model.ResponseCache;
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
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Conversation cases: a scripted user model plays the user from the case's instructions, a scripted agent replies with
 * tool calls, and the transcript keeps both sides in order.
 */
class ConversationTest {
    private static final String INSTRUCTIONS = "You are Ana Ruiz (customer C-77). You want order 7 cancelled.";

    @TempDir
    Path temp;

    private static final Tool CANCEL = new Tool() {
        @Override
        public String name() {
            return "cancel_order";
        }

        @Override
        public String description() {
            return "Cancel an order.";
        }

        @Override
        public JsonNode parameters() {
            return Json.parse("{\"type\": \"object\", \"properties\": {\"order\": {\"type\": \"integer\"}}}");
        }

        @Override
        public ToolResult call(JsonNode arguments, Workspace workspace) {
            return ToolResult.ok("order " + arguments.path("order").asInt() + " cancelled");
        }
    };

    /** The agent: cancels on the first request, then says so; afterwards asks whether there is anything else. */
    private static ScriptedOpenAiServer.Reply agent(ScriptedOpenAiServer.ChatRequest request) {
        if (request.assistantTurns() == 0) {
            return calls(Call.of("cancel_order", "{\"order\": 7}"));
        }
        return request.lastMessage().path("role").asText().equals("tool")
                ? text("Order 7 is cancelled.")
                : text("Anything else?");
    }

    /** The user: asks, then thanks and stops. */
    private static ScriptedOpenAiServer.Reply stoppingUser(ScriptedOpenAiServer.ChatRequest request) {
        return request.assistantTurns() == 0 ? text("Please cancel my order 7.") : text("Thanks! ###STOP###");
    }

    private static ChatModel model(ScriptedOpenAiServer server, String name, RetryPolicy retry) {
        return new OpenAiChatModel(
                new OpenAiSettings(name, server.baseUrl(), "", false, Duration.ofSeconds(10), retry), line -> {});
    }

    private Transcript play(ChatModel agent, ChatModel user, SimulatedUser simulated, ResponseCache cache)
            throws Exception {
        var subject = new AgentSubject(
                agent,
                List.of(CANCEL),
                AgentSettings.defaults(),
                1,
                Map.of(),
                new UserModels("scripted-user", name -> user));
        var session = new Session(
                "run",
                "s1",
                "",
                new Workspace(temp),
                Instant.now().plusSeconds(20),
                new TranscriptBuilder(),
                line -> {},
                cache);
        var input = new SubjectInput("c", "en-US", "", DeclaredTools.NONE, "POLICY: cancel on request.", simulated);
        return subject.run(input, session);
    }

    private static List<String> types(Transcript transcript) {
        return transcript.events().stream()
                .map(event -> Json.tree(event).path("type").asText())
                .toList();
    }

    @Test
    void the_user_speaks_first_and_the_conversation_ends_on_the_stop_token_with_every_step_in_order() throws Exception {
        try (var agentServer = ScriptedOpenAiServer.start(ConversationTest::agent);
                var userServer = ScriptedOpenAiServer.start(ConversationTest::stoppingUser)) {
            Transcript transcript = play(
                    model(agentServer, "scripted", RetryPolicy.none()),
                    model(userServer, "scripted-user", RetryPolicy.none()),
                    new SimulatedUser(INSTRUCTIONS, 10, null, null),
                    ResponseCache.NONE);

            assertThat(types(transcript))
                    .containsExactly(
                            "user_turn",
                            "model_turn",
                            "tool_call",
                            "tool_output",
                            "model_turn",
                            "user_turn",
                            "final_answer");
            assertThat(transcript.finalAnswer()).isEqualTo("Order 7 is cancelled.");
            assertThat(((TranscriptEvent.UserTurn) transcript.events().get(5)).text())
                    .contains("###STOP###");
            // The agent got the case's system prompt and the user's first message; the stop message never reached it.
            JsonNode first = agentServer.requests().get(0);
            assertThat(first.at("/messages/0/role").asText()).isEqualTo("system");
            assertThat(first.at("/messages/0/content").asText()).startsWith("POLICY: cancel on request.");
            assertThat(first.at("/messages/1/content").asText()).isEqualTo("Please cancel my order 7.");
            assertThat(agentServer.requests()).hasSize(2);
            // The user model played from the instructions and the stop token, and got the agent's reply after its
            // tool calls.
            JsonNode userFirst = userServer.requests().get(0);
            assertThat(userFirst.at("/messages/0/content").asText())
                    .contains(INSTRUCTIONS)
                    .contains("###STOP###");
            assertThat(userFirst.path("tools").isMissingNode()
                            || userFirst.path("tools").isEmpty())
                    .isTrue();
            JsonNode userSecond = userServer.requests().get(1);
            JsonNode last =
                    userSecond.path("messages").get(userSecond.path("messages").size() - 1);
            assertThat(last.path("role").asText()).isEqualTo("user");
            assertThat(last.path("content").asText()).isEqualTo("Order 7 is cancelled.");
        }
    }

    @Test
    void the_conversation_ends_after_max_turns_user_messages() throws Exception {
        try (var agentServer = ScriptedOpenAiServer.start(ConversationTest::agent);
                var userServer = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("And another thing.")))) {
            Transcript transcript = play(
                    model(agentServer, "scripted", RetryPolicy.none()),
                    model(userServer, "scripted-user", RetryPolicy.none()),
                    new SimulatedUser(INSTRUCTIONS, 3, null, null),
                    ResponseCache.NONE);

            assertThat(types(transcript).stream().filter("user_turn"::equals)).hasSize(3);
            assertThat(userServer.requests()).hasSize(3);
            assertThat(types(transcript).getLast()).isEqualTo("final_answer");
            assertThat(transcript.finalAnswer()).isEqualTo("Anything else?");
        }
    }

    @Test
    void a_configured_stop_token_ends_the_conversation() throws Exception {
        try (var agentServer = ScriptedOpenAiServer.start(ConversationTest::agent);
                var userServer = ScriptedOpenAiServer.start(request ->
                        request.assistantTurns() == 0 ? text("Please cancel my order 7.") : text("Bye <<done>>"))) {
            Transcript transcript = play(
                    model(agentServer, "scripted", RetryPolicy.none()),
                    model(userServer, "scripted-user", RetryPolicy.none()),
                    new SimulatedUser(INSTRUCTIONS, 10, null, "<<done>>"),
                    ResponseCache.NONE);

            assertThat(types(transcript).stream().filter("user_turn"::equals)).hasSize(2);
            assertThat(userServer.requests().get(0).at("/messages/0/content").asText())
                    .contains("<<done>>");
        }
    }

    @Test
    void the_user_models_calls_are_retried_and_kept_in_the_runs_cache_like_the_agents() throws Exception {
        var cache = new TreeCache();
        var retry = new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(1), Duration.ofSeconds(5));
        try (var agentServer = ScriptedOpenAiServer.start(ConversationTest::agent);
                var userServer = ScriptedOpenAiServer.start(ConversationTest::stoppingUser)) {
            userServer.inject(ScriptedOpenAiServer.failure(500));
            ChatModel agent = model(agentServer, "scripted", RetryPolicy.none());
            ChatModel user = model(userServer, "scripted-user", retry);

            Transcript first = play(agent, user, new SimulatedUser(INSTRUCTIONS, 10, null, null), cache);
            assertThat(first.error()).isEmpty();
            // The 500 was retried: three requests for two user messages.
            assertThat(userServer.requests()).hasSize(3);

            Transcript again = play(agent, user, new SimulatedUser(INSTRUCTIONS, 10, null, null), cache);
            // Played again from the kept answers (a resumed trial): neither model is asked anything.
            assertThat(userServer.requests()).hasSize(3);
            assertThat(agentServer.requests()).hasSize(2);
            assertThat(types(again)).isEqualTo(types(first));
            assertThat(again.finalAnswer()).isEqualTo(first.finalAnswer());
        }
    }

    @Test
    void a_conversation_without_a_user_model_is_a_target_error_naming_the_option() throws Exception {
        try (var agentServer = ScriptedOpenAiServer.start(ConversationTest::agent)) {
            var subject = new AgentSubject(
                    model(agentServer, "scripted", RetryPolicy.none()), List.of(), AgentSettings.defaults(), 1);
            var session = new Session(
                    "run",
                    "s1",
                    "",
                    new Workspace(temp),
                    Instant.now().plusSeconds(20),
                    new TranscriptBuilder(),
                    line -> {});
            Transcript transcript = subject.run(
                    new SubjectInput(
                            "c", "", "", DeclaredTools.NONE, "", new SimulatedUser(INSTRUCTIONS, 5, null, null)),
                    session);

            assertThat(transcript.error())
                    .hasValueSatisfying(
                            error -> assertThat(error.problem().type()).isEqualTo("user.no_model"));
            assertThat(agentServer.requests()).isEmpty();
        }
    }

    /** Answers kept in a map for the test's two plays. */
    private static final class TreeCache implements ResponseCache {
        private final Map<String, JsonNode> answers = new ConcurrentHashMap<>();

        @Override
        public Optional<JsonNode> find(String key) {
            return Optional.ofNullable(answers.get(key));
        }

        @Override
        public void keep(String key, JsonNode answer) {
            answers.put(key, answer);
        }

        @Override
        public ResponseCache withinRun() {
            return this;
        }
    }
}
