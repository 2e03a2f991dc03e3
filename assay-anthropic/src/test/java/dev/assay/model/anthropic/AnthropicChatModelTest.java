package dev.assay.model.anthropic;

import static dev.assay.testing.ScriptedOpenAiServer.calls;
import static dev.assay.testing.ScriptedOpenAiServer.failure;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.cases.Suite;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.ChatMessage;
import dev.assay.model.ModelRequest;
import dev.assay.model.ModelResponse;
import dev.assay.model.RetryPolicy;
import dev.assay.report.RunReport;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.run.Engine;
import dev.assay.run.RunListener;
import dev.assay.run.RunPlan;
import dev.assay.sandbox.UnsandboxedSandbox;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.AgentSubject;
import dev.assay.subject.ToolMode;
import dev.assay.testing.ScriptedAnthropicServer;
import dev.assay.testing.ScriptedOpenAiServer.Call;
import dev.assay.testing.ScriptedOpenAiServer.Reply;
import dev.assay.testing.TestSpecs;
import dev.assay.tools.BuiltinTools;
import dev.assay.tools.ToolSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Anthropic model against a loopback server speaking the Messages API. */
class AnthropicChatModelTest {
    @TempDir
    Path temp;

    private ScriptedAnthropicServer server;
    private final List<String> retryLines = new java.util.concurrent.CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        server = ScriptedAnthropicServer.start(request -> {
            if (request.firstUserText().contains("write hello")) {
                return request.assistantTurns() == 0
                        ? calls(Call.of("write_file", "{\"path\": \"out/hello.txt\", \"content\": \"hello world\"}"))
                        : text("done");
            }
            return text("Paris");
        });
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private AnthropicChatModel model(RetryPolicy retry) {
        return new AnthropicChatModel(
                new AnthropicSettings("claude-test", server.baseUrl(), "sk-test", Duration.ofSeconds(5), retry, 0),
                retryLines::add);
    }

    private static ModelRequest ask(String prompt) {
        return new ModelRequest(
                List.of(ChatMessage.system("Be brief."), ChatMessage.user(prompt)),
                List.of(),
                0.0,
                null,
                null,
                Duration.ofSeconds(10));
    }

    private static RetryPolicy quickRetries(int attempts) {
        return new RetryPolicy(attempts, Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofSeconds(2));
    }

    @Test
    void a_text_answer_carries_its_usage_and_stop_reason() throws Exception {
        ModelResponse response = model(RetryPolicy.none()).complete(ask("capital of France?"));

        assertThat(response.text()).isEqualTo("Paris");
        assertThat(response.usage().inputTokens()).isEqualTo(11);
        assertThat(response.usage().outputTokens()).isEqualTo(7);
        assertThat(response.finishReason()).isEqualTo("end_turn");
    }

    @Test
    void the_request_has_a_top_level_system_prompt_temperature_and_the_default_max_tokens() throws Exception {
        model(RetryPolicy.none()).complete(ask("capital of France?"));

        JsonNode body = server.requests().get(0);
        assertThat(body.path("model").asText()).isEqualTo("claude-test");
        assertThat(body.path("max_tokens").asInt()).isEqualTo(4096);
        assertThat(body.path("system").asText()).isEqualTo("Be brief.");
        assertThat(body.path("temperature").asDouble(-1)).isEqualTo(0.0);
        assertThat(body.path("messages")).hasSize(1);
        assertThat(body.at("/messages/0/role").asText()).isEqualTo("user");
    }

    @Test
    void tools_are_offered_with_their_input_schema() throws Exception {
        var spec = new ToolSpec(
                "read_file",
                "Reads a file",
                Json.parse("{\"type\": \"object\", \"properties\": "
                        + "{\"path\": {\"type\": \"string\"}}, \"required\": [\"path\"]}"));
        model(RetryPolicy.none())
                .complete(new ModelRequest(List.of(ChatMessage.user("hi")), List.of(spec), null, null, 100, null));

        JsonNode tool = server.requests().get(0).at("/tools/0");
        assertThat(tool.path("name").asText()).isEqualTo("read_file");
        assertThat(tool.at("/input_schema/type").asText()).isEqualTo("object");
        assertThat(tool.at("/input_schema/properties/path/type").asText()).isEqualTo("string");
        assertThat(tool.at("/input_schema/required/0").asText()).isEqualTo("path");
        assertThat(server.requests().get(0).path("max_tokens").asInt()).isEqualTo(100);
    }

