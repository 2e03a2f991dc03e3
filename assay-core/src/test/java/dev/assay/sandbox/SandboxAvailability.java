package dev.assay.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Assumptions;

/**
 * Finds bubblewrap for the sandbox tests: they skip with a message where it is not usable, unless
 * {@code ASSAY_REQUIRE_SANDBOX=1} (set by CI), where a missing sandbox fails them instead of hiding them.
 */
final class SandboxAvailability {
    private SandboxAvailability() {}

    static BubblewrapSandbox require() throws InterruptedException {
        BubblewrapSandbox sandbox = BubblewrapSandbox.find().orElse(null);
        if ("1".equals(System.getenv("ASSAY_REQUIRE_SANDBOX"))) {
            assertThat(sandbox)
                    .as("bubblewrap must be usable (ASSAY_REQUIRE_SANDBOX=1)")
                    .isNotNull();
        }
        Assumptions.assumeTrue(sandbox != null, "bubblewrap is not usable on this machine");
        return sandbox;
    }
}
