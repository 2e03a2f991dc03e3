package dev.assay.subject;

import dev.assay.model.ResponseCache;
import dev.assay.tools.Tool;
import dev.assay.tools.Workspace;
import dev.assay.transcript.TranscriptBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/**
 * What a target gets for one case. Belongs to one case; not shared between threads except that the engine reads the
 * transcript recorded so far when the case times out or the run is cancelled.
 *
 * @param runId the run
 * @param sessionId unique per case attempt ({@code <run prefix>_<case id>}); agent services use it as their session
 * @param userId the user the run is for; empty when not given
 * @param workspace the case's workspace
 * @param deadline when the case's time is up; the target should give up by then
 * @param transcript where the target records what happens, as it happens
 * @param log receives human-readable progress lines (retries, tool errors); never secrets
 * @param responses where model answers are kept and found again ({@link ResponseCache#NONE} to keep none)
 * @param observer told of the trial's model and tool calls ({@link TrialObserver#NONE} when nothing observes the run)
 * @param tools the tools of the trial's environment (docs/environments.md), offered under their own names before the
 *     run's; empty when the case names no environment
 */
public record Session(
        String runId,
        String sessionId,
        String userId,
        Workspace workspace,
        Instant deadline,
        TranscriptBuilder transcript,
        Consumer<String> log,
        ResponseCache responses,
        TrialObserver observer,
        List<Tool> tools) {

    public Session {
        tools = tools == null ? List.of() : List.copyOf(tools);
    }

    /** A session without an environment. */
    public Session(
            String runId,
            String sessionId,
            String userId,
            Workspace workspace,
            Instant deadline,
            TranscriptBuilder transcript,
            Consumer<String> log,
            ResponseCache responses,
            TrialObserver observer) {
        this(runId, sessionId, userId, workspace, deadline, transcript, log, responses, observer, List.of());
    }

    /** A session that nothing observes. */
    public Session(
            String runId,
            String sessionId,
            String userId,
            Workspace workspace,
            Instant deadline,
            TranscriptBuilder transcript,
            Consumer<String> log,
            ResponseCache responses) {
        this(runId, sessionId, userId, workspace, deadline, transcript, log, responses, TrialObserver.NONE);
    }

    /** A session whose model answers are not kept. */
    public Session(
            String runId,
            String sessionId,
            String userId,
            Workspace workspace,
            Instant deadline,
            TranscriptBuilder transcript,
            Consumer<String> log) {
        this(runId, sessionId, userId, workspace, deadline, transcript, log, ResponseCache.NONE, TrialObserver.NONE);
    }

    /** {@return the time left before the deadline; never negative} */
    public Duration remaining() {
        Duration left = Duration.between(Instant.now(), deadline);
        return left.isNegative() ? Duration.ZERO : left;
    }
}
