package dev.assay.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.Problem;
import dev.assay.result.Counts;
import dev.assay.result.RunStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThresholdTest {
    private static Evaluation evaluation(
            RunStatus status, Counts counts, Double total, Map<String, Double> dimensions) {
        return new Evaluation("run", status, counts, total, dimensions, List.of(), List.of(), null);
    }

    private static final Counts JUDGED = new Counts(4, 3, 1, 0, 0, 0, 0);

    @Test
    void a_run_that_reaches_every_minimum_meets_the_threshold() {
        var run = evaluation(RunStatus.FINISHED, JUDGED, 0.8, Map.of("tool_use", 0.7));

        assertThat(Threshold.total(0.8).dimension("tool_use", 0.7).check(run)).isEmpty();
    }

    @Test
    void each_missed_minimum_is_one_failure() {
        var run = evaluation(RunStatus.FINISHED, JUDGED, 0.5, Map.of("tool_use", 0.6));

        assertThat(Threshold.total(0.8).dimension("tool_use", 0.7).check(run))
                .containsExactly(
                        new Threshold.Failure.Below("total", 0.8, 0.5),
                        new Threshold.Failure.Below("tool_use", 0.7, 0.6));
    }

    @Test
    void a_dimension_without_a_score_misses_its_minimum() {
        var run = evaluation(RunStatus.FINISHED, JUDGED, 1.0, Map.of());

        assertThat(Threshold.finished().dimension("tool_use", 0.0).check(run))
                .containsExactly(new Threshold.Failure.Below("tool_use", 0.0, null));
    }

    @Test
    void a_run_that_did_not_finish_meets_no_threshold() {
        Problem error = Problem.of("store.unavailable", "the database went away");
        var run = new Evaluation("run", RunStatus.INTERRUPTED, JUDGED, 1.0, Map.of(), List.of(), List.of(), error);

        assertThat(Threshold.finished().check(run))
                .containsExactly(new Threshold.Failure.RunNotFinished(RunStatus.INTERRUPTED, error));
    }

    @Test
    void a_run_whose_judged_cases_all_ended_in_error_measured_nothing() {
        var run = evaluation(RunStatus.FINISHED, new Counts(2, 0, 0, 0, 1, 1, 0), 0.0, Map.of());

        assertThat(Threshold.finished().check(run)).containsExactly(new Threshold.Failure.NothingMeasured(1));
    }

    @Test
    void a_minimum_must_be_a_number_not_below_zero() {
        assertThatThrownBy(() -> Threshold.total(-0.1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Threshold.total(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_threshold_describes_itself_in_one_line() {
        assertThat(Threshold.total(0.8).dimension("tool_use", 0.7).describe())
                .isEqualTo("total ≥ 0.8000, tool_use ≥ 0.7000");
    }
}
