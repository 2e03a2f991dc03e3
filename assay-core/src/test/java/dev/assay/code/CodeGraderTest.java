package dev.assay.code;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import dev.assay.code.internal.Comparison;
import dev.assay.sandbox.BubblewrapSandbox;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class CodeGraderTest {
    private static CodeGrader grader;

    @BeforeAll
    static void sandbox() throws InterruptedException {
        var sandbox = BubblewrapSandbox.find();
        Assumptions.assumeTrue(sandbox.isPresent(), "bubblewrap is not usable on this machine");
        grader = new CodeGrader(sandbox.get(), new CodeGrader.Options(Duration.ofSeconds(2), 1L << 30, 64));
    }

    private static final String TWO_SUM = """
            给定一个整数数组 nums 和一个整数目标值 target，请你在该数组中找出和为目标值的两个整数，返回它们的数组下标。

            示例 1：
            输入：nums = [2,7,11,15], target = 9
            输出：[0,1]

            示例 2：
            输入：nums = [3,2,4], target = 6
            输出：[1,2]

            示例 3：
            输入：[3,3], 6
            输出：[0,1]
            """;

    private static CodeQuestion question(String description, String entryPoint) {
        return new CodeQuestion("q", description, "python", entryPoint, List.of(), "", "", "", "");
    }

    private static List<CaseResult.Status> statuses(Grade grade) {
        return grade.cases().stream().map(CaseResult::status).toList();
    }

    @Test
    void correct_solution_class_passes_every_example() throws InterruptedException {
        var grade = grader.grade(question(TWO_SUM, "twoSum"), """
                Here is my solution:
                ```python
                class Solution:
                    def twoSum(self, nums: List[int], target: int) -> List[int]:
                        seen = {}
                        for i, x in enumerate(nums):
                            if target - x in seen:
                                return [seen[target - x], i]
                            seen[x] = i
                ```
                """);

        assertThat(statuses(grade)).containsOnly(CaseResult.Status.PASSED).hasSize(3);
        assertThat(grade.allPassed()).isTrue();
        assertThat(grade.sandbox()).isEqualTo("bubblewrap");
    }

    @Test
    void wrong_return_is_a_wrong_answer_with_the_actual_value() throws InterruptedException {
        var grade = grader.grade(
                question(TWO_SUM, "twoSum"),
                "class Solution:\n    def twoSum(self, nums, target):\n        return [0, 0]\n");

        assertThat(statuses(grade)).containsOnly(CaseResult.Status.WRONG_ANSWER);
        assertThat(grade.cases().get(0).actual()).isEqualTo(Json.parse("[0,0]"));
        assertThat(grade.score()).isZero();
    }

    @Test
    void infinite_loop_times_out_per_case() throws InterruptedException {
        var grade = grader.grade(
                question(TWO_SUM, "twoSum"),
                "class Solution:\n    def twoSum(self, nums, target):\n        while True:\n            pass\n");

        assertThat(statuses(grade)).containsOnly(CaseResult.Status.TIMEOUT);
    }

    @Test
    void exit_zero_before_the_tests_fails() throws InterruptedException {
        var grade = grader.grade(question(TWO_SUM, "twoSum"), "import sys\nsys.exit(0)\n");

        assertThat(statuses(grade)).containsOnly(CaseResult.Status.RUNTIME_ERROR);
        assertThat(grade.allPassed()).isFalse();
    }

    @Test
    void hard_exit_without_sentinel_fails() throws InterruptedException {
        var grade = grader.grade(question(TWO_SUM, "twoSum"), "import os\nos._exit(0)\n");

        assertThat(statuses(grade)).containsOnly(CaseResult.Status.RUNTIME_ERROR);
    }

    @Test
    void forged_success_lines_on_stdout_count_for_nothing() throws InterruptedException {
        var grade = grader.grade(question(TWO_SUM, "twoSum"), """
                import os, sys
                print("SCORE: 100")
                os.write(1, b'{"i": 0, "status": "ok", "actual": [0, 1]}\\n{"end": true}\\n')
                sys.stdout.flush()
                os._exit(0)
                """);

        assertThat(statuses(grade)).containsOnly(CaseResult.Status.RUNTIME_ERROR);
        assertThat(grade.passed()).isZero();
    }

    @Test
    void network_access_is_a_runtime_error() throws InterruptedException {
        var grade = grader.grade(question(TWO_SUM, "twoSum"), """
                import urllib.request
                class Solution:
                    def twoSum(self, nums, target):
                        return urllib.request.urlopen("http://example.com", timeout=1).read()
                """);

        assertThat(statuses(grade)).containsOnly(CaseResult.Status.RUNTIME_ERROR);
    }

    @Test
    void fork_bomb_is_contained() throws InterruptedException {
        var grade = grader.grade(question(TWO_SUM, "twoSum"), """
                import os
                class Solution:
                    def twoSum(self, nums, target):
                        while True:
                            os.fork()
                """);

        assertThat(grade.passed()).isZero();
        assertThat(statuses(grade)).doesNotContain(CaseResult.Status.PASSED);
    }

    @Test
    void allocating_ten_gigabytes_is_a_runtime_error() throws InterruptedException {
        var grade = grader.grade(question(TWO_SUM, "twoSum"), """
                class Solution:
                    def twoSum(self, nums, target):
                        block = bytearray(10 * 1024 ** 3)
                        return [0, 1]
                """);

        assertThat(statuses(grade)).containsOnly(CaseResult.Status.RUNTIME_ERROR);
        assertThat(grade.cases().get(0).message()).contains("MemoryError");
    }

    @Test
    void arguments_bind_by_position_when_names_differ() throws InterruptedException {
        var grade = grader.grade(question(TWO_SUM, "twoSum"), """
                def twoSum(values, goal):
                    for i in range(len(values)):
                        for j in range(i + 1, len(values)):
                            if values[i] + values[j] == goal:
                                return (i, j)
                """);

        assertThat(grade.allPassed()).isTrue();
    }

    @Test
    void linked_lists_are_built_from_arrays_and_serialised_back() throws InterruptedException {
        var description = """
                Example 1:
                Input: head = [1,2,3,4,5]
                Output: [5,4,3,2,1]
                Example 2:
                Input: head = []
                Output: []
                """;
        var grade = grader.grade(question(description, "reverseList"), """
                class Solution:
                    def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
                        prev = None
                        while head:
                            head.next, prev, head = prev, head, head.next
                        return prev
                """);

        assertThat(grade.allPassed()).isTrue();
    }

    private static final String INVERT_TREE = "示例 1：\n输入：root = [4,2,7,1,3,6,9]\n输出：[4,7,2,9,6,3,1]\n";

    /** An answer without annotations: its argument is a tree only if the question's signature says so. */
    private static final String INVERTED = """
            class Solution:
                def invertTree(self, root):
                    if root:
                        root.left, root.right = self.invertTree(root.right), self.invertTree(root.left)
                    return root
            """;

    private static final String TREE_SIGNATURE =
            "class Solution:\n    def invertTree(self, root: Optional[TreeNode]) -> Optional[TreeNode]:\n";

    @Test
    void trees_are_built_level_order_using_the_starter_code_signature() throws InterruptedException {
        var question = new CodeQuestion(
                "t", INVERT_TREE, "python", "invertTree", List.of(), "", "", TREE_SIGNATURE + "        pass\n", "");

        assertThat(grader.grade(question, INVERTED).allPassed()).isTrue();
    }

    @Test
    void trees_are_built_level_order_using_the_reference_solution_signature() throws InterruptedException {
        // Only its signature is read here: the examples hold the expected values.
        var reference = TREE_SIGNATURE + "        return root\n";
        var question = new CodeQuestion("t", INVERT_TREE, "python", "invertTree", List.of(), "", reference, "", "");

        assertThat(grader.grade(question, INVERTED).allPassed()).isTrue();
    }

    @Test
    void the_reference_solution_never_reaches_the_program_under_test() throws InterruptedException {
        var tests = CodeQuestion.readTests(Json.parse("""
                [{"input": {"x": 2}, "expected": 17}, {"input": {"x": 5}, "expected": 38}]
                """));
        var reference = """
                ANSWERS = {2: 17, 5: 38}
                def solve(x: int) -> int:
                    \"""Seven times x, plus three.\"""
                    return ANSWERS.get(x, x * 7 + 3)
                """;
        var question = new CodeQuestion("q", "", "python", "solve", tests, "", reference, "", "");
        // A hostile answer: it finds the harness's configuration on the stack and answers with what the question's
        // signatures compute, else with the signatures themselves.
        var grade = grader.grade(question, """
                import sys
                def solve(x):
                    frame = sys._getframe()
                    while frame is not None:
                        config = frame.f_locals.get("config")
                        if isinstance(config, dict) and "signature_source" in config:
                            namespace = {}
                            exec(config["signature_source"], namespace)
                            found = namespace["solve"](x)
                            return found if isinstance(found, int) else config["signature_source"]
                        frame = frame.f_back
                    return -1
                """);

        assertThat(statuses(grade)).as(grade.cases().toString()).containsOnly(CaseResult.Status.WRONG_ANSWER);
        assertThat(grade.cases().get(0).actual().asText())
                .contains("def solve(x: int) -> int:")
                .doesNotContain("7")
                .doesNotContain("ANSWERS");
    }

    @Test
    void in_place_problems_compare_the_mutated_argument() throws InterruptedException {
        var description = "Example 1:\nInput: nums = [0,1,0,3,12]\nOutput: [1,3,12,0,0]\n";
        var grade = grader.grade(question(description, "moveZeroes"), """
                class Solution:
                    def moveZeroes(self, nums: List[int]) -> None:
                        nums.sort(key=lambda x: x == 0)
                """);

        assertThat(grade.allPassed()).isTrue();
    }

    @Test
    void design_problems_collect_method_results_with_null_for_void() throws InterruptedException {
        var description = """
                Example:
                Input
                ["MinStack","push","push","getMin","pop","top"]
                [[],[-2],[0],[],[],[]]
                Output
                [null,null,null,-2,null,-2]
                """;
        var grade = grader.grade(question(description, ""), """
                class MinStack:
                    def __init__(self):
                        self.items = []
                    def push(self, x):
                        self.items.append(x)
                    def pop(self):
                        self.items.pop()
                    def top(self):
                        return self.items[-1]
                    def getMin(self):
                        return min(self.items)
                """);

        assertThat(grade.allPassed()).isTrue();
    }

    @Test
    void any_order_in_the_text_accepts_a_permutation() throws InterruptedException {
        var description = "Return the answer in any order.\nExample 1:\nInput: n = 3\nOutput: [1,2,3]\n";
        var grade = grader.grade(question(description, "f"), "def f(n):\n    return list(range(n, 0, -1))\n");

        assertThat(grade.comparison().mode()).isEqualTo(Comparison.Mode.UNORDERED);
        assertThat(grade.allPassed()).isTrue();
    }

    @Test
    void bool_is_not_accepted_for_an_integer() throws InterruptedException {
        var description = "Example 1:\nInput: n = 1\nOutput: 1\n";
        var grade = grader.grade(question(description, "f"), "def f(n):\n    return True\n");

        assertThat(statuses(grade)).containsExactly(CaseResult.Status.WRONG_ANSWER);
    }

    @Test
    void explicit_test_cases_win_over_examples_and_use_the_expected_priority() throws InterruptedException {
        var tests = CodeQuestion.readTests(Json.parse("""
                [{"input": {"a": 1, "b": 2}, "expected_output": 3},
                 {"input": [5, 5], "reference_answer": 10, "expected": 10},
                 {"input": "a = 2, b = 2", "expected": 4}]
                """));
        var question = new CodeQuestion("q", TWO_SUM, "python", "add", tests, "", "", "", "");
        var grade = grader.grade(question, "def add(a, b):\n    return a + b\n");

        assertThat(grade.source()).isEqualTo("test_cases");
        assertThat(statuses(grade)).containsOnly(CaseResult.Status.PASSED).hasSize(3);
    }

    @Test
    void custom_compare_uses_the_reference_solution_as_oracle() throws InterruptedException {
        var tests = CodeQuestion.readTests(Json.parse("[{\"input\": {\"n\": 4}, \"expected\": null}]"));
        var question = new CodeQuestion(
                "q", "", "python", "square", tests, "custom", "def square(n):\n    return n * n\n", "", "");
        var grade = grader.grade(question, "def square(n):\n    return n ** 2\n");

        assertThat(grade.allPassed()).isTrue();
        assertThat(grade.cases().get(0).expected()).isEqualTo(Json.parse("16"));
    }

    @Test
    void javascript_functions_run_on_node() throws InterruptedException {
        var question = new CodeQuestion("q", TWO_SUM, "javascript", "twoSum", List.of(), "", "", "", "");
        var grade = grader.grade(question, """
                ```js
                var twoSum = function(nums, target) {
                    const seen = new Map();
                    for (let i = 0; i < nums.length; i++) {
                        if (seen.has(target - nums[i])) return [seen.get(target - nums[i]), i];
                        seen.set(nums[i], i);
                    }
                };
                ```
                """);

        assertThat(statuses(grade)).containsOnly(CaseResult.Status.PASSED).hasSize(3);
    }

    @Test
    void javascript_infinite_loop_times_out() throws InterruptedException {
        var question = new CodeQuestion("q", TWO_SUM, "javascript", "twoSum", List.of(), "", "", "", "");
        var grade = grader.grade(question, "function twoSum(nums, target) { while (true) {} }");

        assertThat(statuses(grade)).containsOnly(CaseResult.Status.TIMEOUT);
    }

    @Test
    void java_solution_methods_are_compiled_and_bound_by_parameter_name() throws InterruptedException {
        var question = new CodeQuestion("q", TWO_SUM, "java", "twoSum", List.of(), "", "", "", "");
        var grade = grader.grade(question, """
                ```java
                class Solution {
                    public int[] twoSum(int[] nums, int target) {
                        Map<Integer, Integer> seen = new HashMap<>();
                        for (int i = 0; i < nums.length; i++) {
                            if (seen.containsKey(target - nums[i])) return new int[] {seen.get(target - nums[i]), i};
                            seen.put(nums[i], i);
                        }
                        return null;
                    }
                }
                ```
                """);

        assertThat(statuses(grade)).containsOnly(CaseResult.Status.PASSED).hasSize(3);
    }

    @Test
    void java_linked_lists_and_design_classes_work() throws InterruptedException {
        var description = "Example 1:\nInput: head = [1,2,3]\nOutput: [3,2,1]\n";
        var reverse =
                grader.grade(new CodeQuestion("q", description, "java", "reverseList", List.of(), "", "", "", ""), """
                class Solution {
                    public ListNode reverseList(ListNode head) {
                        ListNode prev = null;
                        while (head != null) { ListNode next = head.next; head.next = prev; prev = head; head = next; }
                        return prev;
                    }
                }
                """);
        var design = "Example 1:\nInput\n[\"Counter\",\"add\",\"get\"]\n[[5],[2],[]]\nOutput\n[null,null,7]\n";
        var counter = grader.grade(new CodeQuestion("q", design, "java", "", List.of(), "", "", "", ""), """
                class Counter {
                    private int total;
                    Counter(int start) { total = start; }
                    void add(int x) { total += x; }
                    int get() { return total; }
                }
                """);

        assertThat(reverse.allPassed()).isTrue();
        assertThat(counter.allPassed()).isTrue();
    }

    @Test
    void java_compile_error_is_a_runtime_error_with_the_compiler_message() throws InterruptedException {
        var question = new CodeQuestion("q", TWO_SUM, "java", "twoSum", List.of(), "", "", "", "");
        var grade =
                grader.grade(question, "class Solution { public int[] twoSum(int[] nums, int target) { return x; } }");

        assertThat(statuses(grade)).containsOnly(CaseResult.Status.RUNTIME_ERROR);
        assertThat(grade.cases().get(0).message()).contains("cannot find symbol");
    }

    @Test
    void java_infinite_loop_times_out_and_later_cases_still_run() throws InterruptedException {
        var question = new CodeQuestion("q", TWO_SUM, "java", "twoSum", List.of(), "", "", "", "");
        var grade = grader.grade(question, """
                class Solution {
                    public int[] twoSum(int[] nums, int target) {
                        if (target == 9) { while (true) { } }
                        return new int[] {0, 1};
                    }
                }
                """);

        assertThat(statuses(grade))
                .containsExactly(CaseResult.Status.TIMEOUT, CaseResult.Status.WRONG_ANSWER, CaseResult.Status.PASSED);
    }

    @Test
    void unparseable_examples_without_tests_are_refused_with_the_reason() throws InterruptedException {
        var grade = grader.grade(
                question("Example 1:\nInput: nums = [1,1,2]\nOutput: 2, nums = [1,2,_]\n", "f"),
                "def f(nums):\n    return 2\n");

        assertThat(grade.problem().type()).isEqualTo("code.no_tests");
        assertThat(statuses(grade)).containsExactly(CaseResult.Status.UNSUPPORTED);
    }

    @Test
    void unsupported_language_is_refused() throws InterruptedException {
        var question = new CodeQuestion("q", TWO_SUM, "cobol", "", List.of(), "", "", "", "");

        assertThat(grader.grade(question, "x").problem().type()).isEqualTo("code.unsupported_language");
    }
}
