package dev.assay.code;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.sandbox.BubblewrapSandbox;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The grader on the classes of real problems it used to get wrong with their reference solutions: answers in any order
 * (nested too), a solution with helper methods, design classes built from a tree, nodes named by value, trees changed
 * in place. Each right solution passes and a wrong one still fails. The problems are written for these tests, in the
 * published problems' HTML style.
 */
class GraderInferenceTest {
    private static CodeGrader grader;

    @BeforeAll
    static void sandbox() throws InterruptedException {
        var sandbox = BubblewrapSandbox.find();
        Assumptions.assumeTrue(sandbox.isPresent(), "bubblewrap is not usable on this machine");
        grader = new CodeGrader(sandbox.get(), new CodeGrader.Options(Duration.ofSeconds(4), 1L << 30, 64));
    }

    private static Grade grade(String description, String language, String code) throws InterruptedException {
        return grader.grade(new CodeQuestion("q", description, language, "", List.of(), "", "", "", ""), code);
    }

    private static final String GROUP_WORDS = """
            <p>Given an array of strings <code>words</code>, group the words that are anagrams of each other.
            You can return the answer in <strong>any order</strong>.</p>
            <p><strong class="example">Example 1:</strong></p>
            <pre><strong>Input:</strong> words = ["eat","tea","tan","ate","nat","bat"]
            <strong>Output:</strong> [["bat"],["nat","tan"],["ate","eat","tea"]]</pre>
            <p><strong class="example">Example 2:</strong></p>
            <pre><strong>Input:</strong> words = ["a"]
            <strong>Output:</strong> [["a"]]</pre>
            """;

    @Test
    void groups_in_any_order_accept_any_order_of_groups_and_of_their_words() throws InterruptedException {
        var right = grade(GROUP_WORDS, "python", """
                class Solution:
                    def groupWords(self, words: List[str]) -> List[List[str]]:
                        groups = defaultdict(list)
                        for w in words:
                            groups[''.join(sorted(w))].append(w)
                        return list(groups.values())
                """);
        var wrong = grade(GROUP_WORDS, "python", """
                class Solution:
                    def groupWords(self, words):
                        return [[w] for w in words]
                """);

        assertThat(right.allPassed()).as(right.cases().toString()).isTrue();
        assertThat(wrong.cases().getFirst().status()).isEqualTo(CaseResult.Status.WRONG_ANSWER);
    }

    private static final String ORDERINGS = """
            <p>给你一个不含重复数字的数组 <code>nums</code> ，返回其所有可能的全排列。你可以 <strong>按任意顺序</strong> 返回答案。</p>
            <p><strong>示例 1：</strong></p>
            <pre><strong>输入：</strong>nums = [1,2,3]
            <strong>输出：</strong>[[1,2,3],[1,3,2],[2,1,3],[2,3,1],[3,1,2],[3,2,1]]</pre>
            """;

    @Test
    void orderings_in_any_order_still_need_each_ordering_itself() throws InterruptedException {
        var right = grade(ORDERINGS, "python", """
                class Solution:
                    def orderings(self, nums: List[int]) -> List[List[int]]:
                        return [list(p) for p in reversed(list(permutations(nums)))]
                """);
        var sameSetSixTimes = grade(ORDERINGS, "python", """
                class Solution:
                    def orderings(self, nums: List[int]) -> List[List[int]]:
                        return [list(nums) for _ in range(6)]
                """);

        assertThat(right.allPassed()).as(right.cases().toString()).isTrue();
        assertThat(sameSetSixTimes.allPassed()).isFalse();
    }

    private static final String LARGEST_BLOCK = """
            <p>Given a <code>rows x cols</code> binary <code>matrix</code> filled with 0's and 1's, find the largest
            rectangle containing only 1's and return its area.</p>
            <p><strong>Example 1:</strong></p>
            <pre><strong>Input:</strong> matrix = [["1","0","1"],["1","1","1"],["1","1","1"]]
            <strong>Output:</strong> 6</pre>
            """;

    @Test
    void a_solution_with_a_helper_method_is_called_by_the_examples_argument_names() throws InterruptedException {
        var right = grade(LARGEST_BLOCK, "python", """
                class Solution:
                    def largestArea(self, heights: List[int]) -> int:
                        stack, best = [], 0
                        for i, h in enumerate(heights + [0]):
                            start = i
                            while stack and stack[-1][1] >= h:
                                start, height = stack.pop()
                                best = max(best, height * (i - start))
                            stack.append((start, h))
                        return best

                    def largestBlock(self, matrix: List[List[str]]) -> int:
                        heights, best = [0] * len(matrix[0]), 0
                        for row in matrix:
                            heights = [h + 1 if c == "1" else 0 for h, c in zip(heights, row)]
                            best = max(best, self.largestArea(heights))
                        return best
                """);
        var java = grade(LARGEST_BLOCK, "java", """
                class Solution {
                    public int largestArea(int[] heights) {
                        int best = 0;
                        for (int i = 0; i < heights.length; i++) {
                            int low = heights[i];
                            for (int j = i; j < heights.length; j++) {
                                low = Math.min(low, heights[j]);
                                best = Math.max(best, low * (j - i + 1));
                            }
                        }
                        return best;
                    }

                    public int largestBlock(char[][] matrix) {
                        int[] heights = new int[matrix[0].length];
                        int best = 0;
                        for (char[] row : matrix) {
                            for (int c = 0; c < row.length; c++) {
                                heights[c] = row[c] == '1' ? heights[c] + 1 : 0;
                            }
                            best = Math.max(best, largestArea(heights));
                        }
                        return best;
                    }
                }
                """);

        assertThat(right.allPassed()).as(right.cases().toString()).isTrue();
        assertThat(java.allPassed()).as(java.cases().toString()).isTrue();
    }

