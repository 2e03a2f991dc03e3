package dev.assay.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.abortedWithReason;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import org.junit.jupiter.api.BeforeAll;
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
    void every_case_and_the_threshold_are_reported() {
        assertThat(tests.started().count()).isEqualTo(4);
    }
}
