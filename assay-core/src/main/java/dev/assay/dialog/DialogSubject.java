package dev.assay.dialog;

import dev.assay.model.ResponseCache;
import java.time.Duration;

/**
 * A multi-turn target: a dialog is played in one session, turn by turn. Implementations are thread-safe (dialogs run in
 * parallel); a {@link Session} belongs to one dialog and is used from one thread at a time.
 */
public interface DialogSubject {

    /** {@return what the manifest records as the target, e.g. {@code chat:gpt-4o-mini}} */
    String name();

    /**
     * Opens the session of one dialog. A failure here fails the dialog ({@code create_agent_failed: ...}).
     *
     * @param sessionId {@code eval_session_<dialog_id>}
     * @param userId {@code eval_user_<dialog_id>}
     */
    Session open(String sessionId, String userId) throws Exception;

    /**
     * Opens the session of one dialog of a run, whose calls are kept in the run's answers and found there again (a
     * resumed run replays the turns its first process was answered). By default the session of {@link #open(String,
     * String)}: a subject that calls nothing keeps nothing.
     *
     * @param answers the run's answers ({@link ResponseCache#NONE} to keep none)
     */
    default Session open(String sessionId, String userId, ResponseCache answers) throws Exception {
        return open(sessionId, userId);
    }

    /** One dialog's conversation with the target. */
    interface Session {
        /**
         * {@return the answer to one user turn, sent} A thrown exception makes the turn an error (it may be retried);
         * the timeout is also enforced by the caller.
         *
         * @param userText the user's message
         * @param timeout how long the call may take
         */
        TurnResponse send(String userText, Duration timeout) throws Exception;
    }
}
