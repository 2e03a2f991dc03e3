package dev.assay.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import org.junit.jupiter.api.Test;

/** Accuracy, Cohen's kappa and their intervals against values worked out by hand. */
class AgreementTest {
    /**
     * 50 checks: both pass 20, judge pass / people fail 5, judge fail / people pass 10, both fail 15. po = 35/50 = 0.7;
     * the judge passes 25/50 = 0.5, people 30/50 = 0.6, so pe = 0.5 * 0.6 + 0.5 * 0.4 = 0.5 and kappa = (0.7 - 0.5) /
     * (1 - 0.5) = 0.4. SE = sqrt(0.7 * 0.3 / (50 * 0.5^2)) = sqrt(0.0168) = 0.129614814; kappa ± 1.959964 SE =
     * [0.145960, 0.654040]. Wilson for 35 of 50: centre (0.7 + z²/100) / (1 + z²/50), half-width z / (1 + z²/50) *
     * sqrt(0.21/50 + z²/10000) = [0.562496, 0.808964] (the published interval for 35/50).
     */
    private static final Agreement WORKED = new Agreement(20, 5, 10, 15);

    @Test
    void accuracy_and_its_wilson_interval_match_the_hand_computation() {
        assertThat(WORKED.n()).isEqualTo(50);
        assertThat(WORKED.accuracy()).isEqualTo(0.7, offset(1e-12));
        assertThat(WORKED.accuracyInterval()[0]).isEqualTo(0.562496495355466, offset(1e-9));
        assertThat(WORKED.accuracyInterval()[1]).isEqualTo(0.8089644649911906, offset(1e-9));
    }

    @Test
    void kappa_and_its_interval_match_the_hand_computation() {
        assertThat(WORKED.kappa()).isEqualTo(0.4, offset(1e-12));
        assertThat(WORKED.kappaStandardError()).isEqualTo(0.1296148139681572, offset(1e-12));
        assertThat(WORKED.kappaInterval()[0]).isEqualTo(0.14595963275955282, offset(1e-9));
        assertThat(WORKED.kappaInterval()[1]).isEqualTo(0.6540403672404472, offset(1e-9));
    }

    @Test
    void pairs_add_up_into_the_matrix() {
        Agreement built = new Agreement(0, 0, 0, 0)
                .plus(true, true)
                .plus(true, false)
                .plus(false, true)
                .plus(false, false)
                .plus(false, false);
        assertThat(built).isEqualTo(new Agreement(1, 1, 1, 2));
        // po = 3/5, judge passes 2/5, people 2/5: pe = 0.16 + 0.36 = 0.52, kappa = 0.08 / 0.48 = 1/6.
        assertThat(built.kappa()).isEqualTo(1.0 / 6, offset(1e-12));
    }

    @Test
    void perfect_agreement_is_kappa_one_and_no_variation_leaves_kappa_undefined() {
        assertThat(new Agreement(3, 0, 0, 2).kappa()).isEqualTo(1.0, offset(1e-12));
        assertThat(new Agreement(4, 0, 0, 0).kappa()).isNaN();
        assertThat(new Agreement(0, 0, 0, 0).accuracy()).isNaN();
    }
}
