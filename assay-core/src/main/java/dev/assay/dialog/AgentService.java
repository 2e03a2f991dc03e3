package dev.assay.dialog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.assay.model.ResponseCache;
import dev.assay.run.FieldMapping;
import java.time.Duration;
import java.util.Objects;

/**
 * An agent service with its own memory, called with a session id per dialog (e.g. over SSE). Besides its answer it may
 * report what it recalled, the tools it called, its compliance check and the user profile it holds, in any JSON shape:
 * {@link FieldMapping} says where each is found. Implementations are thread-safe.
 */
public interface AgentService {

    /** {@return the agent's name or URL, as the manifest records it} */
    String name();

    /**
     * {@return the agent's reply to one user message, sent in a session}
     *
     * @param sessionId the dialog's session, {@code eval_session_<dialog_id>}
     * @param userId the dialog's user, {@code eval_user_<dialog_id>}
     * @param message the user's message
     * @param timeout how long the call may take
     * @throws Exception when the call fails; the turn becomes an error
     */
    Reply send(String sessionId, String userId, String message, Duration timeout) throws Exception;

    /**
     * Sends one user message in a session of a run, whose replies are kept in the run's answers and found there again;
     * by default {@link #send(String, String, String, Duration)}, which keeps nothing.
     *
     * @param answers the run's answers
     * @param scope what besides the message tells replies apart: the session and the turn
     * @throws Exception when the call fails; the turn becomes an error, and nothing is kept
     */
    default Reply send(
            String sessionId, String userId, String message, Duration timeout, ResponseCache answers, String scope)
            throws Exception {
        return send(sessionId, userId, message, timeout);
    }

    /**
     * An agent's reply to one message.
     *
     * @param text the answer
     * @param report everything else the agent reported for the turn, e.g. its events merged into one object; an empty
     *     object when nothing
     */
    record Reply(String text, JsonNode report) {
        public Reply {
            text = Objects.requireNonNullElse(text, "");
            report = report == null || report.isNull() ? JsonNodeFactory.instance.objectNode() : report.deepCopy();
        }
    }
}
