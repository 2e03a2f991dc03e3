package dev.assay.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The floor of a latency-bound workload on this machine and mock: the same requests sent by nothing but the JDK's HTTP
 * client, N of them at concurrency C, each answer checked for its own token. It runs in the bench's own JVM, already
 * warm, with no suite, store, checks or reports, so its wall time is what any Java client can reach here; a harness's
 * run phase is compared with it rather than with the ideal N·latency/C, which assumes a server and a machine that cost
 * nothing.
 */
final class BareClient {
    private static final ObjectMapper JSON = new ObjectMapper();

    private BareClient() {}

    /** {@return how many of the {@code cases} requests got the answer to their own token} */
    static long run(String baseUrl, int cases, int concurrency) throws InterruptedException {
        var client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .executor(Runnable::run)
                .build();
        var slots = new Semaphore(concurrency);
        var passed = new AtomicLong();
        URI completions = URI.create(baseUrl + "/chat/completions");
        try (client;
                var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < cases; i++) {
                slots.acquire();
                String token = "token-" + i;
                threads.execute(() -> {
                    try {
                        if (ask(client, completions, token)) {
                            passed.incrementAndGet();
                        }
                    } catch (IOException e) {
                        // Not counted as passed: the row then says INCOMPLETE.
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        slots.release();
                    }
                });
            }
        }
        return passed.get();
    }

    private static boolean ask(HttpClient client, URI completions, String token)
            throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode().put("model", "bench");
        body.putArray("messages")
                .addObject()
                .put("role", "user")
                .put("content", token + ": what is 6 x 7? Repeat the token, a colon, then the number.");
        HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(completions)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        String answer = JSON.readTree(response.body())
                .path("choices")
                .path(0)
                .path("message")
                .path("content")
                .asText();
        return response.statusCode() == 200 && answer.equals(token + ": 42");
    }
}
