package dev.assay.junit;

import dev.assay.api.CaseResult;
import dev.assay.api.Evaluation;
import dev.assay.api.Threshold;
import dev.assay.result.Counts;
import dev.assay.result.ItemStatus;
import dev.assay.result.RunStatus;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * A test factory over an evaluation with one case of each kind, run by {@link AssayTestsTest} through JUnit's test kit.
 * Its name does not end in Test: Surefire must not run it on its own, since its failures are meant.
 */
class KnownEvaluation {
    static final Evaluation EVALUATION = new Evaluation(
            "run-1",
            RunStatus.FINISHED,
            new Counts(3, 1, 1, 0, 1, 0, 0),
            0.5,
            Map.of("knowledge", 1.0, "arithmetic", 0.0),
            List.of(
                    new CaseResult("capital", "knowledge", ItemStatus.PASSED, 1.0, List.of(), "Paris"),
                    new CaseResult(
                            "sum", "arithmetic", ItemStatus.FAILED, 0.0, List.of("exact: expected 5, got 6"), "6"),
                    new CaseResult(
                            "weather",
                            "knowledge",
                            ItemStatus.SKIPPED,
                            0.0,
                            List.of("case.missing_tools: weather@forecast is not offered"),
                            "")),
            List.of(),
            null);

    @TestFactory
    Stream<DynamicNode> cases() {
        return AssayTests.of(EVALUATION, Threshold.total(0.8));
    }
}
