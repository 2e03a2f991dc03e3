package dev.assay.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SandboxLimitsTest {
    @Test
    void the_disk_limits_default_to_sizes_eight_sandboxes_at_once_can_hold() {
        assertThat(SandboxLimits.mebibytes(Map.of(), SandboxLimits.TMP_ENV, SandboxLimits.DEFAULT_TMP_BYTES))
                .isEqualTo(256L << 20);
        assertThat(SandboxLimits.DEFAULT_WORKSPACE_BYTES).isEqualTo(512L << 20);
    }

    @Test
    void an_environment_variable_sets_a_disk_limit_in_mebibytes() {
        assertThat(SandboxLimits.mebibytes(Map.of(SandboxLimits.WORKSPACE_ENV, " 40 "), SandboxLimits.WORKSPACE_ENV, 1))
                .isEqualTo(40L << 20);
    }

    @Test
    void a_disk_limit_that_is_no_positive_size_is_a_problem_naming_the_variable() {
        for (String bad : new String[] {"0", "-5", "1.5", "lots", "99999999999999999999"}) {
            assertThatThrownBy(
                            () -> SandboxLimits.mebibytes(Map.of(SandboxLimits.TMP_ENV, bad), SandboxLimits.TMP_ENV, 1))
                    .as(bad)
                    .isInstanceOfSatisfying(AssayException.class, e -> {
                        assertThat(e.problem().type()).isEqualTo("sandbox.bad_limit");
                        assertThat(e.problem().details()).containsEntry("variable", SandboxLimits.TMP_ENV);
                    });
        }
    }
}
