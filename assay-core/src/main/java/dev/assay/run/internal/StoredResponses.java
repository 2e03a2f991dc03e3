package dev.assay.run.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.model.ModelResponse;
import dev.assay.model.ResponseCache;
import dev.assay.store.KeptResponse;
import dev.assay.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A run's answers (models, judges, agent services), kept in its database: found again within the run (so a resumed run
 * replays the calls its first process made), and across runs only when the user asked ({@code --cache}), for as long as
 * they allow. An answer is kept like an item, committed with the items that finish with it ({@link GroupCommit}):
 * retried while the database is away, with the same back-pressure and the same log lines. Finding one is a saving, not
 * a source of truth: when the database cannot answer, the model is asked.
 */
public final class StoredResponses implements ResponseCache {
    private final Store store;
    private final GroupCommit commits;
    private final String runId;
    private final Duration acrossRuns;
    private final boolean resumed;
    private final Consumer<String> log;

    /**
     * @param acrossRuns how old an answer of another run may be to be used; null to use only this run's
     * @param resumed whether the run was resumed: a new run has no answers of its own yet, so without
     *     {@code acrossRuns} nothing is looked up (a query per call saved)
     * @param log receives a line when the cache cannot be read or written
     */
    public StoredResponses(
            Store store,
            GroupCommit commits,
            String runId,
            Duration acrossRuns,
            boolean resumed,
            Consumer<String> log) {
        this.store = store;
        this.commits = commits;
        this.runId = runId;
        this.acrossRuns = acrossRuns;
        this.resumed = resumed;
        this.log = log;
    }

    @Override
    public Optional<JsonNode> find(String key) {
        if (!looksUp()) {
            return Optional.empty();
        }
        Instant since = acrossRuns == null ? null : Instant.now().minus(acrossRuns);
        try {
            return store.findResponse(key, runId, since).map(Json::parse);
        } catch (RuntimeException unreadable) {
            log.accept("the response cache could not be read, so the model is asked: " + unreadable.getMessage());
            return Optional.empty();
        }
    }

    @Override
    public boolean looksUp() {
        return resumed || acrossRuns != null;
    }

    @Override
    public ResponseCache withinRun() {
        return acrossRuns == null ? this : new StoredResponses(store, commits, runId, null, resumed, log);
    }

    @Override
    public void keep(String key, JsonNode answer) {
        keepText(key, answer);
    }

    /** Written straight to its text: the same text as its tree's, without the tree. */
    @Override
    public void keep(String key, ModelResponse answer) {
        keepText(key, answer);
    }

    private void keepText(String key, Object answer) {
        try {
            commits.response(new KeptResponse(runId, key, Json.write(answer)));
        } catch (AssayException unwritable) {
            // Past an outage's limit the run's end says so, once.
            if (!unwritable.problem().type().equals("store.outage")) {
                log.accept("the answer could not be kept in the response cache: "
                        + unwritable.problem().message());
            }
        } catch (InterruptedException cancelled) {
            // The run is being cancelled: the answer is not kept, and the case ends as the cancel decides.
            Thread.currentThread().interrupt();
        }
    }
}
