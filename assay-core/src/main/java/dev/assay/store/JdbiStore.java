package dev.assay.store;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.zaxxer.hikari.HikariDataSource;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.result.ToolCallView;
import java.sql.BatchUpdateException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.jdbi.v3.core.argument.Argument;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.jdbi.v3.core.statement.Query;
import org.jdbi.v3.core.statement.SqlStatement;

/**
 * The {@link Store} over Jdbi, for SQLite and PostgreSQL alike; the only class that knows Jdbi. Every method runs in
 * one transaction. Plain text columns cannot hold U+0000 in PostgreSQL, so both dialects store it as U+FFFD; JSON
 * columns keep it escaped. Instants are kept to the millisecond. Thread-safe.
 */
final class JdbiStore implements Store {
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

    // The two statements of saveAll are plain JDBC with positional parameters, on the held writer's connection.
    private static final String SAVE_RESPONSE = """
            INSERT INTO model_responses (run_id, cache_key, response, created_at)
            VALUES (?, ?, ?, ?)
            ON CONFLICT (run_id, cache_key) DO UPDATE SET response = excluded.response,
                created_at = excluded.created_at""";
    private static final String UPSERT_ITEM = """
            INSERT INTO evaluation_items (run_id, case_id, seq, dimension, status, score, max_score, weight, prompt,
                final_answer, tool_calls, checker_detail, error, transcript, started_at, finished_at, elapsed_s,
                truncated)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (run_id, case_id) DO UPDATE SET seq = excluded.seq, dimension = excluded.dimension,
                status = excluded.status, score = excluded.score, max_score = excluded.max_score,
                weight = excluded.weight, prompt = excluded.prompt, final_answer = excluded.final_answer,
                tool_calls = excluded.tool_calls, checker_detail = excluded.checker_detail, error = excluded.error,
                transcript = excluded.transcript, started_at = excluded.started_at,
                finished_at = excluded.finished_at, elapsed_s = excluded.elapsed_s, truncated = excluded.truncated""";

    private static final String BRIEF_ITEMS = """
            SELECT run_id, case_id, seq, dimension, status, score, max_score, weight, prompt, final_answer, tool_calls,
            checker_detail, error, NULL AS transcript, started_at, finished_at, elapsed_s, truncated
            FROM evaluation_items WHERE run_id = :run_id""";

    // Nothing stored after the transcript either: SQLite reads a row's columns in order, through the overflow pages of
    // a long transcript to reach what follows it.
    private static final String ITEM_FIGURES = """
            SELECT run_id, case_id, seq, dimension, status, score, max_score, weight, NULL AS prompt,
            NULL AS final_answer, tool_calls, NULL AS checker_detail, error, NULL AS transcript, NULL AS started_at,
            NULL AS finished_at, 0 AS elapsed_s, 0 AS truncated
            FROM evaluation_items WHERE run_id = :run_id""";

    /**
     * {@return the query of a page of a run's items in selection order}
     *
     * @param fields the fields read
     * @param after whether the page follows a given item ({@code :seq}, {@code :case_id}) rather than an offset alone
     */
    static String itemsQuery(ItemFields fields, boolean after) {
        String select = switch (fields) {
            case WHOLE -> "SELECT * FROM evaluation_items WHERE run_id = :run_id";
            case BRIEF -> BRIEF_ITEMS;
            case FIGURES -> ITEM_FIGURES;
        };
        return select + (after ? AFTER_ITEM : "") + " ORDER BY seq, case_id LIMIT :limit OFFSET :offset";
    }

    /** A run's items past one, in their order (seq, then case id): where a page continues ({@link #bindAfter}). */
    private static final String AFTER_ITEM = " AND (seq, case_id) > (:seq, :case_id)";

    private static void bindAfter(Query query, Item after) {
        query.bind("seq", after.seq()).bind("case_id", after.caseId());
    }

    private static final String INSERT_CASE_SET_CASE = """
            INSERT INTO evaluation_case_set_cases (version, position, content) VALUES (:version, :position, :content)""";

    private static final String CASE_SET_CASES = """
            SELECT position, content FROM evaluation_case_set_cases
            WHERE version = :version AND position > :after ORDER BY position LIMIT :limit""";

