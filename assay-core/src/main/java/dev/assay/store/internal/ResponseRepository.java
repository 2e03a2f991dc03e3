package dev.assay.store.internal;

import dev.assay.store.KeptResponse;
import dev.assay.store.ResponseStats;
import dev.assay.store.Store;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/** The answers kept for reuse ({@code model_responses}), by run and key. Thread-safe. */
final class ResponseRepository {
    // Plain JDBC with positional parameters, on the held writer's connection (JdbiStore#saveAll).
    private static final String SAVE_RESPONSE = """
            INSERT INTO model_responses (run_id, cache_key, response, created_at)
            VALUES (?, ?, ?, ?)
            ON CONFLICT (run_id, cache_key) DO UPDATE SET response = excluded.response,
                created_at = excluded.created_at""";

    private final JdbiDatabase db;

    ResponseRepository(JdbiDatabase db) {
        this.db = db;
    }

    /** Saves the responses as one batch in the held writer's transaction. */
    void save(Store.Statements statements, List<KeptResponse> responses) throws SQLException {
        PreparedStatement save = statements.prepared(SAVE_RESPONSE);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        for (KeptResponse response : responses) {
            save.setString(1, response.runId());
            save.setString(2, response.key());
            save.setString(3, response.response());
            db.dialect.setInstant(save, 4, now);
            save.addBatch();
        }
        save.executeBatch();
    }

    Optional<String> find(String key, String runId, Instant since) {
        return db.inTransaction(handle -> {
            Optional<String> own = handle.createQuery(
                            "SELECT response FROM model_responses WHERE cache_key = :key AND run_id = :run_id")
                    .bind("key", key)
                    .bind("run_id", runId)
                    .mapTo(String.class)
                    .findOne();
            if (own.isPresent() || since == null) {
                return own;
            }
            return handle.createQuery("SELECT response FROM model_responses WHERE cache_key = :key"
                            + " AND created_at >= :since ORDER BY created_at DESC LIMIT 1")
                    .bind("key", key)
                    .bind("since", db.time(since))
                    .mapTo(String.class)
                    .findOne();
        });
    }

    ResponseStats stats() {
        return db.inTransaction(handle -> handle.createQuery(
                        "SELECT count(*) AS responses, count(DISTINCT run_id) AS runs,"
                                + " min(created_at) AS oldest, max(created_at) AS newest FROM model_responses")
                .map((rows, context) -> new ResponseStats(
                        rows.getLong("responses"),
                        rows.getLong("runs"),
                        db.dialect.getInstant(rows, "oldest"),
                        db.dialect.getInstant(rows, "newest")))
                .one());
    }

    int clear(Instant before) {
        return db.inTransaction(handle -> before == null
                ? handle.createUpdate("DELETE FROM model_responses").execute()
                : handle.createUpdate("DELETE FROM model_responses WHERE created_at < :before")
                        .bind("before", db.time(before))
                        .execute());
    }
}
