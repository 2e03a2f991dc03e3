package dev.assay.subject.sse.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.EndpointUrl;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.internal.Deadlines;
import dev.assay.internal.SecretMask;
import dev.assay.model.EndpointConcurrency;
import dev.assay.model.ResponseCache;
import dev.assay.model.RetryLoop;
import dev.assay.subject.sse.EventMapping;
import dev.assay.subject.sse.SseAgentSettings;
import dev.assay.tools.Workspace;
import dev.assay.transcript.TranscriptBuilder;
import dev.assay.transcript.TranscriptEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * One agent service's connection: POSTs a request body, retries connection errors, 429 and 5xx before the stream starts
 * ({@link RetryLoop}), and maps the stream's events into a transcript ({@link EventMapping}) until the {@code final} or
 * {@code error} event, the time limit, or an interrupt, which closes the stream. Failures become
 * {@link TranscriptEvent.SubjectError}s, never exceptions. Used by the capability target ({@link SseAgentSubject}) and
 * by dialog replay. Thread-safe: every exchange gets its own HTTP client, so closing one stream aborts nothing else.
 */
public final class SseAgentClient {
    private final SseAgentSettings settings;
    private final String credential;
    // An agent may echo the credential it was sent, in an error body or in its events: both are kept.
    private final SecretMask credentialMask;

    private SseAgentClient(SseAgentSettings settings, String credential) {
        this.settings = settings;
        this.credential = credential;
        this.credentialMask = new SecretMask(credential);
    }

    /**
     * Reads the credential the settings name.
     *
     * @param env reads environment variables (the edge passes its environment); used for the credential only
     * @throws AssayException {@code target.missing_api_key} when the credential's variable is unset
     */
    public static SseAgentClient open(SseAgentSettings settings, Function<String, String> env) {
        String credential = null;
        if (settings.authEnv() != null) {
            credential = env.apply(settings.authEnv());
            if (credential == null || credential.isBlank()) {
                throw new AssayException(
                        Problem.of("target.missing_api_key", "set the agent's credential in $" + settings.authEnv())
                                .withDetail("field", "auth_env"));
            }
        }
        return new SseAgentClient(settings, credential);
    }

    public SseAgentSettings settings() {
        return settings;
    }

