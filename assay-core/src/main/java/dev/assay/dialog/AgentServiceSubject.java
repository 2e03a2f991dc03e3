package dev.assay.dialog;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.model.ResponseCache;
import dev.assay.run.FieldMapping;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Replays dialogs against an {@link AgentService}, one session per dialog; the agent keeps its own memory, and what it
 * reports is mapped into the trace by the {@link FieldMapping}. Thread-safe.
 *
 * @param service the agent
 * @param mapping where the trace fields are found in the agent's reports
 */
public record AgentServiceSubject(AgentService service, FieldMapping mapping) implements DialogSubject {
    public AgentServiceSubject {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(mapping, "mapping");
    }

    @Override
    public String name() {
        return "agent:" + service.name();
    }

    @Override
    public Session open(String sessionId, String userId) {
        return open(sessionId, userId, ResponseCache.NONE);
    }

    /** A turn's answer is told apart by the session and how many turns were answered before it. */
    @Override
    public Session open(String sessionId, String userId, ResponseCache answers) {
        var answered = new AtomicInteger();
        return (userText, timeout) -> {
            AgentService.Reply reply =
                    service.send(sessionId, userId, userText, timeout, answers, sessionId + "#" + answered.get());
            answered.incrementAndGet();
            return turnResponse(mapping, reply);
        };
    }

    /** {@return the turn response built from an agent's reply through {@code mapping}} */
    static TurnResponse turnResponse(FieldMapping mapping, AgentService.Reply reply) {
        return new TurnResponse(
                reply.text(),
                select(reply.report(), mapping.recall()),
                select(reply.report(), mapping.tools()),
                select(reply.report(), mapping.compliance()),
                select(reply.report(), mapping.profileSnapshot()));
    }

    private static JsonNode select(JsonNode report, String pointer) {
        if (pointer.isEmpty()) {
            return null;
        }
        JsonNode value = report.at(JsonPointer.compile(pointer));
        return value.isMissingNode() ? null : value;
    }
}
