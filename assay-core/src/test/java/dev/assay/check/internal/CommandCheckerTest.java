package dev.assay.check.internal;

import static dev.assay.check.Judge.judge;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.check.Verdict;
import dev.assay.sandbox.Sandboxes;
import dev.assay.transcript.Transcript;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code command}: a command run in the workspace's sandbox after the agent, judged by exit code and output. */
class CommandCheckerTest {
    @TempDir
    Path workspace;

    private Verdict command(String expected) throws InterruptedException {
        boolean bubblewrap = Sandboxes.ISOLATING.find().isPresent();
        if ("1".equals(System.getenv("ASSAY_REQUIRE_SANDBOX"))) {
            assertThat(bubblewrap)
                    .as("bubblewrap must be usable (ASSAY_REQUIRE_SANDBOX=1)")
                    .isTrue();
        }
        Assumptions.assumeTrue(bubblewrap, "bubblewrap is not usable on this machine");
        return judge("command", expected, Transcript.EMPTY, workspace);
    }

    @Test
    void the_expected_exit_code_passes_and_another_fails_with_its_output() throws Exception {
        Files.writeString(
                workspace.resolve("test.sh"),
                "test \"$(cat answer.txt)\" = 42 && echo ok || echo wrong\n" + "test \"$(cat answer.txt)\" = 42\n");
        Files.writeString(workspace.resolve("answer.txt"), "41\n");

        Verdict failed = command("{\"command\": [\"sh\", \"test.sh\"], \"expect_exit\": 0}");
        Files.writeString(workspace.resolve("answer.txt"), "42\n");
        Verdict passed = command("{\"command\": [\"sh\", \"test.sh\"], \"output_contains\": \"ok\"}");

        assertThat(failed.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(failed.errorType()).isEqualTo("command.exit_code");
        assertThat(failed.detail().get("exit_code").asInt()).isEqualTo(1);
        assertThat(failed.detail().get("stdout").asText()).contains("wrong");
        assertThat(failed.detail().get("sandbox").asText()).isEqualTo("bubblewrap");
        assertThat(passed.status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void missing_output_fails_as_output_and_a_string_runs_with_sh() throws Exception {
        Verdict verdict =
                command("{\"command\": \"echo hello; exit 3\", \"expect_exit\": 3, \"output_contains\": \"bye\"}");

        assertThat(verdict.errorType()).isEqualTo("command.output");
        assertThat(verdict.detail().get("exit_code").asInt()).isEqualTo(3);
    }

    @Test
    void an_expectation_without_a_command_is_refused_when_the_suite_loads() {
        assertThatThrownBy(() -> CommandChecker.create(Json.parse("{\"expect_exit\": 0}")))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("check.invalid_expected"));
    }
}
