package dev.assay.store.internal;

import static dev.assay.store.internal.JdbiDatabase.text;

import dev.assay.store.CaseSetSnapshot;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * The suites runs used ({@code evaluation_case_sets}), each stored once per version, its cases a row each
 * ({@code evaluation_case_set_cases}) so that a suite of any size is written and read a page at a time. Thread-safe.
 */
final class CaseSetRepository {
    private static final String INSERT_CASE_SET = """
            INSERT INTO evaluation_case_sets (version, name, case_count, content, created_at)
            VALUES (:version, :name, :case_count, :content, :created_at)
            ON CONFLICT (version) DO NOTHING""";

    private static final String INSERT_CASE_SET_CASE = """
            INSERT INTO evaluation_case_set_cases (version, position, content) VALUES (:version, :position, :content)""";

    private static final String CASE_SET_CASES = """
            SELECT position, content FROM evaluation_case_set_cases
            WHERE version = :version AND position > :after ORDER BY position LIMIT :limit""";

    /** Case rows written per batch and read per page: a page of large cases stays a few megabytes. */
    private static final int CASE_SET_BATCH = 500;

    private final JdbiDatabase db;

    CaseSetRepository(JdbiDatabase db) {
        this.db = db;
    }

    void save(CaseSetSnapshot snapshot, Iterator<String> cases) {
        Objects.requireNonNull(snapshot.version(), "version");
        Objects.requireNonNull(snapshot.createdAt(), "createdAt");
        db.inTransaction(handle -> {
            int inserted = handle.createUpdate(INSERT_CASE_SET)
                    .bind("version", text(snapshot.version()))
                    .bind("name", text(Objects.requireNonNullElse(snapshot.name(), "")))
                    .bind("case_count", snapshot.caseCount())
                    .bind("content", snapshot.content())
                    .bind("created_at", db.time(snapshot.createdAt()))
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

    void forEachCase(String version, Consumer<String> each) {
        int after = -1;
        while (true) {
            int from = after;
            List<Positioned> page = db.inTransaction(handle -> handle.createQuery(CASE_SET_CASES)
                    .bind("version", version)
                    .bind("after", from)
                    .bind("limit", CASE_SET_BATCH)
                    .map((row, context) -> new Positioned(row.getInt("position"), row.getString("content")))
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

    boolean has(String version) {
        return db.inTransaction(
                handle -> handle.createQuery("SELECT 1 FROM evaluation_case_sets WHERE version = :version")
                        .bind("version", version)
                        .mapTo(Integer.class)
                        .findOne()
                        .isPresent());
    }

    Optional<CaseSetSnapshot> find(String version) {
        return db.inTransaction(handle -> handle.createQuery(
                        "SELECT * FROM evaluation_case_sets WHERE version = :version")
                .bind("version", version)
                .map((row, context) -> new CaseSetSnapshot(
                        row.getString("version"),
                        row.getString("name"),
                        row.getInt("case_count"),
                        row.getString("content"),
                        db.dialect.getInstant(row, "created_at")))
                .findOne());
    }
}