    private static final String TREE_ITERATOR = """
            <p>实现一个二叉搜索树迭代器类 <code>TreeIterator</code>，按中序遍历返回节点值。</p>
            <p><strong>示例：</strong></p>
            <pre><strong>输入</strong>
            ["TreeIterator", "next", "next", "hasNext", "next", "hasNext"]
            [[[7, 3, 15, null, null, 9, 20]], [], [], [], [], []]
            <strong>输出</strong>
            [null, 3, 7, true, 9, true]</pre>
            """;

    @Test
    void a_design_class_whose_constructor_takes_a_tree_gets_a_tree() throws InterruptedException {
        var python = grade(TREE_ITERATOR, "python", """
                class TreeIterator:
                    def __init__(self, root: Optional[TreeNode]):
                        self.stack = []
                        self._left(root)

                    def _left(self, node):
                        while node:
                            self.stack.append(node)
                            node = node.left

                    def next(self) -> int:
                        node = self.stack.pop()
                        self._left(node.right)
                        return node.val

                    def hasNext(self) -> bool:
                        return bool(self.stack)
                """);
        var java = grade(TREE_ITERATOR, "java", """
                class TreeIterator {
                    private final Deque<TreeNode> stack = new ArrayDeque<>();
                    public TreeIterator(TreeNode root) { left(root); }
                    private void left(TreeNode node) { while (node != null) { stack.push(node); node = node.left; } }
                    public int next() { TreeNode node = stack.pop(); left(node.right); return node.val; }
                    public boolean hasNext() { return !stack.isEmpty(); }
                }
                """);

        assertThat(python.allPassed()).as(python.cases().toString()).isTrue();
        assertThat(java.allPassed()).as(java.cases().toString()).isTrue();
    }

    private static final String LOWEST_SHARED = """
            <p>Given a binary search tree, find the lowest common ancestor of two given nodes <code>p</code> and
            <code>q</code> in it.</p>
            <p><strong>Example 1:</strong></p>
            <pre><strong>Input:</strong> root = [6,2,8,0,4,7,9,null,null,3,5], p = 2, q = 8
            <strong>Output:</strong> 6</pre>
            <p><strong>Example 2:</strong></p>
            <pre><strong>Input:</strong> root = [6,2,8,0,4,7,9,null,null,3,5], p = 2, q = 4
            <strong>Output:</strong> 2</pre>
            """;

    @Test
    void nodes_named_by_value_are_the_tree_nodes_with_those_values() throws InterruptedException {
        var python = grade(LOWEST_SHARED, "python", """
                class Solution:
                    def lowestShared(self, root: 'TreeNode', p: 'TreeNode', q: 'TreeNode') -> 'TreeNode':
                        while root:
                            if p.val < root.val and q.val < root.val:
                                root = root.left
                            elif p.val > root.val and q.val > root.val:
                                root = root.right
                            else:
                                return root
                """);
        var wrong = grade(LOWEST_SHARED, "python", """
                class Solution:
                    def lowestShared(self, root: 'TreeNode', p: 'TreeNode', q: 'TreeNode') -> 'TreeNode':
                        return p
                """);
        var java = grade(LOWEST_SHARED, "java", """
                class Solution {
                    public TreeNode lowestShared(TreeNode root, TreeNode p, TreeNode q) {
                        while (root != null) {
                            if (p.val < root.val && q.val < root.val) root = root.left;
                            else if (p.val > root.val && q.val > root.val) root = root.right;
                            else return root;
                        }
                        return null;
                    }
                }
                """);

        assertThat(python.allPassed()).as(python.cases().toString()).isTrue();
        assertThat(wrong.cases().getFirst().status()).isEqualTo(CaseResult.Status.WRONG_ANSWER);
        assertThat(java.allPassed()).as(java.cases().toString()).isTrue();
    }

    private static final String FLATTEN = """
            <p>给你二叉树的根结点 <code>root</code> ，请你将它原地展开为一个单链表：右子指针指向下一个结点，左子指针始终为 null，顺序与先序遍历相同。</p>
            <p><strong>示例 1：</strong></p>
            <pre><strong>输入：</strong>root = [1,2,5,3,4,null,6]
            <strong>输出：</strong>[1,null,2,null,3,null,4,null,5,null,6]</pre>
            <p><strong>示例 2：</strong></p>
            <pre><strong>输入：</strong>root = []
            <strong>输出：</strong>[]</pre>
            """;

