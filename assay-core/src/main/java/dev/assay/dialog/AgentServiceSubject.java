package dev.assay.dialog;

import java.util.Objects;

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
        return (userText, timeout) -> mapping.apply(service.send(sessionId, userId, userText, timeout));
    }
}
