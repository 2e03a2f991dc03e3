package dev.assay.store.internal;

import com.zaxxer.hikari.HikariDataSource;
import dev.assay.result.Item;
import dev.assay.result.Label;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.store.CaseSetSnapshot;
import dev.assay.store.ItemFields;
import dev.assay.store.KeptResponse;
import dev.assay.store.ResponseStats;
import dev.assay.store.RunLife;
import dev.assay.store.RunQuery;
import dev.assay.store.Store;
import dev.assay.store.StoreDialect;
import dev.assay.store.StoredTranscript;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The {@link Store} over Jdbi, for SQLite and PostgreSQL alike: one repository per aggregate (runs, their items, the
 * answers kept, the case sets, the runs' signs of life) over a {@link JdbiDatabase} they share; the only classes that
 * know Jdbi. Every method runs in one transaction. Thread-safe.
 */
public final class JdbiStore implements Store {
    private final HikariDataSource dataSource;
    private final JdbiDatabase db;
    private final HeldWriter writer;
    private final RunRepository runs;
    private final ItemRepository items;
    private final ResponseRepository responses;
    private final CaseSetRepository caseSets;
    private final HeartbeatRepository heartbeats;
    private final LabelRepository labels;

    public JdbiStore(HikariDataSource dataSource, StoreDialect dialect) {
        this.dataSource = dataSource;
        this.db = new JdbiDatabase(dataSource, dialect);
        this.writer = new HeldWriter(dataSource, dialect.serialisesWriters());
        this.runs = new RunRepository(db);
        this.items = new ItemRepository(db);
        this.responses = new ResponseRepository(db);
        this.caseSets = new CaseSetRepository(db);
        this.heartbeats = new HeartbeatRepository(db);
        this.labels = new LabelRepository(db);
    }

    @Override
    public void createRun(Run run) {
        runs.create(run);
    }

    @Override
    public void updateRun(Run run) {
        runs.update(run);
    }

    @Override
    public boolean updateRunIf(Run run, RunStatus expected) {
        return runs.updateIf(run, expected);
    }

    @Override
    public void upsertItem(Item item) {
        saveAll(List.of(), List.of(item));
    }

    /** The answers and the items are written in one transaction on the held writer, so an item never outlives them. */
    @Override
    public void saveAll(List<KeptResponse> kept, List<Item> batch) {
        saveAll(kept, batch, (statements, items) -> true);
    }

    @Override
    public boolean saveAll(List<KeptResponse> kept, List<Item> batch, ItemGate gate) {
        if (kept.isEmpty() && batch.isEmpty()) {
            return true;
        }
        var admitted = new boolean[1];
        try {
            writer.inTransaction(statements -> {
                if (!kept.isEmpty()) {
                    responses.save(statements, kept);
                }
                admitted[0] = batch.isEmpty() || gate.admit(statements, batch);
                if (!batch.isEmpty() && admitted[0]) {
                    items.upsert(statements, batch);
                }
            });
            return admitted[0];
        } catch (SQLException e) {
            SQLException sql = JdbiDatabase.sqlCause(e);
            if (!batch.isEmpty() && db.dialect.isForeignKeyViolation(sql)) {
                throw JdbiDatabase.unknownRun(batch.getFirst().runId());
            }
            throw db.failure(e);
        }
    }

    @Override
    public Optional<Run> findRun(String runId) {
        return runs.find(runId);
    }

    @Override
    public List<Run> listRuns(RunQuery query) {
        return runs.list(query);
    }

    @Override
    public int countRuns(RunQuery query) {
        return runs.count(query);
    }

    @Override
    public List<Item> listItems(String runId, int offset, int limit, ItemFields fields) {
        if (offset < 0 || limit < 1) {
            throw new IllegalArgumentException("offset must be >= 0 and limit >= 1");
        }
        return items.page(runId, null, offset, limit, fields);
    }

    @Override
    public List<Item> listItemsAfter(String runId, Item after, int limit, ItemFields fields) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1");
        }
        return items.page(runId, after, 0, limit, fields);
    }

    @Override
    public List<StoredTranscript> listTranscripts(String runId, Item after, Item last) {
        return items.transcripts(runId, after, last);
    }

    @Override
    public int countItems(String runId) {
        return items.count(runId);
    }

    @Override
    public List<Integer> storedSeqs(String runId) {
        return items.storedSeqs(runId);
    }

    @Override
    public Optional<Item> findItem(String runId, int seq) {
        return items.find(runId, seq);
    }

    @Override
    public List<Item> findItems(String runId, Collection<Integer> seqs) {
        return items.findAll(runId, seqs);
    }

    @Override
    public void heartbeat(String runId) {
        heartbeats.beat(runId);
    }

    @Override
    public List<RunLife> runningRuns() {
        return heartbeats.running();
    }

    @Override
    public void saveResponse(String runId, String key, String response) {
        saveAll(List.of(new KeptResponse(runId, key, response)), List.of());
    }

    @Override
    public Optional<String> findResponse(String key, String runId, Instant since) {
        return responses.find(key, runId, since);
    }

    @Override
    public ResponseStats responseStats() {
        return responses.stats();
    }

    @Override
    public int clearResponses(Instant before) {
        return responses.clear(before);
    }

    @Override
    public boolean deleteRun(String runId) {
        return runs.delete(runId);
    }

    @Override
    public void saveCaseSet(CaseSetSnapshot snapshot, Iterator<String> cases) {
        caseSets.save(snapshot, cases);
    }

    @Override
    public void forEachCaseSetCase(String version, Consumer<String> each) {
        caseSets.forEachCase(version, each);
    }

    @Override
    public boolean hasCaseSet(String version) {
        return caseSets.has(version);
    }

    @Override
    public Optional<CaseSetSnapshot> findCaseSet(String version) {
        return caseSets.find(version);
    }

    @Override
    public void saveLabel(Label label) {
        labels.save(label);
    }

    @Override
    public List<Label> listLabels(String runId) {
        return labels.list(runId);
    }

    @Override
    public List<String> labelledRuns() {
        return labels.labelledRuns();
    }

    @Override
    public void close() {
        try {
            writer.close();
        } catch (SQLException e) {
            throw db.failure(e);
        } finally {
            dataSource.close();
        }
    }
}
