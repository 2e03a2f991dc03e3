package dev.assay.api;

import dev.assay.Problem;
import dev.assay.report.RunReport;
import dev.assay.result.Counts;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What a run of {@link Assay#run()} did: its outcome, scores and every case. Immutable.
 *
 * @param runId the run's id in the database it was stored in
 * @param status finished, or failed, cancelled or interrupted when the run did not end on its own
 * @param counts the cases by outcome
 * @param totalScore the weighted total in [0, 1]; null when nothing was scored
 * @param dimensionScores dimension to score in [0, 1]; a dimension with no scored case is absent
 * @param cases every case in the order of the run's selection
 * @param reportFiles the reports written ({@link Assay#reports}); empty when none were asked for
 * @param error why the run failed or was interrupted; null otherwise
 */
public record Evaluation(
        String runId,
        RunStatus status,
        Counts counts,
        Double totalScore,
        Map<String, Double> dimensionScores,
        List<CaseResult> cases,
        List<Path> reportFiles,
        Problem error) {
    public Evaluation {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(counts, "counts");
        dimensionScores = Collections.unmodifiableMap(new LinkedHashMap<>(dimensionScores));
        cases = List.copyOf(cases);
        reportFiles = List.copyOf(reportFiles);
    }

    static Evaluation of(RunReport report, List<Path> reportFiles) {
        Run run = report.run();
        return new Evaluation(
                run.runId(),
                run.status(),
                run.counts(),
                run.totalScore(),
                run.dimensionScores(),
                report.briefItems().stream().map(CaseResult::of).toList(),
                reportFiles,
                run.error());
    }

    /** {@return the cases that did not pass (failed, partial, error; skipped and cancelled ones too)} */
    public List<CaseResult> notPassed() {
        return cases.stream().filter(result -> !result.passed()).toList();
    }

    /**
     * Throws when the evaluation misses the threshold, listing every failure.
     *
     * @throws AssertionError with one line per {@link Threshold.Failure}, so a test framework reports a failed test
     */
    public void assertMeets(Threshold threshold) {
        List<Threshold.Failure> failures = threshold.check(this);
        if (!failures.isEmpty()) {
            throw new AssertionError("run " + runId + " misses " + threshold.describe() + ":\n  "
                    + failures.stream().map(Threshold.Failure::message).collect(Collectors.joining("\n  ")));
        }
    }
}
