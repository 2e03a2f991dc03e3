package dev.assay.model.openai;

import static dev.assay.testing.ScriptedOpenAiServer.calls;
import static dev.assay.testing.ScriptedOpenAiServer.failure;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.model.ChatMessage;
import dev.assay.model.ModelRequest;
import dev.assay.model.ModelResponse;
import dev.assay.model.RetryPolicy;
import dev.assay.model.ToolCallRequest;
import dev.assay.testing.CutStreamServer;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.ScriptedOpenAiServer.Call;
import dev.assay.testing.ScriptedOpenAiServer.Reply;
import dev.assay.tools.ToolSpec;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class OpenAiChatModelTest {
    private static final RetryPolicy FAST_RETRY =
            new RetryPolicy(3, Duration.ofMillis(10), Duration.ofMillis(200), Duration.ofSeconds(5));
    private ScriptedOpenAiServer server;
    private final List<String> log = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private OpenAiChatModel model(boolean stream) {
        return new OpenAiChatModel(
                new OpenAiSettings("scripted", server.baseUrl(), "sk-test", stream, Duration.ofSeconds(5), FAST_RETRY),
                log::add);
    }

    private static ModelRequest ask(String prompt) {
        return new ModelRequest(List.of(ChatMessage.user(prompt)), List.of(), 0.0, 7L, null, Duration.ofSeconds(10));
    }

    @Test
    void plain_answer_is_returned_with_usage() throws Exception {
        server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("Paris")));
        ModelResponse response = model(false).complete(ask("capital of France?"));
        assertThat(response.text()).isEqualTo("Paris");
        assertThat(response.usage().inputTokens()).isEqualTo(10);
        assertThat(server.requests().get(0).path("seed").asLong()).isEqualTo(7);
        assertThat(server.requests().get(0).path("temperature").asDouble()).isEqualTo(0.0);
    }

    @Test
    void streamed_answer_is_assembled_from_deltas() throws Exception {
        server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("a longer streamed answer")));
        ModelResponse response = model(true).complete(ask("q"));
        assertThat(response.text()).isEqualTo("a longer streamed answer");
        assertThat(server.requests().get(0).path("stream").asBoolean()).isTrue();
    }

    @Test
    void native_tool_calls_are_parsed_in_both_modes() throws Exception {
        server = ScriptedOpenAiServer.start(
                ScriptedOpenAiServer.always(calls(Call.of("write_file", "{\"path\": \"a.txt\", \"content\": \"x\"}"))));
        for (boolean stream : new boolean[] {false, true}) {
            ModelResponse response = model(stream).complete(ask("write"));
            assertThat(response.toolCalls()).singleElement().satisfies(call -> {
                assertThat(call.name()).isEqualTo("write_file");
                assertThat(call.arguments().path("path").asText()).isEqualTo("a.txt");
                assertThat(call.id()).isNotBlank();
            });
        }
    }

    @Test
    void tools_and_tool_results_are_sent_in_the_openai_shape() throws Exception {
        server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("done")));
        var request = new ModelRequest(
                List.of(
                        ChatMessage.user("go"),
                        ChatMessage.assistant(
                                "",
                                List.of(new ToolCallRequest("call_1", "read_file", Json.parse("{\"path\": \"a\"}")))),
                        ChatMessage.tool("call_1", "contents")),
                List.of(new ToolSpec(
                        "read_file",
                        "Reads a file.",
                        Json.parse("{\"type\": \"object\", \"properties\": {\"path\": {\"type\": \"string\"}}}"))),
                null,
                null,
                null,
                Duration.ofSeconds(5));
        model(false).complete(request);
        var body = server.requests().get(0);
        assertThat(body.at("/tools/0/function/name").asText()).isEqualTo("read_file");
        assertThat(body.at("/tools/0/function/parameters/properties/path/type").asText())
                .isEqualTo("string");
        assertThat(body.at("/messages/1/tool_calls/0/id").asText()).isEqualTo("call_1");
        assertThat(body.at("/messages/2/role").asText()).isEqualTo("tool");
        assertThat(body.at("/messages/2/tool_call_id").asText()).isEqualTo("call_1");
    }

    @Test
    void rate_limit_is_retried_after_the_servers_retry_after() throws Exception {
        server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("ok")));
        server.inject(new Reply.Failure(429, Map.of("Retry-After", "0.05")));
        assertThat(model(false).complete(ask("q")).text()).isEqualTo("ok");
        assertThat(server.requests()).hasSize(2);
        assertThat(log).singleElement().asString().contains("target.rate_limited");
    }

    @Test
    void server_errors_are_retried_then_reported_with_the_attempt_count() {
        server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(failure(500)));
        assertThatThrownBy(() -> model(false).complete(ask("q"))).isInstanceOfSatisfying(AssayException.class, e -> {
            assertThat(e.problem().type()).isEqualTo("target.http_error");
            assertThat(e.problem().details()).containsEntry("attempts", 3).containsEntry("status", 500);
        });
        assertThat(server.requests()).hasSize(3);
    }

    @Test
    void client_errors_are_not_retried() {
        server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(failure(400)));
        assertThatThrownBy(() -> model(false).complete(ask("q")))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().details()).containsEntry("attempts", 1));
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void refused_credentials_and_proxy_credentials_are_reported_with_the_servers_message() {
        // 401 and 407 are the statuses the JDK's HttpURLConnection handles itself, and in streaming mode it would
        // otherwise answer with an HttpRetryException in place of the status.
        for (var status :
                Map.of(401, "target.auth_failed", 407, "target.http_error").entrySet()) {
            server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(
                    new Reply.Failure(status.getKey(), Map.of("WWW-Authenticate", "Bearer realm=\"api\""))));
            assertThatThrownBy(() -> model(false).complete(ask("q")))
                    .isInstanceOfSatisfying(AssayException.class, e -> {
                        assertThat(e.problem().type()).isEqualTo(status.getValue());
                        assertThat(e.problem().message()).contains("scripted failure " + status.getKey());
                        assertThat(e.problem().details()).containsEntry("attempts", 1);
                    });
            assertThat(server.requests()).hasSize(1);
            server.close();
        }
        server = null;
    }

    @Test
    void a_connection_that_breaks_before_the_answer_is_retried_by_the_policy_alone() {
        // The JDK's HttpURLConnection would otherwise send the POST again itself: two requests per attempt.
        for (String reply : List.of("", "SSH-2.0-OpenSSH_9.6\r\n")) {
            try (var broken = CutStreamServer.answering(reply)) {
                var model = new OpenAiChatModel(
                        new OpenAiSettings("scripted", broken.url("/v1"), "", false, Duration.ofSeconds(5), FAST_RETRY),
                        log::add);

                assertThatThrownBy(() -> model.complete(ask("q"))).isInstanceOfSatisfying(AssayException.class, e -> {
                    assertThat(e.problem().type()).isEqualTo("target.connection");
                    assertThat(e.problem().details()).containsEntry("attempts", 3);
                });
                assertThat(broken.requests()).as("requests for 3 attempts").isEqualTo(3);
            }
        }
    }

    @Test
    void calls_go_through_the_proxy_the_jvm_is_given() throws Exception {
        // A host that does not resolve: only the proxy (the scripted server) can answer for it.
        server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("via the proxy")));
        URI proxy = URI.create(server.baseUrl());
        var before = new HashMap<String, String>();
        for (String property : List.of("http.proxyHost", "http.proxyPort")) {
            before.put(property, System.getProperty(property));
        }
        System.setProperty("http.proxyHost", proxy.getHost());
        System.setProperty("http.proxyPort", String.valueOf(proxy.getPort()));
        try {
            var model = new OpenAiChatModel(
                    new OpenAiSettings(
                            "scripted", "http://api.example.invalid/v1", "", false, Duration.ofSeconds(5), FAST_RETRY),
                    log::add);

            assertThat(model.complete(ask("q")).text()).isEqualTo("via the proxy");
        } finally {
            before.forEach((property, value) -> {
                if (value == null) {
                    System.clearProperty(property);
                } else {
                    System.setProperty(property, value);
                }
            });
        }
    }

    @Test
    void malformed_json_is_retried_then_reported() throws Exception {
        server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(new Reply.Malformed()));
        assertThatThrownBy(() -> model(false).complete(ask("q")))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("target.malformed_response"));
    }

    @Test
    void a_slow_server_times_out_within_the_request_deadline() {
        server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(new Reply.Delayed(3_000, text("late"))));
        var request =
                new ModelRequest(List.of(ChatMessage.user("q")), List.of(), null, null, null, Duration.ofMillis(300));
        long start = System.nanoTime();
        assertThatThrownBy(() -> model(false).complete(request))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isIn("target.timeout", "target.connection"));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    @Timeout(20) // a call on this thread that the deadline fails to end would wait forever
    void an_answer_that_never_ends_times_out_at_the_deadline_on_any_thread() throws Exception {
        // Bytes every 20 ms: no read waits long enough to time out, so only the deadline ends the call.
        server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(new Reply.Endless(20)));
        var request =
                new ModelRequest(List.of(ChatMessage.user("q")), List.of(), null, null, null, Duration.ofMillis(400));
        for (boolean stream : List.of(false, true)) {
            OpenAiChatModel model = model(stream);
            var onVirtualThread = new FutureTask<>(() -> catchThrowable(() -> model.complete(request)));
            Thread.ofVirtual().start(onVirtualThread);
            long start = System.nanoTime();

            Throwable onThisThread = catchThrowable(() -> model.complete(request));
            for (Throwable failure : List.of(onThisThread, onVirtualThread.get(10, TimeUnit.SECONDS))) {
                assertThat(failure)
                        .isInstanceOfSatisfying(
                                AssayException.class,
                                e -> assertThat(e.problem().type()).isEqualTo("target.timeout"));
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
            assertThat(Thread.currentThread().isInterrupted()).isFalse();
        }
    }

    @Test
    void an_interrupted_call_ends_at_once_with_the_interrupt() throws Exception {
        server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(new Reply.Endless(20)));
        OpenAiChatModel model = model(true);
        var outcome = new CompletableFuture<String>();
        Thread caller = Thread.ofVirtual().start(() -> {
            try {
                model.complete(ask("q"));
                outcome.complete("answered");
            } catch (InterruptedException e) {
                outcome.complete("interrupted");
            } catch (RuntimeException e) {
                outcome.complete(e.toString());
            }
        });
        Thread.sleep(300);
        caller.interrupt();

        assertThat(outcome.get(3, TimeUnit.SECONDS)).isEqualTo("interrupted");
    }

    @Test
    void a_stream_closed_before_its_finish_is_retried_then_a_plain_truncated_error() {
        server = ScriptedOpenAiServer.start(
                ScriptedOpenAiServer.always(new Reply.Truncated(new Reply.Answer("an answer cut in two", List.of()))));

        assertThatThrownBy(() -> model(true).complete(ask("q"))).isInstanceOfSatisfying(AssayException.class, e -> {
            assertThat(e.problem().type()).isEqualTo("target.truncated");
            assertThat(e.problem().message()).doesNotContain("Exception").doesNotContain("java.");
            assertThat(e.problem().details()).containsEntry("attempts", 3);
        });
        assertThat(server.requests()).hasSize(3);
    }

    @Test
    void a_stream_whose_connection_breaks_mid_answer_is_a_truncated_error() {
        String firstDelta = "data: {\"id\": \"c\", \"object\": \"chat.completion.chunk\", \"created\": 1,"
                + " \"model\": \"m\", \"choices\": [{\"index\": 0, \"delta\": {\"content\": \"half\"}}]}\n\n";
        try (var cut = CutStreamServer.start(firstDelta)) {
            var model = new OpenAiChatModel(
                    new OpenAiSettings("scripted", cut.url("/v1"), "", true, Duration.ofSeconds(5), FAST_RETRY),
                    log::add);

            assertThatThrownBy(() -> model.complete(ask("q"))).isInstanceOfSatisfying(AssayException.class, e -> {
                assertThat(e.problem().type()).isEqualTo("target.truncated");
                assertThat(e.problem().message()).doesNotContain("Exception");
            });
            assertThat(cut.requests()).isEqualTo(3);
        }
    }

    @Test
    void a_body_cut_short_of_its_length_is_a_truncated_error_not_a_connection_error() {
        String begun = "{\"id\": \"c\", \"object\": \"chat.completion\", \"ch";
        try (var cut = CutStreamServer.answering(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + "Content-Length: 500\r\n\r\n" + begun)) {
            var model = new OpenAiChatModel(
                    new OpenAiSettings("scripted", cut.url("/v1"), "", false, Duration.ofSeconds(5), FAST_RETRY),
                    log::add);

            assertThatThrownBy(() -> model.complete(ask("q"))).isInstanceOfSatisfying(AssayException.class, e -> {
                assertThat(e.problem().type()).isEqualTo("target.truncated");
                assertThat(e.problem().message()).doesNotContain("EOF").doesNotContain("Exception");
                assertThat(e.problem().details()).containsEntry("attempts", 3);
            });
            assertThat(cut.requests()).isEqualTo(3);
        }
    }

    @Test
    void a_key_ending_in_a_line_break_is_sent_without_it_and_a_key_with_control_characters_is_refused_unquoted()
            throws Exception {
        server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("ok")));
        var model = new OpenAiChatModel(
                new OpenAiSettings(
                        "scripted", server.baseUrl(), "sk-mounted\n", false, Duration.ofSeconds(5), FAST_RETRY),
                log::add);
        model.complete(ask("q"));
        assertThat(server.authorizations()).containsExactly("Bearer sk-mounted");

        assertThatThrownBy(() -> new OpenAiChatModel(
                        new OpenAiSettings(
                                "scripted",
                                server.baseUrl(),
                                "sk-sec\u0007ret",
                                false,
                                Duration.ofSeconds(5),
                                FAST_RETRY),
                        log::add))
                .isInstanceOfSatisfying(AssayException.class, e -> {
                    assertThat(e.problem().type()).isEqualTo("config.invalid_api_key");
                    assertThat(e.problem().message()).doesNotContain("sk-sec");
                });
    }

    @Test
    void the_api_key_never_appears_in_settings_text() {
        var settings = new OpenAiSettings("m", null, "sk-secret-123", false, null, null);
        assertThat(settings.toString()).doesNotContain("sk-secret-123");
    }
}
