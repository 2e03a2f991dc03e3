package dev.assay.store.internal;

import static dev.assay.store.internal.JdbiDatabase.json;
import static dev.assay.store.internal.JdbiDatabase.readJson;
import static dev.assay.store.internal.JdbiDatabase.text;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.result.Counts;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import dev.assay.store.RunQuery;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.SqlStatement;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * The runs ({@code evaluation_runs}): their records, listed and counted by filter, and deleted with what they own.
 * Every write of a run is a sign of life of its process ({@link HeartbeatRepository}). Thread-safe.
 */
final class RunRepository {
    private static final String INSERT_RUN = """
            INSERT INTO evaluation_runs (run_id, kind, user_id, model_name, language, status, case_set,
                case_set_version, config_snapshot, tool_snapshot, dimension_scores, total_score, total_count,
                passed_count, failed_count, partial_count, skipped_count, error_count, cancelled_count, started_at,
                finished_at, elapsed_s, error, heartbeat_at, metrics, owner_host, owner_pid, owner_started_at)
            VALUES (:run_id, :kind, :user_id, :model_name, :language, :status, :case_set,
                :case_set_version, :config_snapshot, :tool_snapshot, :dimension_scores, :total_score, :total_count,
                :passed_count, :failed_count, :partial_count, :skipped_count, :error_count, :cancelled_count, :started_at,
                :finished_at, :elapsed_s, :error, :heartbeat_at, :metrics, :owner_host, :owner_pid, :owner_started_at)
            ON CONFLICT (run_id) DO NOTHING""";

