package dev.assay.code;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.code.internal.Comparison;
import dev.assay.sandbox.BubblewrapSandbox;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A question with many valid answers judges outputs with its own checker, which the program never sees. */
class QuestionCheckerTest {
    private static CodeGrader grader;

    @BeforeAll
    static void sandbox() throws InterruptedException {
        var sandbox = BubblewrapSandbox.find();
        Assumptions.assumeTrue(sandbox.isPresent(), "bubblewrap is not usable on this machine");
        grader = new CodeGrader(sandbox.get(), new CodeGrader.Options(Duration.ofSeconds(4), 1L << 30, 64));
    }

    private static final String ANY_PAIR = """
            Given an array nums and an integer target, return the indices of two different elements whose sum is
            target. Any valid pair is accepted.

            Example 1:
            Input: nums = [1,2,3,4], target = 5
            Output: [0,3]

            Example 2:
            Input: nums = [5,5,1], target = 10
            Output: [0,1]
            """;

    private static final String CHECKER = """
            def check(input, output, expected):
                nums, target = input["nums"], input["target"]
                if not (isinstance(output, list) and len(output) == 2):
                    return False, "not a pair of indices"
                i, j = output
                return i != j and 0 <= i < len(nums) and 0 <= j < len(nums) and nums[i] + nums[j] == target
            """;

    private static Grade grade(String checker, String language, String code) throws InterruptedException {
        return grader.grade(new CodeQuestion("q", ANY_PAIR, language, "", List.of(), "", "", "", "", checker), code);
    }

    @Test
    void another_valid_answer_passes_and_an_invalid_one_fails_with_the_checkers_reason() throws InterruptedException {
        var other = grade(CHECKER, "python", """
                class Solution:
                    def anyPair(self, nums, target):
                        for i in reversed(range(len(nums))):
                            for j in range(len(nums)):
                                if i != j and nums[i] + nums[j] == target:
                                    return [i, j]
                """);
        var java = grade(CHECKER, "java", """
                class Solution {
                    public int[] anyPair(int[] nums, int target) {
                        for (int i = nums.length - 1; i >= 0; i--)
                            for (int j = 0; j < nums.length; j++)
                                if (i != j && nums[i] + nums[j] == target) return new int[] {i, j};
                        return null;
                    }
                }
                """);
        var invalid = grade(CHECKER, "python", """
                class Solution:
                    def anyPair(self, nums, target):
                        return [0]
                """);

        assertThat(other.allPassed()).as(other.cases().toString()).isTrue();
        assertThat(other.comparison().mode()).isEqualTo(Comparison.Mode.CHECKER);
        assertThat(java.allPassed()).as(java.cases().toString()).isTrue();
        assertThat(invalid.cases()).allSatisfy(result -> {
            assertThat(result.status()).isEqualTo(CaseResult.Status.WRONG_ANSWER);
            assertThat(result.message()).isEqualTo("not a pair of indices");
        });
    }

    @Test
    void the_program_cannot_see_the_checker_and_a_broken_checker_is_no_pass() throws InterruptedException {
        var looking = grade(CHECKER, "python", """
                import glob, os
                class Solution:
                    def anyPair(self, nums, target):
                        found = [p for root in ("/workspace", "/tmp") for p in glob.glob(root + "/**", recursive=True)
                                 if "verify" in p or "checker" in p]
                        return [0, 1] if found else [9, 9]
                """);
        var broken = grade("def check(input, output, expected):\n    raise ValueError('oops')\n", "python", """
                class Solution:
                    def anyPair(self, nums, target):
                        return [0, 3]
                """);

        assertThat(looking.cases()).extracting(CaseResult::status).containsOnly(CaseResult.Status.WRONG_ANSWER);
        assertThat(broken.cases()).extracting(CaseResult::status).containsOnly(CaseResult.Status.RUNTIME_ERROR);
        assertThat(broken.cases().getFirst().message()).contains("checker failed", "oops");
    }
}
