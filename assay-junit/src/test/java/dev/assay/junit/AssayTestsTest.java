package dev.assay.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.abortedWithReason;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.assay.Problem;
import dev.assay.api.Evaluation;
import dev.assay.result.Counts;
import dev.assay.result.RunStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** Each case of an evaluation is a JUnit test of its own, as an IDE or Surefire sees it. */
class AssayTestsTest {
    private static Events tests;

    @BeforeAll
    static void runTheFactory() {
        tests = EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(KnownEvaluation.class))
                .execute()
                .testEvents();
    }

    @Test
    void a_passed_case_is_a_passed_test_named_by_its_id() {
        tests.assertThatEvents().haveExactly(1, event(test(), displayName("capital"), finishedSuccessfully()));
    }

    @Test
    void a_failed_case_fails_with_its_checker_message() {
        tests.assertThatEvents()
                .haveExactly(
                        1,
                        event(
                                test(),
                                displayName("sum"),
                                finishedWithFailure(message(text -> text.contains("exact: expected 5, got 6")))));
    }

    @Test
    void a_skipped_case_is_an_aborted_test_with_its_reason() {
        tests.assertThatEvents()
                .haveExactly(
                        1,
                        event(
                                test(),
                                displayName("weather"),
                                abortedWithReason(message(text -> text.contains("weather@forecast")))));
    }

    @Test
    void the_threshold_is_a_test_of_its_own_that_fails_when_missed() {
        tests.assertThatEvents()
                .haveExactly(
                        1,
                        event(
                                test(),
                                displayName("threshold: total ≥ 0.8000"),
                                finishedWithFailure(message(text -> text.contains("total 0.5000 < 0.8000")))));
    }

    @Test
    void a_run_that_did_not_finish_fails_a_test_of_its_own_before_its_cases() {
        var interrupted = new Evaluation(
                "run-2",
                RunStatus.INTERRUPTED,
                new Counts(1, 0, 0, 0, 0, 0, 0),
                null,
                Map.of(),
                List.of(),
                List.of(),
                Problem.of("store.unavailable", "the database went away"));

        DynamicNode first = AssayTests.of(interrupted).findFirst().orElseThrow();

        assertThat(first.getDisplayName()).isEqualTo("run run-2");
        assertThatThrownBy(((DynamicTest) first).getExecutable()::execute)
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("store.unavailable");
    }

    @Test
    void every_case_and_the_threshold_are_reported() {
        assertThat(tests.started().count()).isEqualTo(4);
    }
}
