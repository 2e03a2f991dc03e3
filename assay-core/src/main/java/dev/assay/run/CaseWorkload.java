package dev.assay.run;

import dev.assay.Problem;
import dev.assay.cases.Case;
import dev.assay.cases.SuiteSnapshots;
import dev.assay.cost.Budget;
import dev.assay.cost.ItemCost;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import dev.assay.result.TrialId;
import dev.assay.run.internal.CaseRunner;
import dev.assay.score.Weights;
import dev.assay.store.CaseSetSnapshot;
import dev.assay.store.Store;
import dev.assay.tools.Workspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A capability run as the engine runs it: one item per case, system under test and sample, in selection order, each run
 * and judged by {@link CaseRunner} in a workspace of its own ({@code <workspace root>/<run id>/<seq>_<case id>}), kept
 * or deleted as the run's {@link WorkspacePolicy} says. Thread-safe.
 *
 * @param plan the cases, the system under test, the settings and the checkers the cases name
 */
public record CaseWorkload(RunPlan plan) implements Workload {

    public CaseWorkload {
        Objects.requireNonNull(plan, "plan");
    }

    @Override
    public String requestedRunId() {
        return plan.config().runId();
    }

    @Override
    public void register(Store store, Instant started) {
        // A suite's snapshot is written once: for a large suite it is tens of megabytes, not worth making again.
        if (store.hasCaseSet(plan.suite().version())) {
            return;
        }
        store.saveCaseSet(
                new CaseSetSnapshot(
                        plan.suite().version(),
                        plan.suite().name(),
                        plan.suite().cases().size(),
                        SuiteSnapshots.withoutCases(plan.suite()),
                        started),
                SuiteSnapshots.caseDocuments(plan.suite()));
    }

    @Override
    public Optional<Problem> resumeRefusal(Store store, Run stored) {
        return StoredCases.refusal(store, stored, plan.suite());
    }

    @Override
    public Run newRun(String runId, Instant started) {
        return new Run(
                runId,
                RunKind.CAPABILITY,
                plan.config().userId(),
                plan.subject().name(),
                plan.config().language(),
                RunStatus.RUNNING,
                plan.suite().name(),
                plan.suite().version(),
                plan.config().spec().toJson(),
                plan.subject().toolNames().stream().sorted().toList(),
                Map.of(),
                null,
                Counts.of(itemCount(), List.of()),
                started,
                null,
                0,
                null);
    }

    @Override
    public int itemCount() {
        return plan.config().itemCount(plan.suite().cases().size());
    }

    @Override
    public int concurrency() {
        return Math.max(1, Math.min(plan.config().concurrency(), plan.subject().maxConcurrency()));
    }

    @Override
    public Weights weights() {
        return plan.config().weights();
    }

    /** The extra metrics its description names: a resumed run computes those it was started with. */
    @Override
    public List<String> metrics() {
        return plan.config().spec().scoring().metrics();
    }

    /** The plug-ins made for the run when it was prepared. */
    @Override
    public RunPlugins plugins() {
        return plan.plugins();
    }

    /** The limits its spec holds: a resumed run's, as the front end set them for this continuation. */
    @Override
    public Budget budget() {
        return plan.config().spec().limits().budget();
    }

    @Override
    public Optional<HeadToHead> headToHead() {
        return HeadToHead.of(plan.config().spec(), plan.suite().cases().size());
    }

    @Override
    public WorkItem item(int seq) {
        // Read once: past the in-memory limit each read of a case is a read of the suite's scratch file and a parse.
        Case bound = boundCase(seq);
        int samples = plan.config().samples();
        TrialId trial = new TrialId(bound.id(), samples == 1 ? 0 : seq % samples + 1);
        Case evalCase = trial.sample() == 0 ? bound : bound.withId(trial.toString());
        return new WorkItem(evalCase.id(), evalCase.prompt(), context -> {
            var runner =
                    new CaseRunner(plan.checkers(), context.subjectThreads(), context.responses(), context.observer());
            Item ran = runner.run(
                    context.runId(),
                    seq,
                    evalCase,
                    plan,
                    Map.of("run_id", context.runId(), "user_id", plan.config().userId()),
                    caseDirectory(context.runId(), seq, evalCase.id()),
                    context.log(),
                    context.cancelled());
            // Priced as the model that answered it, one of several.
            return ItemCost.withCost(
                    ran.withTrial(trial),
                    plan.subject().labelled(evalCase.subjectLabel()).model(),
                    plan.config().spec().limits().prices());
        });
    }

    @Override
    public void stored(Item item) {
        boolean keep = switch (plan.config().workspacePolicy()) {
            case KEEP_ALL -> true;
            case KEEP_NONE -> false;
            case KEEP_ON_FAILURE ->
                item.status() != ItemStatus.PASSED
                        && item.status() != ItemStatus.SKIPPED
                        && item.status() != ItemStatus.CANCELLED;
        };
        if (!keep) {
            Workspace.deleteTree(caseDirectory(item.runId(), item.seq(), item.caseId()));
        }
    }

    /** Removes the run's workspace directory when no case left anything in it. */
    @Override
    public Run conclude(Run ended, Store store) {
        Path directory = plan.config().workspaceRoot().resolve(ended.runId());
        try (Stream<Path> entries = Files.list(directory)) {
            if (entries.findAny().isEmpty()) {
                Files.deleteIfExists(directory);
            }
        } catch (IOException ignored) {
            // Nothing was created, or something is left for inspection: either way nothing to do.
        }
        return ended;
    }

    /**
     * {@return the case of item {@code seq}}: with several systems under test, the case bound to each in turn; with
     * several samples, each case's samples are consecutive items, item {@code seq} being sample {@code seq % samples +
     * 1}
     */
    private Case boundCase(int seq) {
        int samples = plan.config().samples();
        List<String> labels = plan.config().spec().subjectLabels();
        int perCase = samples * Math.max(1, labels.size());
        Case base = plan.suite().cases().get(seq / perCase);
        return labels.isEmpty() ? base : base.boundTo(labels.get(seq % perCase / samples));
    }

    private Path caseDirectory(String runId, int seq, String itemId) {
        return Engine.caseDirectory(plan.config().workspaceRoot(), runId, seq, itemId);
    }
}
