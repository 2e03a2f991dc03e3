package dev.assay.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.testing.TestSpecs;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RunConfigTest {
    private static final RunConfig DEFAULTS = TestSpecs.config(Path.of("work"));

    @Test
    void a_run_id_that_would_leave_the_workspace_root_is_refused() {
        assertThatThrownBy(() -> DEFAULTS.withRunId("../outside")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DEFAULTS.withRunId("..")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_generated_style_run_id_is_accepted() {
        assertThat(DEFAULTS.withRunId("0123456789abcdef0123456789abcdef").runId())
                .isEqualTo("0123456789abcdef0123456789abcdef");
    }
}
