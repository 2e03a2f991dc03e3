package dev.assay.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RuntimesTest {
    @TempDir
    Path temp;

    @Test
    void a_runtime_whose_directory_holds_the_home_the_environment_names_is_not_shown() throws Exception {
        Path prefix = Files.createDirectories(temp.resolve("opt"));
        Path home = Files.createDirectories(prefix.resolve("ci-home"));

        assertThat(Runtimes.showable(prefix, Map.of())).isTrue();
        assertThat(Runtimes.showable(prefix, Map.of("HOME", home.toString()))).isFalse();
        assertThat(Runtimes.showable(prefix, Map.of("ASSAY_HOME", home.toString())))
                .isFalse();
        // A runtime beside the home, not above it, shows nothing of it.
        assertThat(Runtimes.showable(Files.createDirectories(temp.resolve("usr")), Map.of("HOME", home.toString())))
                .isTrue();
    }
}
