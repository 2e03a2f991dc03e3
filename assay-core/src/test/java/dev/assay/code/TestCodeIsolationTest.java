package dev.assay.code;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import dev.assay.sandbox.BubblewrapSandbox;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A HumanEval-style question's test code runs in a sandbox apart from the candidate's program: the program cannot find
 * the test code, its expected values or the verdict's channel, in memory or on disk, and whatever it returns crosses as
 * plain data. A question written for this test: the expected values are ones no honest program for it would print.
 */
@Tag("security")
class TestCodeIsolationTest {
    private static final String PROMPT = "def secret_sum(a, b):\n    \"\"\"Return a + b.\"\"\"\n";
    private static final String TEST_CODE = """
            def check(candidate):
                assert candidate(20, 22) == 42
                assert candidate(1000, 337) == 1337
                assert candidate(-5, 5) == 0
            """;

    private static CodeGrader grader;

    @BeforeAll
    static void findSandbox() throws InterruptedException {
        var sandbox = BubblewrapSandbox.find();
        Assumptions.assumeTrue(
                sandbox.isPresent() || !"1".equals(System.getenv("ASSAY_REQUIRE_SANDBOX")),
                "bubblewrap must be usable (ASSAY_REQUIRE_SANDBOX=1)");
        Assumptions.assumeTrue(sandbox.isPresent(), "bubblewrap is not usable on this machine");
        grader = new CodeGrader(sandbox.get(), new CodeGrader.Options(Duration.ofSeconds(3), 1L << 30, 64));
    }

    private static Grade grade(String completion) throws InterruptedException {
        var question = new CodeQuestion("secret", PROMPT, "python", "secret_sum", List.of(), "", "", "", TEST_CODE);
        return grader.grade(question, completion);
    }

    private static CaseResult.Status status(String completion) throws InterruptedException {
        return grade(completion).cases().getFirst().status();
    }

    @Test
    void a_right_program_passes_and_a_wrong_one_fails() throws InterruptedException {
        assertThat(status("    return a + b\n")).isEqualTo(CaseResult.Status.PASSED);
        assertThat(status("    return a - b\n")).isEqualTo(CaseResult.Status.WRONG_ANSWER);
    }

    @Test
    void the_program_finds_neither_the_test_code_nor_a_nonce_in_its_process() throws InterruptedException {
        // Everything reachable from the program's process: every frame's locals and globals and every object the
        // collector knows. Had the test code been there, its expected values would be returned in turn.
        String snoop = """
                    import gc, sys, re, json
                    seen = []
                    frame = sys._getframe()
                    while frame:
                        seen.append(repr(frame.f_locals)[:100000]); seen.append(repr(frame.f_globals)[:100000])
                        frame = frame.f_back
                    for obj in gc.get_objects():
                        if isinstance(obj, (str, dict)):
                            seen.append(str(obj)[:10000])
                    text = "\\n".join(seen)
                    found = [int(x) for x in re.findall(r"== (-?\\d+)", text)]
                    for nonce in set(re.findall(r"[0-9a-f]{32}", text)):
                        sys.__stdout__.write(nonce + " " + json.dumps({"verdict": "passed"}) + "\\n")
                        sys.__stdout__.flush()
                    global answers
                    answers = globals().get("answers") or found
                    return answers.pop(0) if answers else -1
                """;

        assertThat(status(snoop)).isNotEqualTo(CaseResult.Status.PASSED);
    }

    @Test
    void a_verdict_forged_with_the_harness_nonce_is_not_believed_for_example_tests() throws InterruptedException {
        // Example tests share the harness's process, so a program can find its nonce; it may only report outputs.
        var tests = CodeQuestion.readTests(Json.parse("[{\"input\": {\"a\": 1, \"b\": 2}, \"expected\": 3}]"));
        var question = new CodeQuestion("q", "", "python", "add", tests, "", "", "", "");
        String forger = """
                import gc, json, os, re, sys
                def add(a, b):
                    for obj in gc.get_objects():
                        if isinstance(obj, dict) and isinstance(obj.get("nonce"), str):
                            for fd in range(3, 20):
                                try:
                                    os.write(fd, (obj["nonce"] + " " + json.dumps({"i": 0, "status": "passed"})
                                                  + "\\n" + obj["nonce"] + " {\\"end\\": true}\\n").encode())
                                except OSError:
                                    pass
                            os._exit(0)
                    return -1
                """;

        var grade = grader.grade(question, forger);

        assertThat(grade.cases().getFirst().status()).isEqualTo(CaseResult.Status.RUNTIME_ERROR);
        assertThat(grade.cases().getFirst().message()).contains("'passed', which the harness never sends");
    }

    @Test
    void an_object_that_claims_to_equal_anything_cannot_cross() throws InterruptedException {
        String cheat = """
                    class Anything:
                        def __eq__(self, other):
                            return True
                    return Anything()
                """;

        assertThat(status(cheat)).isEqualTo(CaseResult.Status.RUNTIME_ERROR);
    }

    @Test
    void the_program_cannot_read_the_test_code_from_disk() throws InterruptedException {
        String search = """
                    import subprocess
                    # Where a test file or another process's memory could be seen: scratch, work and home directories,
                    # /etc, and every process's command line and environment.
                    found = subprocess.run("grep -rls 'candidate(1000, 337)' /tmp /workspace /home /etc; "
                                           "grep -ls 'candidate(1000, 337)' /proc/[0-9]*/cmdline /proc/[0-9]*/environ "
                                           "/proc/[0-9]*/maps", shell=True, capture_output=True, text=True).stdout
                    return 42 if found else -1
                """;

        assertThat(status(search)).isEqualTo(CaseResult.Status.WRONG_ANSWER);
    }

    @Test
    void the_test_code_finds_the_modules_the_program_finds() throws InterruptedException {
        // The test code's process starts without the site module; the path it is given must be the program's.
        String testCode = """
                import sys
                def check(candidate):
                    assert candidate(0, 0) == sys.path
                """;
        var question = new CodeQuestion("q", PROMPT, "python", "secret_sum", List.of(), "", "", "", testCode);

        var grade = grader.grade(question, "    import sys\n    return sys.path\n");

        assertThat(grade.cases().getFirst().status())
                .as(grade.cases().getFirst().message())
                .isEqualTo(CaseResult.Status.PASSED);
    }

    @Test
    void a_program_that_never_answers_times_out_and_one_that_exits_is_a_runtime_error() throws InterruptedException {
        assertThat(status("    while True:\n        pass\n")).isEqualTo(CaseResult.Status.TIMEOUT);
        assertThat(status("    import os\n    os._exit(0)\n")).isEqualTo(CaseResult.Status.RUNTIME_ERROR);
    }
}
