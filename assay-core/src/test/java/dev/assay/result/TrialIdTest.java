package dev.assay.result;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A trial id is a case and a sample; its string form is the id items have always been stored under. */
class TrialIdTest {
    @Test
    void a_sample_is_stored_as_case_hash_k_and_read_back() {
        var trial = new TrialId("math-1", 3);

        assertThat(trial.toString()).isEqualTo("math-1#3");
        assertThat(TrialId.parse("math-1#3", 4)).isEqualTo(trial);
        assertThat(TrialId.parse("a#b#2", 2)).isEqualTo(new TrialId("a#b", 2));
    }

    @Test
    void in_a_run_of_one_sample_per_case_the_id_is_the_case_whatever_it_holds() {
        assertThat(new TrialId("issue#12", 0).toString()).isEqualTo("issue#12");
        assertThat(TrialId.parse("issue#12", 1)).isEqualTo(new TrialId("issue#12", 0));
        assertThat(TrialId.parse("tag#x", 3)).isEqualTo(new TrialId("tag#x", 0));
        assertThat(TrialId.parse("#", 3)).isEqualTo(new TrialId("#", 0));
    }
}