    /** Case rows written per batch and read per page: a page of large cases stays a few megabytes. */
    private static final int CASE_SET_BATCH = 500;

    private static final String INSERT_CASE_SET = """
            INSERT INTO evaluation_case_sets (version, name, case_count, content, created_at)
            VALUES (:version, :name, :case_count, :content, :created_at)
            ON CONFLICT (version) DO NOTHING""";

    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};
    private static final TypeReference<LinkedHashMap<String, Double>> SCORES = new TypeReference<>() {};
    private static final TypeReference<List<ToolCallView>> TOOL_CALLS = new TypeReference<>() {};

    private final HikariDataSource dataSource;
    private final StoreDialect dialect;
    private final Jdbi jdbi;
    private final HeldWriter writer;

    JdbiStore(HikariDataSource dataSource, StoreDialect dialect) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.jdbi = Jdbi.create(dataSource);
        this.writer = new HeldWriter(dataSource, dialect.serialisesWriters());
    }

    @Override
    public void createRun(Run run) {
        Objects.requireNonNull(run.startedAt(), "startedAt");
        int inserted = inTransaction(
                handle -> bindRun(handle.createUpdate(INSERT_RUN), run).execute());
        if (inserted == 0) {
            throw new AssayException(new Problem(
                    "store.run_exists", "a run with this id already exists", Map.of("run_id", run.runId())));
        }
    }

    @Override
    public void updateRun(Run run) {
        Objects.requireNonNull(run.startedAt(), "startedAt");
        int updated = inTransaction(
                handle -> bindRun(handle.createUpdate(UPDATE_RUN), run).execute());
        if (updated == 0) {
            throw unknownRun(run.runId());
        }
    }

    @Override
    public boolean updateRunIf(Run run, RunStatus expected) {
        Objects.requireNonNull(run.startedAt(), "startedAt");
        return inTransaction(handle -> bindRun(handle.createUpdate(UPDATE_RUN + " AND status = :expected"), run)
                        .bind("expected", expected.wireName())
                        .execute())
                > 0;
    }

    @Override
    public void upsertItem(Item item) {
        saveAll(List.of(), List.of(item));
    }

    @Override
    public void saveAll(List<KeptResponse> responses, List<Item> items) {
        if (responses.isEmpty() && items.isEmpty()) {
            return;
        }
        try {
            writer.inTransaction(statements -> {
                if (!responses.isEmpty()) {
                    PreparedStatement save = statements.prepared(SAVE_RESPONSE);
                    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
                    for (KeptResponse response : responses) {
                        save.setString(1, response.runId());
                        save.setString(2, response.key());
                        save.setString(3, response.response());
                        dialect.setInstant(save, 4, now);
                        save.addBatch();
                    }
                    save.executeBatch();
                }
                if (!items.isEmpty()) {
                    PreparedStatement upsert = statements.prepared(UPSERT_ITEM);
                    for (Item item : items) {
                        bindItem(upsert, item);
                        upsert.addBatch();
                    }
                    upsert.executeBatch();
                }
            });
        } catch (SQLException e) {
            SQLException sql = sqlCause(e);
            if (!items.isEmpty() && dialect.isForeignKeyViolation(sql)) {
                throw unknownRun(items.getFirst().runId());
            }
            throw failure(e);
        }
    }

    @Override
    public Optional<Run> findRun(String runId) {
        return inTransaction(handle -> handle.createQuery("SELECT * FROM evaluation_runs WHERE run_id = :run_id")
                .bind("run_id", runId)
                .map((resultSet, context) -> toRun(resultSet))
                .findOne());
    }

    @Override
    public List<Run> listRuns(RunQuery query) {
        Filter filter = filter(query);
        return inTransaction(handle -> handle.createQuery("SELECT * FROM evaluation_runs" + filter.where()
                        + " ORDER BY started_at DESC, run_id DESC LIMIT :limit OFFSET :offset")
                .bindMap(filter.arguments())
                .bind("limit", query.limit())
                .bind("offset", query.offset())
                .map((resultSet, context) -> toRun(resultSet))
                .list());
    }

    @Override
    public int countRuns(RunQuery query) {
        Filter filter = filter(query);
        long count = inTransaction(handle -> handle.createQuery("SELECT count(*) FROM evaluation_runs" + filter.where())
                .bindMap(filter.arguments())
                .mapTo(Long.class)
                .one());
        return Math.toIntExact(count);
    }

    @Override
    public List<Item> listItems(String runId, int offset, int limit, ItemFields fields) {
        if (offset < 0 || limit < 1) {
            throw new IllegalArgumentException("offset must be >= 0 and limit >= 1");
        }
        return items(runId, null, offset, limit, fields);
    }

    @Override
    public List<Item> listItemsAfter(String runId, Item after, int limit, ItemFields fields) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1");
        }
        return items(runId, after, 0, limit, fields);
    }

    private List<Item> items(String runId, Item after, int offset, int limit, ItemFields fields) {
        return inTransaction(handle -> {
            var query = handle.createQuery(itemsQuery(fields, after != null))
                    .bind("run_id", runId)
                    .bind("limit", limit)
                    .bind("offset", offset);
            if (after != null) {
                bindAfter(query, after);
            }
            return query.map((resultSet, context) -> toItem(resultSet)).list();
        });
    }

    @Override
    public List<StoredTranscript> listTranscripts(String runId, Item after, Item last) {
        return inTransaction(handle -> {
            var query = handle.createQuery(
                            "SELECT seq, case_id, transcript FROM evaluation_items WHERE run_id = :run_id"
                                    + (after == null ? "" : AFTER_ITEM)
                                    + " AND (seq, case_id) <= (:last_seq, :last_case_id) ORDER BY seq, case_id")
                    .bind("run_id", runId)
                    .bind("last_seq", last.seq())
                    .bind("last_case_id", last.caseId());
            if (after != null) {
                bindAfter(query, after);
            }
            return query.map((resultSet, context) -> new StoredTranscript(
                            resultSet.getInt("seq"), resultSet.getString("case_id"), resultSet.getString("transcript")))
                    .list();
        });
    }

    @Override
    public int countItems(String runId) {
        long count = inTransaction(
                handle -> handle.createQuery("SELECT count(*) FROM evaluation_items WHERE run_id = :run_id")
                        .bind("run_id", runId)
                        .mapTo(Long.class)
                        .one());
        return Math.toIntExact(count);
    }

    @Override
    public List<Integer> storedSeqs(String runId) {
        return inTransaction(
                handle -> handle.createQuery("SELECT seq FROM evaluation_items WHERE run_id = :run_id ORDER BY seq")
                        .bind("run_id", runId)
                        .mapTo(Integer.class)
                        .list());
    }

    @Override
    public Optional<Item> findItem(String runId, int seq) {
        return inTransaction(handle -> handle.createQuery(
                        "SELECT * FROM evaluation_items WHERE run_id = :run_id AND seq = :seq ORDER BY case_id LIMIT 1")
                .bind("run_id", runId)
                .bind("seq", seq)
                .map((resultSet, context) -> toItem(resultSet))
                .findOne());
    }

    @Override
    public void heartbeat(String runId) {
        inTransaction(handle -> bindOwner(handle.createUpdate("UPDATE evaluation_runs SET heartbeat_at = :now,"
                        + " owner_host = :owner_host, owner_pid = :owner_pid,"
                        + " owner_started_at = :owner_started_at WHERE run_id = :run_id AND status = :running"))
                .bind("now", time(Instant.now()))
                .bind("run_id", runId)
                .bind("running", RunStatus.RUNNING.wireName())
                .execute());
    }

    @Override
    public List<RunLife> runningRuns() {
        return inTransaction(handle -> handle.createQuery("SELECT run_id, owner_host, owner_pid, owner_started_at,"
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
                                            dialect.getInstant(row, "owner_started_at")),
                            dialect.getInstant(row, "last_sign"));
                })
                .list());
    }

    @Override
    public void saveResponse(String runId, String key, String response) {
        saveAll(List.of(new KeptResponse(runId, key, response)), List.of());
    }

    @Override
    public Optional<String> findResponse(String key, String runId, Instant since) {
        return inTransaction(handle -> {
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
                    .bind("since", time(since))
                    .mapTo(String.class)
                    .findOne();
        });
    }

    @Override
    public ResponseStats responseStats() {
        return inTransaction(handle -> handle.createQuery(
                        "SELECT count(*) AS responses, count(DISTINCT run_id) AS runs,"
                                + " min(created_at) AS oldest, max(created_at) AS newest FROM model_responses")
                .map((rows, context) -> new ResponseStats(
                        rows.getLong("responses"),
                        rows.getLong("runs"),
                        dialect.getInstant(rows, "oldest"),
                        dialect.getInstant(rows, "newest")))
                .one());
    }

    @Override
    public int clearResponses(Instant before) {
        return inTransaction(handle -> before == null
                ? handle.createUpdate("DELETE FROM model_responses").execute()
                : handle.createUpdate("DELETE FROM model_responses WHERE created_at < :before")
                        .bind("before", time(before))
                        .execute());
    }

    @Override
    public boolean deleteRun(String runId) {
        // The status check and the delete are one statement, so a process that is writing the run (this one or
        // another on the same database) cannot lose it between them. The run goes first and its items explicitly
        // after it: the cascade is a safety net, not something every connection is trusted with.
        Boolean deleted = inTransaction(handle -> {
            int runs = handle.createUpdate("DELETE FROM evaluation_runs WHERE run_id = :run_id AND status <> :running")
                    .bind("run_id", runId)
                    .bind("running", RunStatus.RUNNING.wireName())
                    .execute();
            if (runs > 0) {
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

    @Override
    public void saveCaseSet(CaseSetSnapshot snapshot, Iterator<String> cases) {
        Objects.requireNonNull(snapshot.version(), "version");
        Objects.requireNonNull(snapshot.createdAt(), "createdAt");
        inTransaction(handle -> {
            int inserted = handle.createUpdate(INSERT_CASE_SET)
                    .bind("version", text(snapshot.version()))
                    .bind("name", text(Objects.requireNonNullElse(snapshot.name(), "")))
                    .bind("case_count", snapshot.caseCount())
                    .bind("content", snapshot.content())
                    .bind("created_at", time(snapshot.createdAt()))
                    .execute();
            if (inserted == 0) {
                return null;
            }
            int position = 0;
            while (cases.hasNext()) {
                PreparedBatch batch = handle.prepareBatch(INSERT_CASE_SET_CASE);
                for (int row = 0; row < CASE_SET_BATCH && cases.hasNext(); row++) {
                    batch.bind("version", text(snapshot.version()))
                            .bind("position", position++)
                            .bind("content", cases.next())
                            .add();
                }
                batch.execute();
            }
            return null;
        });
    }

    @Override
    public void forEachCaseSetCase(String version, Consumer<String> each) {
        int after = -1;
        while (true) {
            int from = after;
            List<Positioned> page = inTransaction(handle -> handle.createQuery(CASE_SET_CASES)
                    .bind("version", version)
                    .bind("after", from)
                    .bind("limit", CASE_SET_BATCH)
                    .map((resultSet, context) ->
                            new Positioned(resultSet.getInt("position"), resultSet.getString("content")))
                    .list());
            page.forEach(row -> each.accept(row.content()));
            if (page.size() < CASE_SET_BATCH) {
                return;
            }
            after = page.getLast().position();
        }
    }

    /** A case set's case row. */
    private record Positioned(int position, String content) {}

    @Override
    public boolean hasCaseSet(String version) {
        return inTransaction(handle -> handle.createQuery("SELECT 1 FROM evaluation_case_sets WHERE version = :version")
                .bind("version", version)
                .mapTo(Integer.class)
                .findOne()
                .isPresent());
    }

    @Override
    public Optional<CaseSetSnapshot> findCaseSet(String version) {
        return inTransaction(handle -> handle.createQuery("SELECT * FROM evaluation_case_sets WHERE version = :version")
                .bind("version", version)
                .map((resultSet, context) -> new CaseSetSnapshot(
                        resultSet.getString("version"),
                        resultSet.getString("name"),
                        resultSet.getInt("case_count"),
                        resultSet.getString("content"),
                        dialect.getInstant(resultSet, "created_at")))
                .findOne());
    }

    @Override
    public void close() {
        try {
            writer.close();
        } catch (SQLException e) {
            throw failure(e);
        } finally {
            dataSource.close();
        }
    }

    /**
     * Runs the work in one transaction. A failure becomes {@code store.unavailable} when the database could not be
     * reached or was busy (worth retrying once it is back) and {@code store.failed} otherwise. The message names only
     * the driver's own sentence, never Jdbi's text, which quotes the statement and its bound values (transcripts,
     * answers).
     */
    private <T> T inTransaction(HandleCallback<T, RuntimeException> work) {
        try {
            return jdbi.inTransaction(work);
        } catch (JdbiException e) {
            throw failure(e);
        }
    }

    /** {@return a failed statement or transaction as {@code store.unavailable} or {@code store.failed}} */
    private AssayException failure(Exception e) {
        SQLException sql = sqlCause(e);
        boolean unavailable = sql != null && isUnavailable(sql);
        String reason = sql == null ? e.getClass().getSimpleName() : brief(sql.getMessage());
        return new AssayException(
                unavailable
                        ? Problem.of("store.unavailable", "the database is unavailable: " + reason)
                        : Problem.of("store.failed", "database operation failed: " + reason),
                e);
    }

    /**
     * {@return whether the failure means the database could not be reached or was busy, so the same statement may
     * succeed later}: JDBC's transient and connection failures (a pool that timed out among them), and what the dialect
     * knows to be such
     */
    private boolean isUnavailable(SQLException failure) {
        return failure instanceof SQLTransientException
                || failure instanceof SQLRecoverableException
                || failure instanceof SQLNonTransientConnectionException
                || dialect.isUnavailable(failure);
    }

    private static SQLException sqlCause(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            // A batch's own message quotes its statement; the driver's reason is the next exception.
            if (cause instanceof BatchUpdateException batch && batch.getNextException() != null) {
                return batch.getNextException();
            }
            if (cause instanceof SQLException sql) {
                return sql;
            }
        }
        return null;
    }

    /** The first line of a driver message, bounded: PostgreSQL appends "Detail:" and "Where:" lines. */
    private static String brief(String message) {
        String line = message == null ? "" : message.lines().findFirst().orElse("");
        return line.length() <= 200 ? line : line.substring(0, 200) + "...";
    }

    private <S extends SqlStatement<S>> S bindRun(S statement, Run run) {
        Counts counts = run.counts();
        statement
                .bind("run_id", text(run.runId()))
                .bind("kind", text(run.kind()))
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
                .bind("started_at", time(run.startedAt()))
                .bind("finished_at", time(run.finishedAt()))
                // Every write of the run is a sign of life.
                .bind("heartbeat_at", time(Instant.now()))
                .bind("elapsed_s", run.elapsedS())
                .bind("error", json(run.error()))
                .bind("metrics", json(run.metrics()));
        // Every write of the run says which process runs it, too.
        return bindOwner(statement);
    }

    private <S extends SqlStatement<S>> S bindOwner(S statement) {
        RunOwner owner = RunOwner.current();
        return statement
                .bind("owner_host", text(owner.host()))
                .bind("owner_pid", owner.pid())
                .bind("owner_started_at", time(owner.started()));
    }

    /** Binds an item to {@link #UPSERT_ITEM}'s parameters, in the order of its columns. */
    private void bindItem(PreparedStatement statement, Item item) throws SQLException {
        statement.setString(1, text(item.runId()));
        statement.setString(2, text(item.caseId()));
        statement.setInt(3, item.seq());
        statement.setString(4, text(item.dimension()));
        statement.setString(5, item.status().wireName());
        statement.setDouble(6, item.score());
        statement.setDouble(7, item.maxScore());
        statement.setDouble(8, item.weight());
        statement.setString(9, text(item.prompt()));
        statement.setString(10, text(item.finalAnswer()));
        statement.setString(11, json(item.toolCalls()));
        statement.setString(12, json(item.checkerDetail()));
        statement.setString(13, json(item.error()));
        statement.setString(14, json(item.transcript()));
        dialect.setInstant(statement, 15, millis(item.startedAt()));
        dialect.setInstant(statement, 16, millis(item.finishedAt()));
        statement.setDouble(17, item.elapsedS());
        statement.setBoolean(18, item.truncated());
    }

    private Run toRun(ResultSet row) throws SQLException {
        return new Run(
                row.getString("run_id"),
                row.getString("kind"),
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
                dialect.getInstant(row, "started_at"),
                dialect.getInstant(row, "finished_at"),
                row.getDouble("elapsed_s"),
                readJson(row.getBytes("error"), Problem.class),
                readJson(row.getBytes("metrics"), SCORES));
    }

    private Item toItem(ResultSet row) throws SQLException {
        return new Item(
                row.getString("run_id"),
                row.getString("case_id"),
                row.getInt("seq"),
                row.getString("dimension"),
                ItemStatus.parse(row.getString("status")),
                row.getDouble("score"),
                row.getDouble("max_score"),
                row.getDouble("weight"),
                row.getString("prompt"),
                row.getString("final_answer"),
                readJson(row.getBytes("tool_calls"), TOOL_CALLS),
                readJson(row.getBytes("checker_detail")),
                readJson(row.getBytes("error"), Problem.class),
                readJson(row.getBytes("transcript")),
                dialect.getInstant(row, "started_at"),
                dialect.getInstant(row, "finished_at"),
                row.getDouble("elapsed_s"),
                row.getBoolean("truncated"));
    }

    private Filter filter(RunQuery query) {
        var conditions = new ArrayList<String>();
        var arguments = new LinkedHashMap<String, Object>();
        if (query.userId() != null) {
            conditions.add("user_id = :user_id");
            arguments.put("user_id", query.userId());
        }
        if (query.modelName() != null) {
            conditions.add(dialect.containsIgnoreCase("model_name", "model_name"));
            arguments.put("model_name", query.modelName().toLowerCase(Locale.ROOT));
        }
        if (query.status() != null) {
            conditions.add("status = :status");
            arguments.put("status", query.status().wireName());
        }
        if (query.kind() != null) {
            conditions.add("kind = :kind");
            arguments.put("kind", query.kind());
        }
        if (query.since() != null) {
            conditions.add("started_at >= :since");
            arguments.put("since", time(query.since()));
        }
        if (query.until() != null) {
            conditions.add("started_at < :until");
            arguments.put("until", time(query.until()));
        }
        return new Filter(conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions), arguments);
    }

    /** A WHERE clause (empty or starting with a space) and the arguments it names. */
    private record Filter(String where, Map<String, Object> arguments) {}

    private Argument time(Instant instant) {
        Instant millis = millis(instant);
        return (position, statement, context) -> dialect.setInstant(statement, position, millis);
    }

    private static Instant millis(Instant instant) {
        return instant == null ? null : instant.truncatedTo(ChronoUnit.MILLIS);
    }

    private static AssayException unknownRun(String runId) {
        return new AssayException(
                new Problem("store.unknown_run", "no run with this id is stored", Map.of("run_id", runId)));
    }

    private static String text(String value) {
        return value.replace('\u0000', '\uFFFD');
    }

    private static String json(Object value) {
        return value == null || (value instanceof JsonNode node && node.isNull()) ? null : Json.write(value);
    }

    // JSON columns are read as their UTF-8 bytes (SQLite's and PostgreSQL's drivers give a text column's bytes as
    // stored), not as strings made only to be parsed: a large run's reports read every row in each of their passes,
    // and a 100 000-item run's took 8.3-8.5 s reading bytes, 8.9-9.0 s reading strings.
    private static JsonNode readJson(byte[] utf8) {
        return utf8 == null ? null : Json.parse(utf8);
    }

    private static <T> T readJson(byte[] utf8, Class<T> type) {
        return utf8 == null ? null : Json.read(utf8, type);
    }

    private static <T> T readJson(byte[] utf8, TypeReference<T> type) {
        return utf8 == null ? null : Json.read(utf8, type);
    }

    private static Double nullableDouble(ResultSet row, String column) throws SQLException {
        double value = row.getDouble(column);
        return row.wasNull() ? null : value;
    }
}
