package dev.assay.dialog.internal;

import dev.assay.AssayException;
import dev.assay.dialog.Dialog;
import dev.assay.dialog.DialogRunConfig;
import dev.assay.dialog.DialogStatus;
import dev.assay.dialog.DialogSubject;
import dev.assay.dialog.DialogTrace;
import dev.assay.dialog.TurnPair;
import dev.assay.dialog.TurnResponse;
import dev.assay.dialog.TurnStatus;
import dev.assay.dialog.TurnTrace;
import dev.assay.internal.Deadlines;
import dev.assay.model.ResponseCache;
import dev.assay.run.ItemContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeoutException;

/**
 * Replays one dialog against a target, turn by turn, and records its trace. Nothing is thrown: a failed call makes an
 * error turn (after the configured retries), a failed session a failed dialog, and the replay goes on (contract §4,
 * §9). Thread-safe; each call uses its own session.
 */
public final class DialogReplayer {
    private final DialogSubject subject;
    private final DialogRunConfig config;

    /**
     * @param subject the target
     * @param config run id, per-turn timeout and retries
     */
    public DialogReplayer(DialogSubject subject, DialogRunConfig config) {
        this.subject = subject;
        this.config = config;
    }

    /**
     * {@return the dialog's trace; invalid dialogs are skipped without calling the target} An interrupt (the run was
     * cancelled) stops the dialog after the turn in flight, and the thread stays interrupted so the caller can tell.
     *
     * @param steps told of each turn as it ends
     * @param answers the run's answers, where the target's calls are kept and found again
     */
    public DialogTrace replay(Dialog dialog, ItemContext.StepListener steps, ResponseCache answers) {
        if (!dialog.valid()) {
            return DialogTrace.of(config.runId(), dialog, DialogStatus.SKIPPED, List.of(), null);
        }
        DialogSubject.Session session;
        try {
            session = subject.open("eval_session_" + dialog.dialogId(), "eval_user_" + dialog.dialogId(), answers);
        } catch (Exception e) {
            return DialogTrace.of(
                    config.runId(), dialog, DialogStatus.FAILED, List.of(), "create_agent_failed: " + describe(e));
        }
        var turns = new ArrayList<TurnTrace>();
        try {
            List<TurnPair> pairs = dialog.pairs();
            for (TurnPair pair : pairs) {
                turns.add(playTurn(session, pair));
                steps.stepDone(turns.size(), pairs.size());
                if (Thread.currentThread().isInterrupted()) {
                    break;
                }
            }
        } catch (RuntimeException e) {
            return DialogTrace.of(
                    config.runId(), dialog, DialogStatus.FAILED, turns, "unhandled_dialog_exception: " + describe(e));
        }
        boolean allOk = turns.stream().allMatch(TurnTrace::ok);
        return DialogTrace.of(config.runId(), dialog, allOk ? DialogStatus.OK : DialogStatus.PARTIAL, turns, null);
    }

    private TurnTrace playTurn(DialogSubject.Session session, TurnPair pair) {
        long start = System.nanoTime();
        String error = null;
        for (int attempt = 0; attempt <= config.turnRetries(); attempt++) {
            Duration timeout = config.turnTimeout();
            var call = new FutureTask<TurnResponse>(() -> session.send(pair.userText(), timeout));
            // Not an executor that waits on close: a call that ignores the interrupt must not hold up the dialog.
            Thread.ofVirtual().name("dialog-turn").start(call);
            try {
                TurnResponse response = Deadlines.await(call, timeout);
                return turn(pair, response, start, TurnStatus.OK, null);
            } catch (TimeoutException e) {
                // The reference's wording: a timeout is an error turn, never status "timeout".
                error = "turn_timeout: exceeded " + timeout.toSeconds() + "s";
            } catch (ExecutionException e) {
                error = describe(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                call.cancel(true);
                error = "interrupted";
                break;
            }
        }
        return turn(pair, new TurnResponse("", null, null, null, null), start, TurnStatus.ERROR, error);
    }

    private static TurnTrace turn(TurnPair pair, TurnResponse response, long start, TurnStatus status, String error) {
        double latencyMs = (System.nanoTime() - start) / 1_000_000.0;
        return new TurnTrace(
                pair.turnPairId(),
                pair.userTurnAbsIdx(),
                pair.gtAssistantAbsIdx(),
                pair.userText(),
                pair.gtAssistantText(),
                pair.gtTurnTags(),
                response.text(),
                latencyMs,
                status,
                error,
                response.recall(),
                response.tools(),
                response.compliance(),
                response.profileSnapshot());
    }

    private static String describe(Throwable e) {
        if (e instanceof AssayException assay) {
            return assay.problem().type() + ": " + assay.problem().message();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
