package dev.assay.junit;

import dev.assay.api.Assay;
import dev.assay.api.CaseResult;
import dev.assay.api.Evaluation;
import dev.assay.api.Threshold;
import dev.assay.result.RunStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;

/**
 * An evaluation as JUnit 5 dynamic tests: a container per dimension holding a test per case, named by the case's id, so
 * IDEs and Surefire reports list every case. A passed case passes; a failed, partial or errored case fails with its
 * reasons (the checker's message, or the error); a skipped or cancelled case is aborted, which JUnit reports as
 * skipped. With a {@link Threshold}, one more test holds the run to it.
 *
 * <pre>{@code
 * @TestFactory
 * Stream<DynamicNode> suite() throws InterruptedException {
 *     return AssayTests.run(Assay.suite(Path.of("src/test/assay")).model("openai:gpt-4o-mini"), Threshold.total(0.8));
 * }
 * }</pre>
 *
 * Stateless and thread-safe.
 */
public final class AssayTests {
    /** The name of the threshold's test, and of the run's test when it did not finish. */
    public static final String THRESHOLD_TEST = "threshold";

    private AssayTests() {}

    /**
     * {@return a test per case of the evaluation, grouped by dimension}; when the run did not finish, a first test
     * fails with the reason, so an interrupted run cannot pass on the cases it finished
     */
    public static Stream<DynamicNode> of(Evaluation evaluation) {
        var nodes = new ArrayList<DynamicNode>();
        if (evaluation.status() != RunStatus.FINISHED) {
            nodes.add(DynamicTest.dynamicTest(
                    "run " + evaluation.runId(), () -> evaluation.assertMeets(Threshold.finished())));
        }
        var byDimension = new LinkedHashMap<String, List<DynamicNode>>();
        for (CaseResult result : evaluation.cases()) {
            byDimension
                    .computeIfAbsent(result.dimension(), dimension -> new ArrayList<>())
                    .add(DynamicTest.dynamicTest(result.id(), () -> check(result)));
        }
        byDimension.forEach((dimension, tests) -> nodes.add(
                DynamicContainer.dynamicContainer(dimension.isEmpty() ? "(no dimension)" : dimension, tests)));
        return nodes.stream();
    }

    /** {@return a test per case, as {@link #of(Evaluation)}, then a test holding the run to the threshold} */
    public static Stream<DynamicNode> of(Evaluation evaluation, Threshold threshold) {
        DynamicTest thresholdTest = DynamicTest.dynamicTest(
                THRESHOLD_TEST + ": " + threshold.describe(), () -> evaluation.assertMeets(threshold));
        return Stream.concat(of(evaluation), Stream.of(thresholdTest));
    }

    /**
     * {@return the tests of {@link #of(Evaluation, Threshold)} for the run, which runs now}: the test factory runs the
     * suite, then JUnit runs the tests, which read the finished evaluation
     *
     * @throws dev.assay.AssayException when the run cannot start (an invalid suite, a missing API key): the factory
     *     fails, and JUnit reports that
     */
    public static Stream<DynamicNode> run(Assay assay, Threshold threshold) throws InterruptedException {
        return of(assay.run(), threshold);
    }

    private static void check(CaseResult result) {
        String reasons = String.join("\n", result.reasons());
        switch (result.status()) {
            case PASSED -> {}
            case FAILED, PARTIAL, ERROR ->
                Assertions.fail(result.id() + " " + result.status().wireName() + " (score " + result.score() + ")"
                        + (reasons.isEmpty() ? "" : ": " + reasons));
            case SKIPPED, CANCELLED ->
                Assumptions.abort(
                        result.id() + " " + result.status().wireName() + (reasons.isEmpty() ? "" : ": " + reasons));
        }
    }
}
