package dev.assay.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.result.Run;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.sse.SseClient;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * {@code GET /api/runs/{run_id}/events}: the run's SSE stream ({@code eval_progress}, {@code eval_item},
 * {@code eval_log}, {@code eval_finished}), each event with an id that increases within the run.
 *
 * <ul>
 *   <li>A client without {@code Last-Event-ID} first gets the current state (one {@code eval_progress}, or
 *       {@code eval_finished} for an ended run), then every later event.
 *   <li>With {@code Last-Event-ID} it gets every buffered event after that id; if some are no longer buffered it gets
 *       the current state flagged {@code resync: true} instead (the page then reloads the item list). An ended run's
 *       stream ends with {@code eval_finished} whatever the id, one past the run's last included.
 *   <li>A run this server is not running (ended long ago, or run by the CLI on the same database) is followed through
 *       the store: its state now, then a new {@code eval_progress} whenever the stored record changes, and
 *       {@code eval_finished} when it ends.
 * </ul>
 *
 * Each stream is written by its own request thread from a bounded queue; the stream closes after {@code eval_finished}
 * and when the client falls too far behind. A comment line keeps idle streams open. A stream whose client went away or
 * whose response failed stops at once and writes nothing more (no warning per event).
 */
final class StreamRoutes {
    private static final Duration KEEP_ALIVE = Duration.ofSeconds(15);
    private static final Duration STORE_POLL = Duration.ofSeconds(1);

    private final Runs runs;

    StreamRoutes(Runs runs) {
        this.runs = runs;
    }

    void register(RoutesConfig routes, String path) {
        // Checked before the SSE handler, which commits a 200 as soon as it runs: an unknown run gets a JSON 404. The
        // handler streams only to a request that accepts exactly an event stream, and answers any other with an empty
        // 200, which looks like a run with nothing to say.
        routes.before(path, ctx -> {
            runs.run(ctx.pathParam("run_id"));
            if (!EVENT_STREAM.equals(ctx.header("Accept"))) {
                throw new AssayException(Problem.of(
                                "request.not_acceptable",
                                "the run's events are a server-sent event stream: send the header 'Accept: "
                                        + EVENT_STREAM + "' (an EventSource does; with curl: -N -H 'Accept: "
                                        + EVENT_STREAM + "')")
                        .withDetail("field", "Accept"));
            }
        });
        routes.sse(path, this::stream);
    }

    private static final String EVENT_STREAM = "text/event-stream";

    private void stream(SseClient client) {
        Context ctx = client.ctx();
        String runId = ctx.pathParam("run_id");
        long after = lastEventId(ctx);
        try {
            Optional<LiveRuns.LiveRun> live = runs.live().get(runId);
            if (live.isPresent()) {
                followLive(client, live.get(), after);
            } else {
                followStore(client, runId, Math.max(after, 0));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void followLive(SseClient client, LiveRuns.LiveRun live, long after) throws InterruptedException {
        try (EventLog.Subscription subscription = live.events().subscribe(after < 0 ? Long.MAX_VALUE : after)) {
            if (after >= 0 && subscription.complete()) {
                for (EventLog.Event event : subscription.replay()) {
                    if (!send(client, event)) {
                        return;
                    }
                }
                // An ended run's stream ends with its final event, even for an id past it (a client's own count, a
                // stale id): a client waits for it.
                EventLog.Event last = subscription.finalEvent();
                if (last != null && after >= last.id()) {
                    send(client, last);
                }
            } else if (subscription.finalEvent() != null) {
                send(client, subscription.finalEvent());
            } else {
                ObjectNode state = Views.progress(live.handle().current(), null, null);
                state.put("resync", after >= 0);
                send(client, new EventLog.Event(subscription.lastId(), RunEvents.PROGRESS, Json.write(state)));
            }
            EventLog.Subscriber queue = subscription.subscriber();
            Instant lastSent = Instant.now();
            while (!client.terminated() && !queue.dropped() && !queue.finished()) {
                EventLog.Event event = queue.poll(Duration.ofSeconds(1));
                if (event != null) {
                    send(client, event);
                    lastSent = Instant.now();
                } else if (Duration.between(lastSent, Instant.now()).compareTo(KEEP_ALIVE) >= 0) {
                    keepAlive(client);
                    lastSent = Instant.now();
                }
            }
        }
    }

    private void followStore(SseClient client, String runId, long after) throws InterruptedException {
        long id = after;
        Run shown = null;
        Instant lastSent = Instant.now();
        while (!client.terminated()) {
            Optional<Run> stored = runs.store().findRun(runId);
            if (stored.isEmpty()) {
                return;
            }
            Run run = stored.get();
            if (run.status().isFinal()) {
                send(client, new EventLog.Event(++id, RunEvents.FINISHED, Json.write(run)));
                return;
            }
            if (shown == null || !run.counts().equals(shown.counts())) {
                send(
                        client,
                        new EventLog.Event(
                                ++id,
                                RunEvents.PROGRESS,
                                Json.write(Views.progress(run, null, null).put("resync", true))));
                shown = run;
                lastSent = Instant.now();
            } else if (Duration.between(lastSent, Instant.now()).compareTo(KEEP_ALIVE) >= 0) {
                keepAlive(client);
                lastSent = Instant.now();
            }
            Thread.sleep(STORE_POLL.toMillis());
        }
    }

    /** Sends one event unless the stream is closed; {@return whether the stream is still open} */
    private static boolean send(SseClient client, EventLog.Event event) {
        return write(client, () -> client.sendEvent(event.name(), event.data(), Long.toString(event.id())));
    }

    private static void keepAlive(SseClient client) {
        write(client, () -> client.sendComment("keep-alive"));
    }

    /**
     * Javalin closes the client when a write fails with an IOException (the client went away) but lets any other
     * failure through, such as Jetty's on a response it recycled when the server stopped: that closes it here too, so
     * the stream ends once instead of failing again on every later write.
     */
    private static boolean write(SseClient client, Runnable sending) {
        if (client.terminated()) {
            return false;
        }
        try {
            sending.run();
        } catch (RuntimeException responseGone) {
            client.close();
        }
        return !client.terminated();
    }

    /** {@code Last-Event-ID} (sent by EventSource on reconnect) or the query parameter {@code last_event_id}. */
    private static long lastEventId(Context ctx) {
        String value = ctx.header("Last-Event-ID");
        if (value == null || value.isBlank()) {
            value = ctx.queryParam("last_event_id");
        }
        if (value == null || value.isBlank()) {
            return -1;
        }
        try {
            return Math.max(0, Long.parseLong(value.strip()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