    /**
     * Sends one request and records its stream in {@code transcript}. A request that fails after the retries, a stream
     * that breaks off or outlives {@code timeout}, and an {@code error} event are recorded as a
     * {@link TranscriptEvent.SubjectError} ({@code target.http_error}, {@code target.timeout},
     * {@code target.connection}, {@code target.agent_error}, ...).
     *
     * @param body the filled request body ({@link RequestBody#of})
     * @param timeout the limit for the retries and the stream together
     * @param transcript where the events go, as they arrive
     * @param workspace where files of the {@code final} event are written; null to ignore them
     * @param log receives one line per retry
     * @param events receives the service's name and the payload of every event read, mapped or not, on the reading
     *     thread, before the event is mapped
     * @throws InterruptedException when the calling thread is interrupted; the stream is closed first
     */
    public void exchange(
            JsonNode body,
            Duration timeout,
            TranscriptBuilder transcript,
            Workspace workspace,
            Consumer<String> log,
            BiConsumer<String, JsonNode> events)
            throws InterruptedException {
        HttpRequest.Builder request = authorized(HttpRequest.newBuilder(settings.url()))
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body)));
        HttpClient http = HttpClient.newBuilder()
                .connectTimeout(settings.connectTimeout())
                .build();
        Instant deadline = Instant.now().plus(timeout);
        try {
            HttpResponse<Stream<String>> response;
            try {
                // The try only opens the stream, which is then read for as long as the agent works: a limit released
                // when the stream opens would bound nothing, so agent services are not limited by their 429s.
                var retry = new RetryLoop(
                        settings.retry(),
                        log,
                        EndpointUrl.hostAndPort(settings.url().toString()),
                        EndpointConcurrency.unlearnt());
                response = retry.call(timeout, remaining -> open(http, request, remaining), SseAgentClient::classify);
            } catch (AssayException e) {
                transcript.add(new TranscriptEvent.SubjectError(Instant.now(), e.problem()));
                return;
            }
            Duration left = Duration.between(Instant.now(), deadline);
            read(
                    response.body().map(credentialMask::apply),
                    left.isNegative() ? Duration.ZERO : left,
                    new EventCollector(settings.events(), transcript, workspace, events),
                    transcript);
        } finally {
            // Aborts a stream still open after a timeout or an interrupt; close() would wait for it instead.
            http.shutdownNow();
        }
    }

    /**
     * {@return the key of a call's answer in a run's {@link ResponseCache}: a hash of the URL, the body and the scope}
     * The body is filled without the run, session and workspace, which name this run rather than the question, so that
     * another run's answer to the same call is found ({@code --cache}); the credential is a header, never in it.
     *
     * @param scope what besides the body tells answers apart: the case and sample, or a dialog's turn
     */
    public String answerKey(RequestBody.Call call, String scope) {
        ObjectNode what = Json.object();
        what.put("url", settings.url().toString());
        what.set(
                "body",
                RequestBody.of(
                        settings,
                        new RequestBody.Call(
                                call.prompt(), "", call.userId(), "", call.caseId(), call.language(), "")));
        what.put("scope", scope);
        return ResponseCache.hash(what);
    }

    HttpRequest.Builder authorized(HttpRequest.Builder builder) {
        if (credential == null) {
            return builder;
        }
        boolean bearer = settings.authHeader().equalsIgnoreCase("Authorization") && !credential.contains(" ");
        return builder.header(settings.authHeader(), bearer ? "Bearer " + credential : credential);
    }

    private HttpResponse<Stream<String>> open(HttpClient http, HttpRequest.Builder request, Duration remaining)
            throws InterruptedException {
        Duration limit = remaining.compareTo(settings.connectTimeout()) < 0 ? remaining : settings.connectTimeout();
        HttpResponse<Stream<String>> response;
        try {
            response = http.send(
                    request.copy()
                            .timeout(limit.isZero() ? Duration.ofMillis(1) : limit)
                            .build(),
                    HttpResponse.BodyHandlers.ofLines());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (response.statusCode() / 100 == 2) {
            return response;
        }
        String body;
        try (Stream<String> lines = response.body()) {
            body = String.join("\n", lines.limit(20).toList());
        }
        throw new StatusException(
                response.statusCode(),
                credentialMask.apply(body),
                RetryLoop.parseRetryAfter(
                        response.headers().firstValue("retry-after").orElse(null)));
    }

    /**
     * The connection broke mid-stream (a clean end without a final event is a normal end: the deltas are the answer).
     * What the agent did so far is kept in the transcript. Retryable: another try may well finish.
     */
    private static final Problem TRUNCATED = Problem.of(
                    "target.truncated",
                    "the agent's stream broke off before its final event (the connection closed mid-answer)")
            .withDetail("retryable", true);

    /**
     * Reads on a thread of its own so that the deadline and an interrupt can stop a stream that has gone quiet. What
     * ended the read early is recorded only once the reader has stopped: the collector belongs to one thread at a time,
     * and nothing the reader still had in hand may land after the error.
     */
    private static void read(
            Stream<String> lines, Duration timeout, EventCollector collector, TranscriptBuilder transcript)
            throws InterruptedException {
        Problem stopped = null;
        try (ExecutorService reader = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<?> reading = reader.submit(() -> {
                try (lines) {
                    var parser = new SseParser();
                    Iterator<String> iterator = lines.iterator();
                    while (!Thread.currentThread().isInterrupted() && iterator.hasNext()) {
                        var event = parser.accept(iterator.next());
                        if (event.isPresent() && collector.accept(event.get())) {
                            return;
                        }
                    }
                    if (!Thread.currentThread().isInterrupted()) {
                        parser.finish().ifPresent(collector::accept);
                        collector.finish();
                    }
                }
            });
            try {
                Deadlines.await(reading, timeout);
            } catch (TimeoutException e) {
                stopped = Problem.of("target.timeout", "the agent's stream did not end in time")
                        .withDetail("timeout_s", timeout.toMillis() / 1000.0);
            } catch (InterruptedException e) {
                reading.cancel(true);
                throw e;
            } catch (ExecutionException e) {
                if (!brokenConnection(e.getCause())) {
                    throw new AssayException(
                            Problem.of("target.internal_error", "reading the agent's stream failed: " + e.getCause()),
                            e.getCause());
                }
                stopped = TRUNCATED;
            }
        }
        if (stopped != null) {
            collector.finish();
            transcript.add(new TranscriptEvent.SubjectError(Instant.now(), stopped));
        }
    }

    /**
     * {@return whether reading failed because the connection broke (an I/O error anywhere in the causes: the HTTP
     * client wraps it differently depending on where in the chunked body the stream was cut)}
     */
    private static boolean brokenConnection(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof IOException || cause instanceof UncheckedIOException) {
                return true;
            }
        }
        return false;
    }

    /** A non-2xx answer before the stream started. */
    private static final class StatusException extends RuntimeException {
        final int status;
        final Duration retryAfter;

        StatusException(int status, String body, Duration retryAfter) {
            super(body, null, false, false);
            this.status = status;
            this.retryAfter = retryAfter;
        }
    }

    private static RetryLoop.Failure classify(RuntimeException e) {
        if (e instanceof StatusException status) {
            return RetryLoop.httpFailure(status.status, status.getMessage(), status.retryAfter);
        }
        if (e instanceof UncheckedIOException io) {
            boolean timeout = io.getCause() instanceof HttpTimeoutException;
            return new RetryLoop.Failure(
                    Problem.of(
                            timeout ? "target.timeout" : "target.connection",
                            "the agent could not be reached: " + RetryLoop.brief(String.valueOf(io.getCause()))),
                    true,
                    null);
        }
        return null;
    }
}
