package dev.assay.run;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.cases.Case;
import dev.assay.cases.Suite;
import dev.assay.cases.SuiteChanges;
import dev.assay.cases.SuiteSnapshots;
import dev.assay.result.Run;
import dev.assay.store.CaseSetSnapshot;
import dev.assay.store.Store;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The cases a capability run was started with, as its store keeps them ({@link CaseWorkload#register}), against those
 * its suite files select now. A run continued with other cases would judge its kept items by one version and the rest
 * by another, so every way of continuing a run (the CLI's {@code --resume}, the API's and the page's resume, a queue
 * worker) asks {@link #refusal} first, and continues with the stored cases ({@link #suite}) only when asked to.
 * Thread-safe (stateless).
 */
public final class StoredCases {
    /** The problem type of a run whose suite changed since it started. */
    public static final String SUITE_CHANGED = "run.suite_changed";

    /** How many ids of each kind the problem's details list. */
    private static final int LISTED = 100;

    private StoredCases() {}

    /**
     * {@return why {@code run} cannot continue with {@code now}, its suite as selected from its files today: a
     * {@value #SUITE_CHANGED} problem naming the cases added, removed and modified ({@link #changes}); empty when the
     * cases are those the run has}
     */
    public static Optional<Problem> refusal(Store store, Run run, Suite now) {
        return changes(store, run, now)
                .map(changes -> problem(
                        SUITE_CHANGED,
                        run,
                        changes,
                        "its finished items were judged by the cases it started with. Continue it with those cases "
                                + "(--stored-cases; the API's \"stored_cases\": true), or start a new run"));
    }

    /**
     * {@return how the cases {@code now} selects differ from those {@code run} was started with; empty when they do
     * not} A suite whose files changed only outside the run's selection continues.
     */
    public static Optional<SuiteChanges> changes(Store store, Run run, Suite now) {
        if (now.version().equals(run.caseSetVersion())) {
            return Optional.empty();
        }
        var before = new LinkedHashMap<String, String>();
        Map<String, String> fixtures = Map.of();
        Optional<CaseSetSnapshot> snapshot = store.findCaseSet(run.caseSetVersion());
        if (snapshot.isPresent()) {
            // A snapshot of format 1 holds its cases; a later one has them in rows of their own.
            Suite stored = SuiteSnapshots.fromJson(snapshot.get().content());
            fixtures = stored.fixtures();
            stored.cases().forEach(evalCase -> before.put(evalCase.id(), SuiteChanges.fingerprint(evalCase)));
            store.forEachCaseSetCase(run.caseSetVersion(), json -> {
                Case evalCase = SuiteSnapshots.caseFromJson(json);
                before.put(evalCase.id(), SuiteChanges.fingerprint(evalCase));
            });
        }
        SuiteChanges changes = SuiteChanges.between(before, fixtures, now);
        return changes.none() ? Optional.empty() : Optional.of(changes);
    }

    /**
     * {@return a problem of {@code type} saying how the suite of {@code run} changed, then {@code advice}}, its details
     * the run id, the ids added, removed and modified (at most a hundred of each) and whether the fixtures changed
     */
    public static Problem problem(String type, Run run, SuiteChanges changes, String advice) {
        return Problem.of(
                        type,
                        "the suite of run " + run.runId() + " is not the one it was started with: " + changes.inWords()
                                + "; " + advice)
                .withDetail("run_id", run.runId())
                .withDetail("added", listed(changes.added()))
                .withDetail("removed", listed(changes.removed()))
                .withDetail("modified", listed(changes.modified()))
                .withDetail("fixtures_changed", changes.fixturesChanged());
    }

    /**
     * {@return the suite {@code run} was started with, its selected cases as the store keeps them}: what a run
     * continued with {@code --stored-cases} runs, whatever its files hold now
     *
     * @throws AssayException {@code run.not_resumable} when the store no longer has them
     */
    public static Suite suite(Store store, Run run) {
        CaseSetSnapshot snapshot = store.findCaseSet(run.caseSetVersion())
                .orElseThrow(() -> new AssayException(Problem.of(
                                "run.not_resumable",
                                "run " + run.runId() + " cannot be continued with its stored cases: the database "
                                        + "does not hold them")
                        .withDetail("run_id", run.runId())));
        Suite stored = SuiteSnapshots.fromJson(snapshot.content());
        var cases = new ArrayList<>(stored.cases());
        store.forEachCaseSetCase(run.caseSetVersion(), json -> cases.add(SuiteSnapshots.caseFromJson(json)));
        // A suite's cases are stored once per version, as the first run of that version selected them: another
        // selection of the same files is not this run's cases.
        if (EvalSpec.of(run).itemCount(cases.size()) != run.counts().total()) {
            throw new AssayException(Problem.of(
                            "run.not_resumable",
                            "run " + run.runId() + " cannot be continued with its stored cases: the database holds "
                                    + cases.size() + " case(s) of its suite as another run selected them, and this run "
                                    + "has " + run.counts().total() + " item(s)")
                    .withDetail("run_id", run.runId()));
        }
        return stored.withCases(cases);
    }

    private static List<String> listed(List<String> ids) {
        return ids.subList(0, Math.min(LISTED, ids.size()));
    }
}