    @Test
    void a_tool_use_round_trip_through_the_agent_loop_writes_the_artifact_the_checker_verifies() throws Exception {
        try (Store store = Stores.open("jdbc:sqlite:" + temp.resolve("assay.db"))) {
            var subject = new AgentSubject(
                    model(RetryPolicy.none()),
                    BuiltinTools.all(new UnsandboxedSandbox()),
                    new AgentSettings(ToolMode.NATIVE, 4, 0.0, null, null),
                    4);
            var evalCase = Case.of(
                    "write",
                    "complex",
                    "write hello into out/hello.txt",
                    Check.of("file_contains", Json.parse("{\"path\": \"out/hello.txt\", \"contains\": \"hello\"}")));
            var run = new Engine(store)
                    .run(
                            new RunPlan(
                                    new Suite("anthropic", "v1", List.of(evalCase), Map.of(), List.of()),
                                    subject,
                                    TestSpecs.config(temp.resolve("work")),
                                    CheckerRegistry.builtins()),
                            RunListener.NONE);

            Item item = RunReport.load(store, run.runId()).items().get(0);
            assertThat(item.status()).isEqualTo(ItemStatus.PASSED);
            assertThat(item.toolCalls())
                    .singleElement()
                    .satisfies(call -> assertThat(call.ok()).isTrue());
            assertThat(item.finalAnswer()).isEqualTo("done");
        }
        JsonNode second = server.requests().get(1);
        JsonNode toolUse = second.at("/messages/1/content/0");
        JsonNode toolResult = second.at("/messages/2/content/0");
        assertThat(toolUse.path("type").asText()).isEqualTo("tool_use");
        assertThat(toolUse.at("/input/path").asText()).isEqualTo("out/hello.txt");
        assertThat(second.at("/messages/2/role").asText()).isEqualTo("user");
        assertThat(toolResult.path("type").asText()).isEqualTo("tool_result");
        assertThat(toolResult.path("tool_use_id").asText())
                .isEqualTo(toolUse.path("id").asText());
    }

    @Test
    void rate_limits_are_retried_after_the_servers_retry_after() throws Exception {
        server.inject(new Reply.Failure(429, Map.of("retry-after", "0.05")));

        ModelResponse response = model(quickRetries(3)).complete(ask("capital of France?"));

        assertThat(response.text()).isEqualTo("Paris");
        assertThat(server.requests()).hasSize(2);
        assertThat(retryLines).singleElement().asString().contains("target.rate_limited");
    }

    @Test
    void server_errors_are_retried_until_the_attempts_run_out() {
        server.inject(failure(500), failure(529), failure(500));

        assertThatThrownBy(() -> model(quickRetries(3)).complete(ask("capital of France?")))
                .isInstanceOfSatisfying(AssayException.class, e -> {
                    assertThat(e.problem().type()).isEqualTo("target.http_error");
                    assertThat(e.problem().details())
                            .containsEntry("attempts", 3)
                            .containsEntry("status", 500);
                });
        assertThat(server.requests()).hasSize(3);
    }

    @Test
    void a_bad_request_is_not_retried() {
        server.inject(failure(400));

        assertThatThrownBy(() -> model(quickRetries(3)).complete(ask("capital of France?")))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().details()).containsEntry("attempts", 1));
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void an_unreadable_response_is_a_malformed_response_problem() {
        server.inject(new Reply.Malformed());

        assertThatThrownBy(() -> model(RetryPolicy.none()).complete(ask("capital of France?")))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("target.malformed_response"));
    }

    @Test
    @Tag("fault")
    void a_body_cut_in_half_is_a_malformed_response_in_plain_words() {
        server.inject(new Reply.Truncated(new Reply.Answer("Paris", List.of())));

        assertThatThrownBy(() -> model(RetryPolicy.none()).complete(ask("capital of France?")))
                .isInstanceOfSatisfying(AssayException.class, e -> {
                    assertThat(e.problem().type()).isEqualTo("target.malformed_response");
                    assertThat(e.problem().message()).doesNotContain("Exception");
                });
    }
}
