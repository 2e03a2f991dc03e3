package dev.assay.store;

import dev.assay.result.Item;
import dev.assay.result.Label;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where runs, items and case-set snapshots live: SQLite embedded by default, PostgreSQL for teams, one implementation
 * and one schema (Flyway) for both. Thread-safe; each method is one transaction.
 */
public interface Store extends AutoCloseable {

    /** Inserts a new run. */
    void createRun(Run run);

    /** Replaces a run's record (status, scores, counts, times). */
    void updateRun(Run run);

    /**
     * {@return whether the run's record was replaced} It is replaced only while its stored status is {@code expected},
     * in one statement: what a front end deciding from a status it read needs, so that a process that changed the run
     * meanwhile is not overwritten.
     */
    boolean updateRunIf(Run run, RunStatus expected);

    /** Inserts or replaces the item with the same (run id, case id). */
    void upsertItem(Item item);

    /**
     * Keeps model answers and inserts or replaces items, all in one transaction: all are stored or none. The engine
     * commits the writes of items that finish together this way, one commit for many.
     */
    void saveAll(List<KeptResponse> responses, List<Item> items);

    /**
     * {@return whether the items were stored} As {@link #saveAll(List, List)}, with the gate's statements first in the
     * same transaction: they decide whether the items are stored and write what must be committed with them (a queued
     * run's worker removes the items' cases from the queue and adds their cost to the run's tally, so that a case is
     * either stored and off the queue or neither). The answers are kept whatever the gate decides.
     */
    boolean saveAll(List<KeptResponse> responses, List<Item> items, ItemGate gate);

    /**
     * Statements run in the transaction that stores a group of items, before them ({@link #saveAll(List, List,
     * ItemGate)}).
     */
    @FunctionalInterface
    interface ItemGate {
        /**
         * {@return whether to store the items}
         *
         * @param statements prepared statements on the transaction's connection
         * @param items the items of this transaction
         */
        boolean admit(Statements statements, List<Item> items) throws SQLException;
    }

    /** Prepared statements on one transaction's connection, each SQL text prepared once; closed by the store. */
    @FunctionalInterface
    interface Statements {
        PreparedStatement prepared(String sql) throws SQLException;
    }

    /** {@return the run, if it exists} */
    Optional<Run> findRun(String runId);

    /** {@return runs matching the query, newest first} */
    List<Run> listRuns(RunQuery query);

    /** {@return how many runs match the query's filters (paging ignored)} */
    int countRuns(RunQuery query);

    /** {@return a page of a run's items in selection order} */
    default List<Item> listItems(String runId, int offset, int limit) {
        return listItems(runId, offset, limit, ItemFields.WHOLE);
    }

    /**
     * {@return a page of a run's items in selection order, with the fields asked for}
     *
     * @param fields the fields read; the others are empty
     */
    List<Item> listItems(String runId, int offset, int limit, ItemFields fields);

    /**
     * {@return the page of a run's items that follows {@code after} in selection order}: reading a whole run page by
     * page this way costs the same for every page, where an offset costs more the further it goes
     *
     * @param after the last item of the page before; null for the first page
     */
    default List<Item> listItemsAfter(String runId, Item after, int limit) {
        return listItemsAfter(runId, after, limit, ItemFields.WHOLE);
    }

    /**
     * {@return the page of a run's items that follows {@code after} in selection order, with the fields asked for}
     *
     * @param after the last item of the page before; null for the first page
     * @param fields the fields read; the others are empty
     */
    List<Item> listItemsAfter(String runId, Item after, int limit, ItemFields fields);

    /**
     * {@return the transcripts of a run's items from the one after {@code after} to {@code last}, in selection order,
     * each as the JSON text stored}: what writes transcripts out as they are reads them this way, beside items read
     * without them. Bounded by items rather than counted, so that items stored meanwhile do not shift what is read.
     *
     * @param after the item before the first one; null to start at the first item
     * @param last the last item to read
     */
    List<StoredTranscript> listTranscripts(String runId, Item after, Item last);

    /** {@return how many items a run has} */
    int countItems(String runId);

    /**
     * {@return the positions ({@code seq}) of a run's stored items, ascending}: what a front end following a queued run
     * asks for, cheaply, to learn which items the workers have stored
     */
    List<Integer> storedSeqs(String runId);

    /** {@return the run's item at position {@code seq}, if stored} */
    Optional<Item> findItem(String runId, int seq);

    /**
     * {@return the run's stored items at the positions given, in one query per few hundred}: what a front end following
     * a queued run reads of the items the workers stored since it last asked
     */
    List<Item> findItems(String runId, Collection<Integer> seqs);

    /**
     * {@return whether the run existed} Deletes it and its items in one transaction, unless the run is running (in any
     * process using this database).
     *
     * @throws dev.assay.AssayException {@code run.still_running} when the run's status is {@code running}; nothing is
     *     deleted
     */
    boolean deleteRun(String runId);

    /**
     * Records that the process running a run is alive, and which process that is ({@link RunOwner#current}); every
     * {@link #createRun} and {@link #updateRun} does too. Only running runs.
     */
    void heartbeat(String runId);

    /**
     * {@return every run stored as running, oldest first, with its process and its last sign of life (heartbeat, else
     * start)}: a run whose process died (kill -9, power loss) or lost the database for good falls silent
     */
    List<RunLife> runningRuns();

    /** Keeps a model answer (JSON) of a run under its key; a second one under the same key replaces it. */
    void saveResponse(String runId, String key, String response);

    /**
     * {@return the answer kept under the key by this run, else, when {@code since} is given, the newest kept by any run
     * since then}
     */
    Optional<String> findResponse(String key, String runId, Instant since);

    /** {@return how many answers are kept, from how many runs, and since when} */
    ResponseStats responseStats();

    /** {@return how many answers were forgotten: those kept before {@code before}, all of them when null} */
    int clearResponses(Instant before);

    /** Stores a snapshot, its cases inside its content, unless one with the same version exists. */
    default void saveCaseSet(CaseSetSnapshot snapshot) {
        saveCaseSet(snapshot, Collections.emptyIterator());
    }

    /**
     * Stores a snapshot unless one with the same version exists, with its cases one row each, in one transaction: a
     * suite of any size is written a case at a time, never as one text.
     *
     * @param snapshot the snapshot; its content holds the rest of the document
     * @param cases each case's document, in the suite's order, taken as they are written
     */
    void saveCaseSet(CaseSetSnapshot snapshot, Iterator<String> cases);

    /**
     * Hands each case document stored in rows for that version to {@code each}, in order, read a page at a time; none
     * for a snapshot whose cases are inside its content.
     */
    void forEachCaseSetCase(String version, Consumer<String> each);

    /** {@return whether a snapshot with that version is stored}, without reading it */
    boolean hasCaseSet(String version);

    /** {@return the snapshot with that version, if stored} */
    Optional<CaseSetSnapshot> findCaseSet(String version);

    /**
     * Keeps a person's label of a check, replacing that person's earlier label of the same check; the item and its
     * machine verdict are left as they are.
     */
    void saveLabel(Label label);

    /** {@return the labels of a run's checks, by item, check and person} */
    List<Label> listLabels(String runId);

    /** {@return the ids of the runs with at least one label} */
    List<String> labelledRuns();

    @Override
    void close();
}
