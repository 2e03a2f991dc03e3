package example;

import com.sun.net.httpserver.HttpServer;
import dev.assay.api.Assay;
import dev.assay.api.Threshold;
import dev.assay.junit.AssayTests;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/** Every case of src/test/assay is a test; one more test holds the run to the threshold. */
class SuiteTest {
    private static HttpServer model;

    @TestFactory
    Stream<DynamicNode> support_assistant() throws InterruptedException {
        Assay run = Assay.suite(Path.of("src/test/assay"))
                .model("openai:support-assistant")
                .baseUrl("http://127.0.0.1:" + model.getAddress().getPort() + "/v1")
                .concurrency(2)
                .reports(Path.of("target/assay"));
        return AssayTests.run(run, Threshold.total(Double.parseDouble(System.getProperty("assay.threshold", "0.8"))));
    }

    // A real project points baseUrl at its model (or leaves it out for OpenAI) and needs nothing below. The example
    // answers from a script instead, on loopback, so that it runs anywhere without a key: an OpenAI-compatible
    // Chat Completions endpoint that knows three answers.
    private static final Map<String, String> ANSWERS = Map.of(
            "Saturdays", "10:00-16:00",
            "return an item", "30",
            "order 42", "{\\\"order\\\": 42, \\\"status\\\": \\\"shipped\\\"}");

    @BeforeAll
    static void startModel() throws IOException {
        model = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        model.createContext("/v1/chat/completions", exchange -> {
            String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String answer = ANSWERS.entrySet().stream()
                    .filter(entry -> request.contains(entry.getKey()))
                    .map(Map.Entry::getValue)
                    .findFirst()
                    .orElse("I do not know.");
            byte[] body = ("{\"id\": \"1\", \"object\": \"chat.completion\", \"created\": 0, \"model\": \"scripted\","
                            + " \"choices\": [{\"index\": 0, \"finish_reason\": \"stop\","
                            + " \"message\": {\"role\": \"assistant\", \"content\": \"" + answer + "\"}}],"
                            + " \"usage\": {\"prompt_tokens\": 1, \"completion_tokens\": 1, \"total_tokens\": 2}}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        model.start();
    }

    @AfterAll
    static void stopModel() {
        model.stop(0);
    }
}