    @Test
    void a_tree_changed_in_place_is_judged_after_the_call() throws InterruptedException {
        var python = grade(FLATTEN, "python", """
                class Solution:
                    def flatten(self, root: Optional[TreeNode]) -> None:
                        nodes = []
                        def visit(node):
                            if node:
                                nodes.append(node)
                                visit(node.left)
                                visit(node.right)
                        visit(root)
                        for a, b in zip(nodes, nodes[1:] + [None]):
                            a.left, a.right = None, b
                """);
        var untouched = grade(FLATTEN, "python", """
                class Solution:
                    def flatten(self, root: Optional[TreeNode]) -> None:
                        pass
                """);
        var java = grade(FLATTEN, "java", """
                class Solution {
                    private TreeNode last;
                    public void flatten(TreeNode root) {
                        if (root == null) return;
                        TreeNode left = root.left, right = root.right;
                        if (last != null) { last.left = null; last.right = root; }
                        last = root;
                        flatten(left);
                        flatten(right);
                    }
                }
                """);

        assertThat(python.allPassed()).as(python.cases().toString()).isTrue();
        assertThat(untouched.cases().getFirst().status()).isEqualTo(CaseResult.Status.WRONG_ANSWER);
        assertThat(java.allPassed()).as(java.cases().toString()).isTrue();
    }

    private static final String REVERSE_LIST = """
            <p>Given the <code>head</code> of a singly linked list, reverse the list, and return the reversed list.</p>
            <p><strong>Example 1:</strong></p>
            <pre><strong>Input:</strong> head = [1,2,3,4,5]
            <strong>Output:</strong> [5,4,3,2,1]</pre>
            <p><strong>Example 2:</strong></p>
            <pre><strong>Input:</strong> head = []
            <strong>Output:</strong> []</pre>
            """;

    @Test
    void javascript_gets_linked_lists_and_trees_as_its_jsdoc_declares() throws InterruptedException {
        var right = gradeJs(REVERSE_LIST, "reverseList", """
                /**
                 * Definition for singly-linked list.
                 * function ListNode(val, next) { ... }
                 */
                /**
                 * @param {ListNode} head
                 * @return {ListNode}
                 */
                var reverseList = function(head) {
                    let previous = null;
                    while (head) { const next = head.next; head.next = previous; previous = head; head = next; }
                    return previous;
                };
                """);
        var wrong = gradeJs(REVERSE_LIST, "reverseList", """
                /**
                 * @param {ListNode} head
                 * @return {ListNode}
                 */
                var reverseList = function(head) { return head; };
                """);
        var lowest = gradeJs(LOWEST_SHARED, "lowestShared", """
                function TreeNode(val) { this.val = val; this.left = this.right = null; }
                /**
                 * @param {TreeNode} root
                 * @param {TreeNode} p
                 * @param {TreeNode} q
                 * @return {TreeNode}
                 */
                var lowestShared = function(root, p, q) {
                    while (root) {
                        if (p.val < root.val && q.val < root.val) root = root.left;
                        else if (p.val > root.val && q.val > root.val) root = root.right;
                        else return root;
                    }
                    return null;
                };
                """);
        var flatten = gradeJs(FLATTEN, "flatten", """
                /**
                 * @param {TreeNode} root
                 * @return {void} Do not return anything, modify root in-place instead.
                 */
                var flatten = function(root) {
                    const nodes = [];
                    const visit = (node) => { if (node) { nodes.push(node); visit(node.left); visit(node.right); } };
                    visit(root);
                    nodes.forEach((node, i) => { node.left = null; node.right = nodes[i + 1] || null; });
                };
                """);
        var iterator = gradeJs(TREE_ITERATOR, "", """
                /**
                 * @param {TreeNode} root
                 */
                var TreeIterator = function(root) {
                    this.stack = [];
                    for (let node = root; node; node = node.left) this.stack.push(node);
                };
                TreeIterator.prototype.next = function() {
                    const node = this.stack.pop();
                    for (let child = node.right; child; child = child.left) this.stack.push(child);
                    return node.val;
                };
                TreeIterator.prototype.hasNext = function() { return this.stack.length > 0; };
                """);

        assertThat(right.allPassed()).as(right.cases().toString()).isTrue();
        assertThat(wrong.cases().getFirst().status()).isEqualTo(CaseResult.Status.WRONG_ANSWER);
        assertThat(lowest.allPassed()).as(lowest.cases().toString()).isTrue();
        assertThat(flatten.allPassed()).as(flatten.cases().toString()).isTrue();
        assertThat(iterator.allPassed()).as(iterator.cases().toString()).isTrue();
    }

    private static Grade gradeJs(String description, String entryPoint, String code) throws InterruptedException {
        return grader.grade(
                new CodeQuestion("q", description, "javascript", entryPoint, List.of(), "", "", "", ""), code);
    }
}