    private static final String UPDATE_RUN = """
            UPDATE evaluation_runs SET kind = :kind, user_id = :user_id, model_name = :model_name,
                language = :language, status = :status, case_set = :case_set, case_set_version = :case_set_version,
                config_snapshot = :config_snapshot, tool_snapshot = :tool_snapshot,
                dimension_scores = :dimension_scores, total_score = :total_score, total_count = :total_count,
                passed_count = :passed_count, failed_count = :failed_count, partial_count = :partial_count,
                skipped_count = :skipped_count, error_count = :error_count, cancelled_count = :cancelled_count,
                started_at = :started_at, finished_at = :finished_at, elapsed_s = :elapsed_s, error = :error,
                heartbeat_at = :heartbeat_at, metrics = :metrics, owner_host = :owner_host, owner_pid = :owner_pid,
                owner_started_at = :owner_started_at
            WHERE run_id = :run_id""";

    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};
    private static final TypeReference<LinkedHashMap<String, Double>> SCORES = new TypeReference<>() {};

    private final JdbiDatabase db;
    private final RowMapper<Run> runs;

    RunRepository(JdbiDatabase db) {
        this.db = db;
        this.runs = this::toRun;
    }

    void create(Run run) {
        Objects.requireNonNull(run.startedAt(), "startedAt");
        int inserted = db.inTransaction(
                handle -> bind(handle.createUpdate(INSERT_RUN), run).execute());
        if (inserted == 0) {
            throw new AssayException(new Problem(
                    "store.run_exists", "a run with this id already exists", Map.of("run_id", run.runId())));
        }
    }

    void update(Run run) {
        Objects.requireNonNull(run.startedAt(), "startedAt");
        int updated = db.inTransaction(
                handle -> bind(handle.createUpdate(UPDATE_RUN), run).execute());
        if (updated == 0) {
            throw JdbiDatabase.unknownRun(run.runId());
        }
    }

    boolean updateIf(Run run, RunStatus expected) {
        Objects.requireNonNull(run.startedAt(), "startedAt");
        return db.inTransaction(handle -> bind(handle.createUpdate(UPDATE_RUN + " AND status = :expected"), run)
                        .bind("expected", expected.wireName())
                        .execute())
                > 0;
    }

    Optional<Run> find(String runId) {
        return db.inTransaction(handle -> handle.createQuery("SELECT * FROM evaluation_runs WHERE run_id = :run_id")
                .bind("run_id", runId)
                .map(runs)
                .findOne());
    }

    List<Run> list(RunQuery query) {
        Filter filter = filter(query);
        return db.inTransaction(handle -> handle.createQuery("SELECT * FROM evaluation_runs" + filter.where()
                        + " ORDER BY started_at DESC, run_id DESC LIMIT :limit OFFSET :offset")
                .bindMap(filter.arguments())
                .bind("limit", query.limit())
                .bind("offset", query.offset())
                .map(runs)
                .list());
    }

    int count(RunQuery query) {
        Filter filter = filter(query);
        long count =
                db.inTransaction(handle -> handle.createQuery("SELECT count(*) FROM evaluation_runs" + filter.where())
                        .bindMap(filter.arguments())
                        .mapTo(Long.class)
                        .one());
        return Math.toIntExact(count);
    }

    boolean delete(String runId) {
        // The status check and the delete are one statement, so a process that is writing the run (this one or
        // another on the same database) cannot lose it between them. The run goes first and its items explicitly
        // after it: the cascade is a safety net, not something every connection is trusted with.
        Boolean deleted = db.inTransaction(handle -> {
            int deletedRuns = handle.createUpdate(
                            "DELETE FROM evaluation_runs WHERE run_id = :run_id AND status <> :running")
                    .bind("run_id", runId)
                    .bind("running", RunStatus.RUNNING.wireName())
                    .execute();
            if (deletedRuns > 0) {
                handle.createUpdate("DELETE FROM evaluation_items WHERE run_id = :run_id")
                        .bind("run_id", runId)
                        .execute();
                handle.createUpdate("DELETE FROM model_responses WHERE run_id = :run_id")
                        .bind("run_id", runId)
                        .execute();
                return true;
            }
            return handle.createQuery("SELECT count(*) FROM evaluation_runs WHERE run_id = :run_id")
                                    .bind("run_id", runId)
                                    .mapTo(Long.class)
                                    .one()
                            > 0
                    ? null
                    : false;
        });
        if (deleted == null) {
            throw new AssayException(new Problem(
                    "run.still_running",
                    "run " + runId + " is running; it can be "
                            + "deleted once it has ended (cancel it first when this process or server runs it)",
                    Map.of("run_id", runId, "field", "run_id")));
        }
        return deleted;
    }

    private <S extends SqlStatement<S>> S bind(S statement, Run run) {
        Counts counts = run.counts();
        statement
                .bind("run_id", text(run.runId()))
                .bind("kind", text(run.kind().wireName()))
                .bind("user_id", text(run.userId()))
                .bind("model_name", text(run.modelName()))
                .bind("language", text(run.language()))
                .bind("status", run.status().wireName())
                .bind("case_set", text(run.caseSet()))
                .bind("case_set_version", text(run.caseSetVersion()))
                .bind("config_snapshot", json(run.config()))
                .bind("tool_snapshot", json(run.toolSnapshot()))
                .bind("dimension_scores", json(run.dimensionScores()))
                .bind("total_score", run.totalScore())
                .bind("total_count", counts.total())
                .bind("passed_count", counts.passed())
                .bind("failed_count", counts.failed())
                .bind("partial_count", counts.partial())
                .bind("skipped_count", counts.skipped())
                .bind("error_count", counts.error())
                .bind("cancelled_count", counts.cancelled())
                .bind("started_at", db.time(run.startedAt()))
                .bind("finished_at", db.time(run.finishedAt()))
                // Every write of the run is a sign of life, and says which process runs it.
                .bind("heartbeat_at", db.time(Instant.now()))
                .bind("elapsed_s", run.elapsedS())
                .bind("error", json(run.error()))
                .bind("metrics", json(run.metrics()));
        return HeartbeatRepository.bindOwner(db, statement);
    }

    private Run toRun(ResultSet row, StatementContext context) throws SQLException {
        return new Run(
                row.getString("run_id"),
                java.util.Optional.ofNullable(row.getString("kind"))
                        .map(RunKind::parse)
                        .orElse(null),
                row.getString("user_id"),
                row.getString("model_name"),
                row.getString("language"),
                RunStatus.parse(row.getString("status")),
                row.getString("case_set"),
                row.getString("case_set_version"),
                readJson(row.getBytes("config_snapshot")),
                readJson(row.getBytes("tool_snapshot"), STRINGS),
                readJson(row.getBytes("dimension_scores"), SCORES),
                nullableDouble(row, "total_score"),
                new Counts(
                        row.getInt("total_count"),
                        row.getInt("passed_count"),
                        row.getInt("failed_count"),
                        row.getInt("partial_count"),
                        row.getInt("skipped_count"),
                        row.getInt("error_count"),
                        row.getInt("cancelled_count")),
                db.dialect.getInstant(row, "started_at"),
                db.dialect.getInstant(row, "finished_at"),
                row.getDouble("elapsed_s"),
                readJson(row.getBytes("error"), Problem.class),
                readJson(row.getBytes("metrics"), SCORES));
    }

    private Filter filter(RunQuery query) {
        var conditions = new ArrayList<String>();
        var arguments = new LinkedHashMap<String, Object>();
        if (query.userId() != null) {
            conditions.add("user_id = :user_id");
            arguments.put("user_id", query.userId());
        }
        if (query.modelName() != null) {
            conditions.add(db.dialect.containsIgnoreCase("model_name", "model_name"));
            arguments.put("model_name", query.modelName().toLowerCase(Locale.ROOT));
        }
        if (query.status() != null) {
            conditions.add("status = :status");
            arguments.put("status", query.status().wireName());
        }
        if (query.kind() != null) {
            conditions.add("kind = :kind");
            arguments.put("kind", query.kind().wireName());
        }
        if (query.since() != null) {
            conditions.add("started_at >= :since");
            arguments.put("since", db.time(query.since()));
        }
        if (query.until() != null) {
            conditions.add("started_at < :until");
            arguments.put("until", db.time(query.until()));
        }
        return new Filter(conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions), arguments);
    }

    /** A WHERE clause (empty or starting with a space) and the arguments it names. */
    private record Filter(String where, Map<String, Object> arguments) {}

    private static Double nullableDouble(ResultSet row, String column) throws SQLException {
        double value = row.getDouble(column);
        return row.wasNull() ? null : value;
    }
}
