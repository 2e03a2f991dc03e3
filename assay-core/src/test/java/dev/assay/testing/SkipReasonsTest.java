package dev.assay.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

class SkipReasonsTest {
    /** Run by the test below, not by Surefire (a nested class is no test class of its own). */
    static class Example {
        @Test
        void runs() {}

        @Test
        void assumes() {
            Assumptions.assumeTrue(false, "no PostgreSQL at 127.0.0.1:5432");
        }

        @Test
        void also_assumes() {
            Assumptions.assumeTrue(false, "no PostgreSQL at 127.0.0.1:5432");
        }

        @Test
        @Disabled("switched off for a reason")
        void disabled() {}
    }

    @Test
    void each_reason_for_skipping_is_printed_once_with_its_tests_when_the_tests_have_run() {
        var printed = new ByteArrayOutputStream();
        var launcher = LauncherFactory.create(LauncherConfig.builder()
                .enableTestExecutionListenerAutoRegistration(false)
                .build());

        launcher.execute(
                LauncherDiscoveryRequestBuilder.request()
                        .selectors(DiscoverySelectors.selectClass(Example.class))
                        .build(),
                new SkipReasons(new PrintStream(printed, true, StandardCharsets.UTF_8)));

        String text = printed.toString(StandardCharsets.UTF_8);
        assertThat(text)
                .containsOnlyOnce("no PostgreSQL at 127.0.0.1:5432")
                .contains("2 skipped: no PostgreSQL", "Example.assumes", "Example.also_assumes")
                .contains("1 skipped: switched off for a reason", "Example.disabled")
                .doesNotContain("Example.runs", "Assumption failed");
    }
}
