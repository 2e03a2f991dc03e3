package dev.assay.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.run.RunListener;

/**
 * Turns the engine's callbacks for one run into SSE events: {@code eval_progress} when the run starts, whenever a case
 * or dialog starts or ends, and after each turn of a dialog ({@code current_turn} of {@code current_turns}),
 * {@code eval_item} per finished case (without its transcript), {@code eval_log} for the engine's log lines and
 * {@code eval_finished} with the final record. Never blocks (see {@link EventLog}).
 */
final class RunEvents implements RunListener {
    static final String PROGRESS = "eval_progress";
    static final String ITEM = "eval_item";
    static final String LOG = "eval_log";
    static final String FINISHED = "eval_finished";

    private final EventLog log;

    RunEvents(EventLog log) {
        this.log = log;
    }

    @Override
    public void runStarted(Run run) {
        log.publish(PROGRESS, Json.write(Views.progress(run, null, null)));
    }

    @Override
    public void itemStarted(Run run, String itemId, String prompt) {
        log.publish(PROGRESS, Json.write(Views.progress(run, itemId, prompt)));
    }

    /** A dialog's turn ended: progress names the dialog and how many of its turns are done. */
    @Override
    public void stepDone(Run run, String itemId, int done, int total) {
        ObjectNode progress = Views.progress(run, itemId, null);
        progress.put("current_turn", done);
        progress.put("current_turns", total);
        log.publish(PROGRESS, Json.write(progress));
    }

    @Override
    public void itemFinished(Run run, Item item) {
        log.publish(ITEM, Json.write(Views.itemSummary(item)));
        log.publish(PROGRESS, Json.write(Views.progress(run, null, null)));
    }

    @Override
    public void log(Run run, String message) {
        log.publish(LOG, Json.write(Json.object().put("run_id", run.runId()).put("message", message)));
    }

    @Override
    public void runFinished(Run run) {
        log.close(FINISHED, Json.write(run));
    }
}
