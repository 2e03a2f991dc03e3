package dev.assay.store.internal;

import dev.assay.result.RunStatus;
import dev.assay.store.RunLife;
import dev.assay.store.RunOwner;
import java.time.Instant;
import java.util.List;
import org.jdbi.v3.core.statement.SqlStatement;

/**
 * The signs of life of running runs ({@code heartbeat_at} and the owner columns of {@code evaluation_runs}): which
 * process runs each, and when it last wrote. Thread-safe.
 */
final class HeartbeatRepository {
    private final JdbiDatabase db;

    HeartbeatRepository(JdbiDatabase db) {
        this.db = db;
    }

    void beat(String runId) {
        db.inTransaction(handle -> bindOwner(
                        db,
                        handle.createUpdate("UPDATE evaluation_runs SET heartbeat_at = :now, owner_host = :owner_host,"
                                + " owner_pid = :owner_pid, owner_started_at = :owner_started_at"
                                + " WHERE run_id = :run_id AND status = :running"))
                .bind("now", db.time(Instant.now()))
                .bind("run_id", runId)
                .bind("running", RunStatus.RUNNING.wireName())
                .execute());
    }

    List<RunLife> running() {
        return db.inTransaction(handle -> handle.createQuery("SELECT run_id, owner_host, owner_pid, owner_started_at,"
                        + " COALESCE(heartbeat_at, started_at) AS last_sign FROM evaluation_runs"
                        + " WHERE status = :running ORDER BY started_at")
                .bind("running", RunStatus.RUNNING.wireName())
                .map((row, context) -> {
                    String host = row.getString("owner_host");
                    return new RunLife(
                            row.getString("run_id"),
                            host == null
                                    ? null
                                    : new RunOwner(
                                            host,
                                            row.getLong("owner_pid"),
                                            db.dialect.getInstant(row, "owner_started_at")),
                            db.dialect.getInstant(row, "last_sign"));
                })
                .list());
    }

    /** {@return the statement with this process bound as the run's owner ({@code :owner_host}, ...)} */
    static <S extends SqlStatement<S>> S bindOwner(JdbiDatabase db, S statement) {
        RunOwner owner = RunOwner.current();
        return statement
                .bind("owner_host", JdbiDatabase.text(owner.host()))
                .bind("owner_pid", owner.pid())
                .bind("owner_started_at", db.time(owner.started()));
    }
}
