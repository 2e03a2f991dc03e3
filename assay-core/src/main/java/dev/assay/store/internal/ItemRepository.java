package dev.assay.store.internal;

import static dev.assay.store.internal.JdbiDatabase.json;
import static dev.assay.store.internal.JdbiDatabase.millis;
import static dev.assay.store.internal.JdbiDatabase.readJson;
import static dev.assay.store.internal.JdbiDatabase.text;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.assay.Problem;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.ToolCallView;
import dev.assay.store.ItemFields;
import dev.assay.store.Store;
import dev.assay.store.StoredTranscript;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.Query;
import org.jdbi.v3.core.statement.StatementContext;

/** A run's items ({@code evaluation_items}), one per case and sample, read in selection order. Thread-safe. */
public final class ItemRepository {
    // Plain JDBC with positional parameters, on the held writer's connection (JdbiStore#saveAll).
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

    /** A run's items past one, in their order (seq, then case id): where a page continues ({@link #bindAfter}). */
    private static final String AFTER_ITEM = " AND (seq, case_id) > (:seq, :case_id)";

    private static final TypeReference<List<ToolCallView>> TOOL_CALLS = new TypeReference<>() {};

    private final JdbiDatabase db;
    private final RowMapper<Item> items;

    ItemRepository(JdbiDatabase db) {
        this.db = db;
        this.items = this::toItem;
    }

    /**
     * {@return the query of a page of a run's items in selection order}
     *
     * @param fields the fields read
     * @param after whether the page follows a given item ({@code :seq}, {@code :case_id}) rather than an offset alone
     */
    public static String itemsQuery(ItemFields fields, boolean after) {
        String select = switch (fields) {
            case WHOLE -> "SELECT * FROM evaluation_items WHERE run_id = :run_id";
            case BRIEF -> BRIEF_ITEMS;
            case FIGURES -> ITEM_FIGURES;
        };
        return select + (after ? AFTER_ITEM : "") + " ORDER BY seq, case_id LIMIT :limit OFFSET :offset";
    }

    private static void bindAfter(Query query, Item after) {
        query.bind("seq", after.seq()).bind("case_id", after.caseId());
    }

    /** Upserts the items as one batch in the held writer's transaction. */
    void upsert(Store.Statements statements, List<Item> batch) throws SQLException {
        PreparedStatement upsert = statements.prepared(UPSERT_ITEM);
        for (Item item : batch) {
            bind(upsert, item);
            upsert.addBatch();
        }
        upsert.executeBatch();
    }

    List<Item> page(String runId, Item after, int offset, int limit, ItemFields fields) {
        return db.inTransaction(handle -> {
            var query = handle.createQuery(itemsQuery(fields, after != null))
                    .bind("run_id", runId)
                    .bind("limit", limit)
                    .bind("offset", offset);
            if (after != null) {
                bindAfter(query, after);
            }
            return query.map(items).list();
        });
    }

    List<StoredTranscript> transcripts(String runId, Item after, Item last) {
        return db.inTransaction(handle -> {
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
            return query.map((row, context) -> new StoredTranscript(
                            row.getInt("seq"), row.getString("case_id"), row.getString("transcript")))
                    .list();
        });
    }

    int count(String runId) {
        long count = db.inTransaction(
                handle -> handle.createQuery("SELECT count(*) FROM evaluation_items WHERE run_id = :run_id")
                        .bind("run_id", runId)
                        .mapTo(Long.class)
                        .one());
        return Math.toIntExact(count);
    }

    List<Integer> storedSeqs(String runId) {
        return db.inTransaction(
                handle -> handle.createQuery("SELECT seq FROM evaluation_items WHERE run_id = :run_id ORDER BY seq")
                        .bind("run_id", runId)
                        .mapTo(Integer.class)
                        .list());
    }

    Optional<Item> find(String runId, int seq) {
        return db.inTransaction(handle -> handle.createQuery(
                        "SELECT * FROM evaluation_items WHERE run_id = :run_id AND seq = :seq ORDER BY case_id LIMIT 1")
                .bind("run_id", runId)
                .bind("seq", seq)
                .map(items)
                .findOne());
    }

    /** How many positions one query of {@link #findAll} names. */
    private static final int FIND_BATCH = 500;

    List<Item> findAll(String runId, Collection<Integer> seqs) {
        List<Integer> wanted = List.copyOf(seqs);
        var found = new ArrayList<Item>(wanted.size());
        for (int from = 0; from < wanted.size(); from += FIND_BATCH) {
            List<Integer> batch = wanted.subList(from, Math.min(wanted.size(), from + FIND_BATCH));
            found.addAll(db.inTransaction(handle -> handle.createQuery(
                            "SELECT * FROM evaluation_items WHERE run_id = :run_id AND seq IN (<seqs>) ORDER BY seq, case_id")
                    .bind("run_id", runId)
                    .bindList("seqs", batch)
                    .map(items)
                    .list()));
        }
        return found;
    }

    /** Binds an item to {@link #UPSERT_ITEM}'s parameters, in the order of its columns. */
    private void bind(PreparedStatement statement, Item item) throws SQLException {
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
        db.dialect.setInstant(statement, 15, millis(item.startedAt()));
        db.dialect.setInstant(statement, 16, millis(item.finishedAt()));
        statement.setDouble(17, item.elapsedS());
        statement.setBoolean(18, item.truncated());
    }

    private Item toItem(ResultSet row, StatementContext context) throws SQLException {
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
                db.dialect.getInstant(row, "started_at"),
                db.dialect.getInstant(row, "finished_at"),
                row.getDouble("elapsed_s"),
                row.getBoolean("truncated"));
    }
}
