package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AssayHomeTest {
    @Test
    void assay_home_names_it() {
        assertThat(AssayHome.of(Map.of("ASSAY_HOME", "/srv/assay", "HOME", "/home/ci")))
                .isEqualTo(Path.of("/srv/assay"));
    }

    @Test
    void otherwise_it_is_dot_assay_in_the_home_the_environment_names_as_in_the_shell() {
        assertThat(AssayHome.of(Map.of("HOME", "/home/ci"))).isEqualTo(Path.of("/home/ci/.assay"));
        assertThat(AssayHome.of(Map.of("ASSAY_HOME", " ", "HOME", "/home/ci"))).isEqualTo(Path.of("/home/ci/.assay"));
    }

    @Test
    void without_a_home_in_the_environment_it_is_in_the_accounts_home() {
        assertThat(AssayHome.of(Map.of())).isEqualTo(Path.of(System.getProperty("user.home"), ".assay"));
    }
}
