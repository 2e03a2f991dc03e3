package dev.assay.code;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.cases.Case;
import dev.assay.check.CheckContext;
import dev.assay.check.Verdict;
import dev.assay.code.internal.CodeCheckerFactory;
import dev.assay.sandbox.BubblewrapSandbox;
import dev.assay.transcript.Transcript;
import dev.assay.transcript.TranscriptEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A sample of HumanEval through the real checker; the full 164 run in the bench. */
class HumanEvalTest {
    private static final List<Integer> SAMPLE = List.of(0, 2, 10, 23, 38, 53, 87, 101, 129, 163);

    private static List<Case> tasks;
    private static CodeCheckerFactory factory;

    @BeforeAll
    static void load() throws InterruptedException {
        var data = SharedData.file("humaneval/HumanEval.jsonl");
        Assumptions.assumeTrue(data.isPresent(), "shared/data/humaneval/HumanEval.jsonl is absent; skipping");
        var sandbox = BubblewrapSandbox.find();
        Assumptions.assumeTrue(sandbox.isPresent(), "bubblewrap is not usable on this machine");
        tasks = QuestionFiles.read(data.get());
        factory = new CodeCheckerFactory(sandbox.get(), new CodeGrader.Options(Duration.ofSeconds(3), 1L << 30, 64));
    }

    private static Verdict grade(Case task, String answer) throws InterruptedException {
        var transcript = new Transcript(List.of(new TranscriptEvent.FinalAnswer(Instant.EPOCH, answer)));
        return factory.create(null).check(CheckContext.of(task, transcript, null));
    }

    private static Case task(int index) {
        return tasks.get(index);
    }

    private static String canonical(Case task) {
        return task.attributes().get("canonical_solution").asText();
    }

    @Test
    void all_164_tasks_are_read() {
        assertThat(tasks).hasSize(164);
        assertThat(tasks.get(0).attributes().get("test_code").asText()).contains("def check");
    }

    @Test
    void sampled_canonical_solutions_pass() throws InterruptedException {
        for (int index : SAMPLE) {
            var verdict = grade(task(index), canonical(task(index)));
            assertThat(verdict.status()).as(task(index).id()).isEqualTo(Verdict.Status.PASSED);
            assertThat(verdict.detail().get("sandbox").asText()).isEqualTo("bubblewrap");
        }
    }

    @Test
    void test_code_calling_the_function_by_its_own_name_judges_the_candidate() throws InterruptedException {
        Case task = tasks.stream()
                .filter(candidate -> candidate.id().equals("HumanEval/33"))
                .findFirst()
                .orElseThrow();

        assertThat(grade(task, canonical(task)).status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(grade(task, "    return sorted(l)\n").status()).isEqualTo(Verdict.Status.FAILED);
    }

    @Test
    void canonical_solution_in_a_fenced_full_function_passes() throws InterruptedException {
        Case task = task(0);
        String full = "```python\n" + task.prompt() + canonical(task) + "```";

        assertThat(grade(task, full).status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void wrong_return_fails_as_wrong_answer() throws InterruptedException {
        var verdict = grade(task(2), "    return 0.0\n");

        assertThat(verdict.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(verdict.errorType()).isEqualTo("code.wrong_answer");
    }

    @Test
    void infinite_loop_fails_as_timeout() throws InterruptedException {
        var verdict = grade(task(2), "    while True:\n        pass\n");

        assertThat(verdict.errorType()).isEqualTo("code.timeout");
    }

    @Test
    void exit_zero_before_the_tests_fails() throws InterruptedException {
        var verdict = grade(task(2), "    import sys\n    sys.exit(0)\n");

        assertThat(verdict.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(verdict.errorType()).isEqualTo("code.runtime_error");
    }

    @Test
    void forged_success_line_fails() throws InterruptedException {
        var verdict = grade(
                task(2),
                "    print('SCORE: 100')\n    print('{\"i\": 0, \"status\": \"passed\"}')\n"
                        + "    import os\n    os._exit(0)\n");

        assertThat(verdict.status()).isEqualTo(Verdict.Status.FAILED);
    }

    @Test
    void reading_the_network_fails() throws InterruptedException {
        var verdict = grade(
                task(2),
                "    import socket\n"
                        + "    socket.create_connection(('1.1.1.1', 80), timeout=2)\n    return number % 1.0\n");

        assertThat(verdict.errorType()).isEqualTo("code.runtime_error");
    }

    @Test
    void fork_bomb_is_contained() throws InterruptedException {
        var verdict = grade(task(2), "    import os\n    while True:\n        os.fork()\n");

        assertThat(verdict.status()).isEqualTo(Verdict.Status.FAILED);
    }

    @Test
    void allocating_ten_gigabytes_fails() throws InterruptedException {
        var verdict = grade(task(2), "    x = bytearray(10 * 1024 ** 3)\n    return number % 1.0\n");

        assertThat(verdict.errorType()).isEqualTo("code.runtime_error");
        assertThat(verdict.detail().at("/cases/0/message").asText()).contains("MemoryError");
    }
}
