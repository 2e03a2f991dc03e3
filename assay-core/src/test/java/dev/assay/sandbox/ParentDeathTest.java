package dev.assay.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A started command dies with Assay (the kernel's parent-death signal), and only then: not when the thread that asked
 * for it ends, as a virtual thread's carrier does after idling. That Assay's death ends it is shown by
 * {@code KilledEnvironmentRunTest} (assay-cli), which kills a whole run.
 */
class ParentDeathTest {
    @TempDir
    Path work;

    @Test
    void an_unsandboxed_command_outlives_the_thread_that_started_it() throws Exception {
        assertOutlivesItsStarter(new UnsandboxedSandbox());
    }

    @Test
    void a_bubblewrapped_command_outlives_the_thread_that_started_it() throws Exception {
        assertOutlivesItsStarter(SandboxAvailability.require());
    }

    private void assertOutlivesItsStarter(Sandbox sandbox) throws Exception {
        var started = new AtomicReference<SandboxProcess>();
        Thread starter = Thread.ofPlatform()
                .start(() -> started.set(sandbox.start(new SandboxRequest(
                        List.of("/bin/sh", "-c", "echo started; read line; echo \"got $line\""),
                        work,
                        Map.of(),
                        "",
                        null))));
        starter.join();
        try (SandboxProcess process = started.get();
                var lines = new BufferedReader(new InputStreamReader(process.stdout(), StandardCharsets.UTF_8))) {
            assertThat(lines.readLine()).isEqualTo("started");
            // The starter's thread has ended; a signal bound to it would have come by now.
            Thread.sleep(300);

            process.stdin().write("still here\n".getBytes(StandardCharsets.UTF_8));
            process.stdin().flush();

            assertThat(lines.readLine()).isEqualTo("got still here");
        }
    }
}
