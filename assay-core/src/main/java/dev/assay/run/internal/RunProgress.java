package dev.assay.run.internal;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.run.Metric;
import dev.assay.run.MetricContext;
import dev.assay.run.MetricRegistry;
import dev.assay.run.RunHandle;
import dev.assay.run.RunMeters;
import dev.assay.run.RunObserver;
import dev.assay.run.Workload;
import dev.assay.score.Scores;
import dev.assay.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A run's mutable tally as its items finish: each item is stored, counted, scored and announced, and the run record is
 * kept up to date in the store (at most once a second) and on its handle. It ends the run with the record of its stored
 * items. Thread-safe: the tally is guarded by its own lock.
 */
public final class RunProgress {
    private final Store store;
    private final RunHandle handle;
    private final Workload workload;
    private final RunAnnouncer announcer;
    private final StoreWrites writes;
    private final GroupCommit commits;
    private final StartGate gate;
    private final List<String> unstored = new ArrayList<>();
    // Only what the run record needs is kept, not the items: a large run's transcripts stay in the store.
    private final Metric.Tally scores;
    // Counted as items finish: recounting every status per item made a large run quadratic.
    private Counts counted = Counts.ZERO;
    private final ItemErrors errors = new ItemErrors();
    private Instant lastStored = Instant.EPOCH;

    /** @param storeOutageLimit how long the run's writes are retried while the database is unavailable */
    public RunProgress(
            Store store, Duration storeOutageLimit, RunHandle handle, Workload workload, RunAnnouncer announcer) {
        this.store = store;
        this.handle = handle;
        this.workload = workload;
        this.announcer = announcer;
        this.writes = new StoreWrites(storeOutageLimit, this::log);
        this.commits = new GroupCommit(store, writes);
        this.scores = workload.plugins()
                .metrics()
                .get(WeightedScore.NAME, null)
                .begin(new MetricContext(handle.current(), workload));
        this.gate = new StartGate(handle.current(), workload, this::log);
    }

    /** {@return the run's writes to the store, retried through an outage} */
    public StoreWrites writes() {
        return writes;
    }

    /** {@return the run's item writes, grouped into commits} */
    public GroupCommit commits() {
        return commits;
    }

    /** {@return whether a further case may start} */
    public StartGate gate() {
        return gate;
    }

    /** Counts the items a resumed run kept, as if they had just finished (they are stored already). */
    public synchronized void keep(List<Item> kept) {
        for (Item item : kept) {
            gate.counted(item, false);
            count(item);
        }
    }

    private void count(Item item) {
        scores.accept(item);
        counted = counted.plus(item.status());
        errors.count(item);
    }

    /** {@return how many of the run's items were not counted as finished} */
    public synchronized int unfinished() {
        return Math.max(0, workload.itemCount() - counted.completed());
    }

    /** {@return what observes the item} */
    public RunObserver.Trial started(String itemId, String prompt) {
        return announcer.itemStarted(handle.current(), itemId, prompt);
    }

    public void stepDone(String itemId, int step, int steps) {
        announcer.stepDone(handle.current(), itemId, step, steps);
    }

    /**
     * Notes what decides whether further cases start (refused credentials, the item's cost, a head-to-head: the
     * {@link #gate()}), before the item's slot goes to the next case and before it is stored ({@link #finished}).
     */
    public void judged(Item item) {
        gate.checkCredentials(item);
        gate.counted(item, true);
    }

    /**
     * Stores the item, then counts it.
     *
     * @throws AssayException when it could not be stored; it is then not counted
     */
    public void finished(Item item) throws InterruptedException {
        if (!workload.itemsStoredByRunner()) {
            commits.item(item);
        }
        workload.stored(item);
        Run run;
        boolean storeNow;
        synchronized (this) {
            count(item);
            RunMeters.caseFinished(item.status());
            run = tally(RunStatus.RUNNING, null, null);
            Instant now = Instant.now();
            // Storing the run record after every item would double the writes of large runs; once a second
            // is enough for other readers (the page, `runs list`), and the final record is always stored.
            storeNow = Duration.between(lastStored, now).toMillis() >= 1000;
            if (storeNow) {
                lastStored = now;
            }
            handle.update(run);
        }
        if (storeNow) {
            try {
                writes.write(() -> store.updateRun(run));
            } catch (AssayException progressNotStored) {
                // Only a progress snapshot: the final record is stored (or reported unstored) by end().
            }
        }
        announcer.itemFinished(run, item);
    }

