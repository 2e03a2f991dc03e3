package dev.assay.result;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A trial id is a case and a sample; its string form is the id items have always been stored under. */
class TrialIdTest {
    @Test
    void a_sample_is_stored_as_case_hash_k_and_read_back_from_its_position() {
        var trial = new TrialId("math-1", 3);

        assertThat(trial.toString()).isEqualTo("math-1#3");
        // Item 6 of a run of 4 samples per case is sample 6 % 4 + 1 = 3.
        assertThat(TrialId.stored("math-1#3", 6, 4)).isEqualTo(trial);
        assertThat(TrialId.stored("a#b#2", 1, 2)).isEqualTo(new TrialId("a#b", 2));
        // The position, not the id, tells the sample: a case whose own id ends in a number keeps it.
        assertThat(TrialId.stored("step#1#2", 3, 2)).isEqualTo(new TrialId("step#1", 2));
    }

    @Test
    void in_a_run_of_one_sample_per_case_the_id_is_the_case_whatever_it_holds() {
        assertThat(new TrialId("issue#12", 0).toString()).isEqualTo("issue#12");
        assertThat(TrialId.stored("issue#12", 11, 1)).isEqualTo(new TrialId("issue#12", 0));
        assertThat(TrialId.stored("tag#x", 0, 3)).isEqualTo(new TrialId("tag#x", 0));
        assertThat(TrialId.stored("#1", 0, 3)).isEqualTo(new TrialId("#1", 0));
    }
}
