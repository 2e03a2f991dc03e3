package dev.assay.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * An OpenAI-compatible Chat Completions endpoint for benchmarks, on loopback: a fixed latency per request, optional
 * rate limiting (HTTP 429 with {@code Retry-After} once more than a set number of requests are in flight), streaming
 * and non-streaming answers, and counters that let a benchmark prove a run did all its work.
 *
 * <p>The answer echoes the {@code token-N} found in the last user message as {@code "token-N: 42"}, so a checker can
 * tell that each case got the answer to its own request rather than any answer. {@code GET /stats} returns
 * {@code {"requests", "rate_limited", "peak_in_flight", "served_span_s", "arrivals_ms"}}, the last the arrival of each
 * of the first {@value #ARRIVALS_KEPT} chat requests in milliseconds after the first, in order (a latency-bound run's
 * rounds: how long the first took to get its requests out, how far apart each slot's calls drift); {@code POST
 * /stats/reset} zeroes them. {@link #turnarounds()} gives, per connection, the time from each answer sent to the next
 * request's arrival: a latency-bound client's cost per call over the floor. Thread-safe: each request runs on a virtual
 * thread, so waiting out the latency costs no platform thread.
 */
public final class MockOpenAiServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    static {
        // The JDK's server closes a connection that falls idle while 200 others are (its default), so a client at
        // C = 1 000, whose connections all fall idle between an answer and the next request, had 800 of them closed a
        // round and opened them again: about 9 000 connections for 20 000 requests, the bare client's among them
        // refused. An endpoint keeps its clients' connections. Read once, when the first server starts; a value set on
        // the command line stays.
        if (System.getProperty("sun.net.httpserver.maxIdleConnections") == null) {
            System.setProperty("sun.net.httpserver.maxIdleConnections", "100000");
        }
    }

    private static final Pattern TOKEN = Pattern.compile("token-\\d+");
    private static final int ARRIVALS_KEPT = 2_000;
    private static final int EXCHANGES_KEPT = 40_000;

    /**
     * How the endpoint behaves.
     *
     * @param latency time spent before answering each chat request
     * @param maxInFlight requests answered at once before the rest get 429 ({@code 0}: no limit)
     * @param retryAfter the {@code Retry-After} seconds sent with a 429
     */
    public record Options(Duration latency, int maxInFlight, int retryAfter) {
        public Options {
            if (latency.isNegative() || maxInFlight < 0 || retryAfter < 0) {
                throw new IllegalArgumentException("latency, max in flight and retry-after must not be negative");
            }
        }
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final Options options;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong rateLimited = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peakInFlight = new AtomicInteger();
    // Nanoseconds of the first chat request's arrival and of the last answer sent: the span the endpoint was in use.
    private final AtomicLong firstArrival = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong lastAnswer = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLongArray arrivals = new AtomicLongArray(ARRIVALS_KEPT);
    private final AtomicInteger arrived = new AtomicInteger();
    // Of each chat request answered (the first EXCHANGES_KEPT): the client's port, which names its connection, its
    // arrival and its answer, for the turnarounds.
    private final AtomicLongArray exchangePorts = new AtomicLongArray(EXCHANGES_KEPT);
    private final AtomicLongArray exchangeArrivals = new AtomicLongArray(EXCHANGES_KEPT);
    private final AtomicLongArray exchangeAnswers = new AtomicLongArray(EXCHANGES_KEPT);
    private final AtomicInteger exchanged = new AtomicInteger();

    private MockOpenAiServer(HttpServer server, ExecutorService executor, Options options) {
        this.server = server;
        this.executor = executor;
        this.options = options;
    }

    /** {@return a started server on 127.0.0.1 at {@code port} (0: any free port)} */
    public static MockOpenAiServer start(int port, Options options) throws IOException {
        var server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 4096);
        var executor = Executors.newVirtualThreadPerTaskExecutor();
        var mock = new MockOpenAiServer(server, executor, options);
        server.setExecutor(executor);
        server.createContext("/v1/chat/completions", mock::chat);
        server.createContext("/stats", mock::stats);
        server.start();
        return mock;
    }

    /** {@return the API root to give a client, e.g. {@code http://127.0.0.1:PORT/v1}} */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** {@return chat requests answered with 200} */
    public long requests() {
        return requests.get();
    }

    /** {@return the most chat requests in flight at once since the last reset} */
    public int peakInFlight() {
        return peakInFlight.get();
    }

    /** {@return chat requests refused with 429} */
    public long rateLimited() {
        return rateLimited.get();
    }

    /**
     * {@return the time from the first chat request's arrival to the last answer sent since the last reset}: a run's
     * calls without its start-up and reports; zero before any answer
     */
    public Duration servedSpan() {
        long first = firstArrival.get();
        long last = lastAnswer.get();
        return last < first ? Duration.ZERO : Duration.ofNanos(last - first);
    }

    /** Zeroes the counters between two measured runs. */
    public void reset() {
        requests.set(0);
        rateLimited.set(0);
        peakInFlight.set(0);
        firstArrival.set(Long.MAX_VALUE);
        lastAnswer.set(Long.MIN_VALUE);
        arrived.set(0);
        exchanged.set(0);
        for (int i = 0; i < ARRIVALS_KEPT; i++) {
            arrivals.set(i, 0);
        }
    }

    /** {@return the arrival of each of the first chat requests since the last reset, in ms after the first, sorted} */
    public double[] arrivalsMillis() {
        // A request counted but not yet recorded (read while requests arrive) is still 0, and left out.
        long[] times = IntStream.range(0, Math.min(arrived.get(), ARRIVALS_KEPT))
                .mapToLong(arrivals::get)
                .filter(time -> time != 0)
                .sorted()
                .toArray();
        return Arrays.stream(times).mapToDouble(time -> (time - times[0]) / 1e6).toArray();
    }

    /**
     * {@return how long the client took, on each connection, from an answer sent to its next request's arrival}: a
     * latency-bound run's cost per call over the floor (reading the answer, judging it, starting the next case and
     * sending its request), separated from its start-up (when each connection's first request arrived)
     */
    public Turnarounds turnarounds() {
        int count = Math.min(exchanged.get(), EXCHANGES_KEPT);
        var byConnection = new HashMap<Long, List<long[]>>();
        for (int i = 0; i < count; i++) {
            byConnection
                    .computeIfAbsent(exchangePorts.get(i), port -> new ArrayList<>())
                    .add(new long[] {exchangeArrivals.get(i), exchangeAnswers.get(i)});
        }
        var gaps = new ArrayList<Double>();
        var firsts = new ArrayList<Double>();
        long start = Long.MAX_VALUE;
        for (var calls : byConnection.values()) {
            for (long[] call : calls) {
                start = Math.min(start, call[0]);
            }
        }
        for (var calls : byConnection.values()) {
            calls.sort(Comparator.comparingLong(call -> call[0]));
            firsts.add((calls.get(0)[0] - start) / 1e6);
            for (int i = 1; i < calls.size(); i++) {
                gaps.add((calls.get(i)[0] - calls.get(i - 1)[1]) / 1e6);
            }
        }
        return new Turnarounds(
                byConnection.size(),
                gaps.stream().sorted().toList(),
                firsts.stream().sorted().toList());
    }

    /**
     * The client's turnarounds since the last reset (of the first {@value #EXCHANGES_KEPT} chat requests answered).
     *
     * @param connections connections that carried chat requests
     * @param gapsMillis on each connection, from each answer sent to the next request's arrival, in ms, sorted
     * @param firstArrivalsMillis each connection's first request, in ms after the first of all, sorted
     */
    public record Turnarounds(int connections, List<Double> gapsMillis, List<Double> firstArrivalsMillis) {
        /**
         * {@return one line: the connections, when the last of them got its first request, and the gaps' count, median,
         * 90th and 99th percentiles, maximum and mean}
         */
        public String summary() {
            return "connections %d, first requests by %.1f ms; gap ms n %d p50 %.2f p90 %.2f p99 %.2f max %.1f mean %.2f"
                    .formatted(
                            connections,
                            at(firstArrivalsMillis, 1.0),
                            gapsMillis.size(),
                            at(gapsMillis, 0.5),
                            at(gapsMillis, 0.9),
                            at(gapsMillis, 0.99),
                            at(gapsMillis, 1.0),
                            gapsMillis.stream()
                                    .mapToDouble(Double::doubleValue)
                                    .average()
                                    .orElse(0));
        }

        private static double at(List<Double> sorted, double quantile) {
            return sorted.isEmpty() ? 0 : sorted.get((int) Math.min(sorted.size() - 1, quantile * sorted.size()));
        }
    }

    private void chat(HttpExchange exchange) throws IOException {
        long arrival = System.nanoTime();
        firstArrival.accumulateAndGet(arrival, Math::min);
        int index = arrived.getAndIncrement();
        if (index < ARRIVALS_KEPT) {
            arrivals.set(index, arrival);
        }
        try (exchange) {
            JsonNode body;
            try (InputStream in = exchange.getRequestBody()) {
                body = JSON.readTree(in);
            }
            int now = inFlight.incrementAndGet();
            try {
                peakInFlight.accumulateAndGet(now, Math::max);
                if (options.maxInFlight() > 0 && now > options.maxInFlight()) {
                    rateLimited.incrementAndGet();
                    exchange.getResponseHeaders().add("Retry-After", Integer.toString(options.retryAfter()));
                    send(
                            exchange,
                            429,
                            "application/json",
                            "{\"error\":{\"message\":\"rate limited\",\"type\":\"rate_limit_exceeded\"}}");
                    return;
                }
                if (!options.latency().isZero()) {
                    Thread.sleep(options.latency());
                }
                String answer = answerTo(body);
                String model = body.path("model").asText("mock");
                if (body.path("stream").asBoolean(false)) {
                    send(exchange, 200, "text/event-stream", streamed(model, answer));
                } else {
                    send(exchange, 200, "application/json", completion(model, answer));
                }
                requests.incrementAndGet();
                long answered = System.nanoTime();
                lastAnswer.accumulateAndGet(answered, Math::max);
                int slot = exchanged.getAndIncrement();
                if (slot < EXCHANGES_KEPT) {
                    exchangePorts.set(slot, exchange.getRemoteAddress().getPort());
                    exchangeArrivals.set(slot, arrival);
                    exchangeAnswers.set(slot, answered);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                send(exchange, 503, "application/json", "{\"error\":{\"message\":\"shutting down\"}}");
            } finally {
                inFlight.decrementAndGet();
            }
        }
    }

    private void stats(HttpExchange exchange) throws IOException {
        try (exchange) {
            if ("POST".equals(exchange.getRequestMethod())
                    && exchange.getRequestURI().getPath().endsWith("/reset")) {
                reset();
            }
            ObjectNode stats = JSON.createObjectNode()
                    .put("requests", requests.get())
                    .put("rate_limited", rateLimited.get())
                    .put("peak_in_flight", peakInFlight.get())
                    .put("served_span_s", servedSpan().toNanos() / 1e9);
            var arrivalsMs = stats.putArray("arrivals_ms");
            for (double arrival : arrivalsMillis()) {
                arrivalsMs.add(Math.round(arrival * 10) / 10.0);
            }
            send(exchange, 200, "application/json", stats.toString());
        }
    }

    static String answerTo(JsonNode body) {
        JsonNode messages = body.path("messages");
        String lastUser = "";
        for (JsonNode message : messages) {
            if ("user".equals(message.path("role").asText())) {
                lastUser = text(message.path("content"));
            }
        }
        Matcher token = TOKEN.matcher(lastUser);
        return token.find() ? token.group() + ": 42" : "42";
    }

    /** Content is a string or a list of parts ({@code [{"type": "text", "text": ...}]}). */
    private static String text(JsonNode content) {
        if (content.isTextual()) {
            return content.asText();
        }
        var text = new StringBuilder();
        for (JsonNode part : content) {
            text.append(part.path("text").asText());
        }
        return text.toString();
    }

    private static String completion(String model, String answer) {
        ObjectNode root = JSON.createObjectNode()
                .put("id", "chatcmpl-mock")
                .put("object", "chat.completion")
                .put("created", 0)
                .put("model", model);
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0).put("finish_reason", "stop");
        choice.putObject("message").put("role", "assistant").put("content", answer);
        root.putObject("usage")
                .put("prompt_tokens", 10)
                .put("completion_tokens", 5)
                .put("total_tokens", 15);
        return root.toString();
    }

    private static String streamed(String model, String answer) {
        ObjectNode delta = chunk(model);
        ObjectNode first = (ObjectNode) delta.withArray("choices").get(0);
        first.putObject("delta").put("role", "assistant").put("content", answer);
        first.putNull("finish_reason");
        ObjectNode end = chunk(model);
        ObjectNode last = (ObjectNode) end.withArray("choices").get(0);
        last.putObject("delta");
        last.put("finish_reason", "stop");
        end.putObject("usage")
                .put("prompt_tokens", 10)
                .put("completion_tokens", 5)
                .put("total_tokens", 15);
        return "data: " + delta + "\n\ndata: " + end + "\n\ndata: [DONE]\n\n";
    }

    private static ObjectNode chunk(String model) {
        ObjectNode chunk = JSON.createObjectNode()
                .put("id", "chatcmpl-mock")
                .put("object", "chat.completion.chunk")
                .put("created", 0)
                .put("model", model);
        chunk.putArray("choices").addObject().put("index", 0);
        return chunk;
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.close();
    }

    private static final String USAGE =
            "usage: MockOpenAiServer [--port P] [--latency-ms L] [--max-in-flight K] [--retry-after S]";

    /** Runs the endpoint until the process is stopped; prints its API root first. Usage: {@value #USAGE}. */
    public static void main(String[] args) throws Exception {
        int port = 0;
        long latency = 0;
        int maxInFlight = 0;
        int retryAfter = 1;
        for (int i = 0; i < args.length; i += 2) {
            if (args[i].equals("--help")) {
                System.out.println(USAGE);
                return;
            }
            if (i + 1 == args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value; " + USAGE);
            }
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--latency-ms" -> latency = Long.parseLong(args[i + 1]);
                case "--max-in-flight" -> maxInFlight = Integer.parseInt(args[i + 1]);
                case "--retry-after" -> retryAfter = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i] + "; " + USAGE);
            }
        }
        var mock = start(port, new Options(Duration.ofMillis(latency), maxInFlight, retryAfter));
        System.out.println(mock.baseUrl());
        Thread.currentThread().join();
    }
}