    /** {@return why a run that judged no item measured nothing, or null when an item was judged} */
    public synchronized Problem nothingJudged() {
        return errors.nothingJudged(counted, workload.itemCount());
    }

    public void log(String message) {
        announcer.log(handle.current(), message);
    }

    /** Notes an item whose write failed for good; its case is to be run again when the run is resumed. */
    public void lost(String itemId, Problem problem) {
        synchronized (this) {
            unstored.add(itemId);
        }
        // Past an outage's limit every item in flight is lost to it: the run's end says so once.
        if (!writes.gaveUp()) {
            log(itemId + ": not stored: " + problem.message());
        }
    }

    /**
     * {@return why the run cannot be called finished although it ran every case: an item could not be stored, or the
     * database holds another number of items than the run counted (items deleted meanwhile), or null}
     */
    public Problem missingItems() throws InterruptedException {
        int countedItems;
        List<String> lostCases;
        synchronized (this) {
            countedItems = counted.completed();
            lostCases = List.copyOf(unstored);
        }
        int stored = writes.call(() -> store.countItems(handle.runId()));
        if (stored == countedItems && lostCases.isEmpty()) {
            return null;
        }
        return Problem.of(
                        "store.items_missing",
                        "the run counted " + countedItems + " stored items, the database "
                                + "holds " + stored + " and " + lostCases.size()
                                + " could not be stored; the run can be "
                                + "resumed")
                .withDetail("counted", countedItems)
                .withDetail("stored", stored)
                .withDetail("unstored", lostCases);
    }

    /**
     * Ends the run: stores its final record and announces it.
     *
     * @return the final record; {@code interrupted} whatever the run's own outcome when its end could not be stored
     * @throws AssayException when the store refused the final record for another reason than an outage
     */
    public Run end(RunStatus status, Problem error) {
        Run tallied;
        synchronized (this) {
            tallied = tally(status, CaseRunner.now(), error);
        }
        // With the database away there is nothing to compute the run's metrics from.
        Run run = writes.gaveUp() ? tallied : concluded(tallied);
        writes.allowLastWrite();
        try {
            writes.write(() -> store.updateRun(run));
        } catch (InterruptedException | AssayException e) {
            if (e instanceof AssayException failure && !failure.problem().type().equals("store.outage")) {
                throw failure;
            }
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            // The items are stored but not the end: the database still says "running". The caller learns it
            // from the record it gets, which is interrupted whatever the run's own outcome was.
            Problem outage = writes.outageProblem();
            Run unstoredEnd;
            synchronized (this) {
                unstoredEnd = tally(
                        RunStatus.INTERRUPTED,
                        run.finishedAt(),
                        new Problem(
                                        outage.type(),
                                        outage.message() + "; its end could not be stored either, so the "
                                                + "database lists it as running until the next assay command "
                                                + "on this host, or after a minute of silence any other, ends it",
                                        outage.details())
                                .withDetail("end_stored", false));
            }
            handle.update(unstoredEnd);
            announcer.runFinished(unstoredEnd);
            return unstoredEnd;
        }
        handle.update(run);
        announcer.runFinished(run);
        return run;
    }

    private Run concluded(Run tallied) {
        try {
            return MetricRegistry.withMetrics(workload.conclude(tallied, store), workload, store);
        } catch (RuntimeException e) {
            Problem problem = e instanceof AssayException assay
                    ? assay.problem()
                    : Problem.of("run.internal_error", "the run's metrics could not be computed: " + e);
            log(problem.message());
            return tallied.withProgress(
                    RunStatus.FAILED,
                    tallied.dimensionScores(),
                    tallied.totalScore(),
                    tallied.counts(),
                    tallied.finishedAt(),
                    tallied.elapsedS(),
                    tallied.error() != null ? tallied.error() : problem);
        }
    }

    private Run tally(RunStatus status, Instant finishedAt, Problem error) {
        Scores current = scores.result();
        Counts counts = counted.withTotal(workload.itemCount());
        Run run = handle.current();
        Instant end = finishedAt != null ? finishedAt : Instant.now();
        double elapsed = Duration.between(run.startedAt(), end).toMillis() / 1000.0;
        return run.withProgress(status, current.dimensionScores(), current.total(), counts, finishedAt, elapsed, error);
    }
}
