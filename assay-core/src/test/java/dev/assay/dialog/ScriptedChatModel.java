package dev.assay.dialog;

import dev.assay.AssayException;
import dev.assay.model.ChatModel;
import dev.assay.model.ModelRequest;
import dev.assay.model.ModelResponse;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A chat model for tests: answers "答复(n): <user message>" where n is the number of messages it was sent, records every
 * request, fails the first {@code failures} calls for a message containing {@code failOn}, and takes {@code slowMillis}
 * (ignoring interrupts) on a message containing {@code slowOn}. Thread-safe.
 */
final class ScriptedChatModel implements ChatModel {
    final List<ModelRequest> requests = new CopyOnWriteArrayList<>();
    private final String failOn;
    private final int failures;
    private final String slowOn;
    private final long slowMillis;
    private final ConcurrentHashMap<String, AtomicInteger> failed = new ConcurrentHashMap<>();

    ScriptedChatModel(String failOn, int failures, String slowOn, long slowMillis) {
        this.failOn = failOn;
        this.failures = failures;
        this.slowOn = slowOn;
        this.slowMillis = slowMillis;
    }

    static ScriptedChatModel answering() {
        return new ScriptedChatModel(null, 0, null, 0);
    }

    @Override
    public String name() {
        return "scripted";
    }

    @Override
    public ModelResponse complete(ModelRequest request) {
        requests.add(request);
        String message = request.messages().getLast().content();
        if (failOn != null
                && message.contains(failOn)
                && failed.computeIfAbsent(message, m -> new AtomicInteger()).incrementAndGet() <= failures) {
            throw AssayException.of("target.http_5xx", "scripted failure");
        }
        if (slowOn != null && message.contains(slowOn)) {
            sleepIgnoringInterrupts(slowMillis);
        }
        return new ModelResponse("答复(" + request.messages().size() + "): " + message, "", List.of(), null, "stop");
    }

    /** Like an HTTP client that does not react to interrupts: finishes its wait, then restores the flag. */
    private static void sleepIgnoringInterrupts(long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        boolean interrupted = false;
        while (System.nanoTime() < end) {
            try {
                Thread.sleep(Math.max(1, (end - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
