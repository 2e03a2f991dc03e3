package dev.assay.store.internal;

import dev.assay.result.Label;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/** People's labels of checks ({@code item_labels}): one per person and check, beside the machine verdict. */
final class LabelRepository {
    private final JdbiDatabase db;

    LabelRepository(JdbiDatabase db) {
        this.db = db;
    }

    void save(Label label) {
        db.inTransaction(handle -> handle.createUpdate(
                        "INSERT INTO item_labels (run_id, case_id, check_index, checker, verdict, score, note,"
                                + " labelled_by, labelled_at) VALUES (:run_id, :case_id, :check_index, :checker,"
                                + " :verdict, :score, :note, :labelled_by, :labelled_at)"
                                + " ON CONFLICT (run_id, case_id, check_index, labelled_by) DO UPDATE SET"
                                + " checker = excluded.checker, verdict = excluded.verdict, score = excluded.score,"
                                + " note = excluded.note, labelled_at = excluded.labelled_at")
                .bind("run_id", label.runId())
                .bind("case_id", label.caseId())
                .bind("check_index", label.check())
                .bind("checker", label.checker())
                .bind("verdict", label.pass() == null ? null : label.pass() ? "pass" : "fail")
                .bind("score", label.score())
                .bind("note", label.note())
                .bind("labelled_by", label.by())
                .bind("labelled_at", db.time(label.at()))
                .execute());
    }

    List<Label> list(String runId) {
        return db.inTransaction(handle -> handle.createQuery("SELECT * FROM item_labels WHERE run_id = :run_id"
                        + " ORDER BY case_id, check_index, labelled_by")
                .bind("run_id", runId)
                .map((row, context) -> label(row))
                .list());
    }

    List<String> labelledRuns() {
        return db.inTransaction(handle -> handle.createQuery("SELECT DISTINCT run_id FROM item_labels ORDER BY run_id")
                .mapTo(String.class)
                .list());
    }

    private Label label(ResultSet row) throws SQLException {
        String verdict = row.getString("verdict");
        double score = row.getDouble("score");
        boolean noScore = row.wasNull();
        return new Label(
                row.getString("run_id"),
                row.getString("case_id"),
                row.getInt("check_index"),
                row.getString("checker"),
                verdict == null ? null : verdict.equals("pass"),
                noScore ? null : score,
                row.getString("note"),
                row.getString("labelled_by"),
                db.dialect.getInstant(row, "labelled_at"));
    }
}
