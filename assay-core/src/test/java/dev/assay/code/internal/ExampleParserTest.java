package dev.assay.code.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.code.Example;
import dev.assay.code.ParsedExamples;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExampleParserTest {
    private final ExampleParser parser = new ExampleParser();

    private static JsonNode json(String text) {
        return Json.parse(text);
    }

    private List<Example> parse(String description) {
        return parser.parse(description).examples();
    }

    @Test
    void chinese_plain_text_with_named_arguments_and_commas_inside_values() {
        var examples = parse("""
                给定一个整数数组 nums 和一个目标值 target。

                示例 1：
                输入：nums = [2,7,11,15], target = 9
                输出：[0,1]
                解释：因为 nums[0] + nums[1] == 9 ，返回 [0, 1] 。

                示例 2：
                输入：nums = [3,2,4], target = 6
                输出：[1,2]

                提示：
                2 <= nums.length <= 10^4
                """);

        assertThat(examples).extracting(Example::label).containsExactly("示例 1", "示例 2");
        assertThat(examples.get(0).input()).isEqualTo(json("{\"nums\":[2,7,11,15],\"target\":9}"));
        assertThat(examples.get(0).expected()).isEqualTo(json("[0,1]"));
        assertThat(examples.get(1).status()).isEqualTo(Example.Status.OK);
    }

    @Test
    void english_plain_text_with_strings_holding_commas() {
        var examples = parse("""
                Example 1:
                Input: s = "a,b", sep = ","
                Output: ["a","b"]
                Explanation: split on the comma.
                Constraints:
                1 <= s.length
                """);

        assertThat(examples).singleElement().satisfies(example -> {
            assertThat(example.label()).isEqualTo("Example 1");
            assertThat(example.input()).isEqualTo(json("{\"s\":\"a,b\",\"sep\":\",\"}"));
            assertThat(example.expected()).isEqualTo(json("[\"a\",\"b\"]"));
        });
    }

    @Test
    void leetcode_html_with_pre_blocks_entities_and_images() {
        var examples = parse("""
                <p>Given a string.</p>
                <p><strong class="example">示例 1：</strong></p>
                <img alt="" src="https://assets.example/1.jpg" style="width: 300px;" />
                <pre>
                <strong>输入：</strong>s = &quot;abcabcbb&quot;, k = 2
                <strong>输出：</strong>3
                <strong>解释：</strong>因为无重复字符的最长子串是 &quot;abc&quot;。
                </pre>
                <p><strong>示例&nbsp;2:</strong></p>
                <pre><strong>输入:</strong> s = &quot;&lt;b&gt;&quot;, k = 1
                <strong>输出:</strong> true</pre>
                <p><strong>提示：</strong></p>
                """);

        assertThat(examples).extracting(Example::label).containsExactly("示例 1", "示例 2");
        assertThat(examples.get(0).input()).isEqualTo(json("{\"s\":\"abcabcbb\",\"k\":2}"));
        assertThat(examples.get(0).expected()).isEqualTo(json("3"));
        assertThat(examples.get(1).input()).isEqualTo(json("{\"s\":\"<b>\",\"k\":1}"));
        assertThat(examples.get(1).expected()).isEqualTo(json("true"));
    }

    @Test
    void example_block_markup_with_spans() {
        var examples = parse("""
                <p><strong class="example">Example 1:</strong></p>
                <div class="example-block">
                <p><strong>Input:</strong> <span class="example-io">nums = [1,2,3], k = 2</span></p>
                <p><strong>Output:</strong> <span class="example-io">[[1,2],[2,3]]</span></p>
                <p><strong>Explanation:</strong></p>
                <pre>nested pre inside the explanation</pre>
                </div>
                """);

        assertThat(examples).singleElement().satisfies(example -> {
            assertThat(example.input()).isEqualTo(json("{\"nums\":[1,2,3],\"k\":2}"));
            assertThat(example.expected()).isEqualTo(json("[[1,2],[2,3]]"));
        });
    }

    @Test
    void markdown_labels_in_bold_and_code_spans() {
        var examples = parse("""
                ### Example 1
                **Input:** `grid = [[1,1,0],[0,1,1]]`
                **Output:** `4`

                **Example 2:**
                > **Input:** grid = [[0]]
                > **Output:** 0
                """);

        assertThat(examples).extracting(Example::expected).containsExactly(json("4"), json("0"));
        assertThat(examples.get(0).input().get("grid")).isEqualTo(json("[[1,1,0],[0,1,1]]"));
    }

    @Test
    void positional_and_mixed_inputs_are_numbered() {
        var examples = parse("""
                示例 1：
                输入：[3,2,1,5,6,4], k = 2
                输出：5
                示例 2：
                输入："112358"
                输出：true
                """);

        assertThat(examples.get(0).input()).isEqualTo(json("{\"#0\":[3,2,1,5,6,4],\"k\":2}"));
        assertThat(examples.get(1).input()).isEqualTo(json("{\"#0\":\"112358\"}"));
    }

    @Test
    void python_literals_single_quotes_and_full_width_commas() {
        var examples = parse("""
                Example 1:
                Input: board = [['1','0'],['0','1']]， flag = True， extra = None
                Output: False
                """);

        assertThat(examples.get(0).input())
                .isEqualTo(json("{\"board\":[[\"1\",\"0\"],[\"0\",\"1\"]],\"flag\":true,\"extra\":null}"));
        assertThat(examples.get(0).expected()).isEqualTo(json("false"));
    }

    @Test
    void chinese_words_between_arguments_and_trailing_comma() {
        var examples = parse("""
                示例 1：
                输入：目标值 = 3.71，且 k = 2,
                输出：[4,3]
                """);

        assertThat(examples.get(0).input()).isEqualTo(json("{\"目标值\":3.71,\"k\":2}"));
    }

    @Test
    void values_and_outputs_across_lines() {
        var examples = parse("""
                Example 1:
                Input: board =
                [["5","3"]
                ,["6","."]]
                Output:
                [["5","3"],
                 ["6","1"]]
                Explanation: the board is solved.
                """);

        assertThat(examples.get(0).input().get("board")).isEqualTo(json("[[\"5\",\"3\"],[\"6\",\".\"]]"));
        assertThat(examples.get(0).expected()).isEqualTo(json("[[\"5\",\"3\"],[\"6\",\"1\"]]"));
    }

    @Test
    void design_problem_has_operations_and_arguments() {
        var examples = parse("""
                <p><strong>示例：</strong></p>
                <pre>
                <strong>输入</strong>
                ["MinStack","push","push","getMin","pop"]
                [[],[-2],[0],[],[]]
                <strong>输出：</strong>
                [null,null,null,-2,null]
                </pre>
                """);

        var example = examples.get(0);
        assertThat(example.label()).isEqualTo("示例");
        assertThat(example.design()).isTrue();
        assertThat(example.input().get("operations"))
                .isEqualTo(json("[\"MinStack\",\"push\",\"push\",\"getMin\",\"pop\"]"));
        assertThat(example.expected()).isEqualTo(json("[null,null,null,-2,null]"));
    }

    @Test
    void free_text_output_is_unsupported_with_a_reason_and_others_still_parse() {
        var parsed = parser.parse("""
                Example 1:
                Input: nums = [1,1,2]
                Output: 2, nums = [1,2,_]
                Example 2:
                Input: nums = [1]
                Output: 1
                """);

        assertThat(parsed.examples().get(0).status()).isEqualTo(Example.Status.UNSUPPORTED);
        assertThat(parsed.examples().get(0).reason()).startsWith("output is not a literal");
        assertThat(parsed.examples().get(1).status()).isEqualTo(Example.Status.OK);
        assertThat(parsed.status()).isEqualTo(ParsedExamples.Status.PARTIAL);
    }

    @Test
    void example_without_output_is_unsupported() {
        var parsed = parser.parse("示例 1：\n输入：n = 3\n解释：没有输出行。\n");

        assertThat(parsed.examples())
                .singleElement()
                .satisfies(example -> assertThat(example.reason()).contains("no output"));
        assertThat(parsed.status()).isEqualTo(ParsedExamples.Status.NONE);
    }

    @Test
    void description_without_examples_has_none() {
        var parsed = parser.parse("Write a function that returns the sum. Examples of usage follow later.");

        assertThat(parsed.examples()).isEmpty();
        assertThat(parsed.status()).isEqualTo(ParsedExamples.Status.NONE);
    }

    @Test
    void unlabelled_single_example_and_null_in_trees() {
        var parsed = parser.parse("""
                Input: root = [3,9,20,null,null,15,7]
                Output: [[3],[9,20],[15,7]]
                """);

        assertThat(parsed.examples()).singleElement().satisfies(example -> {
            assertThat(example.input().get("root")).isEqualTo(json("[3,9,20,null,null,15,7]"));
            assertThat(example.status()).isEqualTo(Example.Status.OK);
        });
    }

    @Test
    void label_colon_ascii_space_before_colon_and_b_tags() {
        var examples = parse("""
                <p><b>示例 1 ：</b></p>
                <pre><b>输入： </b>x = -121
                <b>输出：</b>false</pre>
                """);

        assertThat(examples.get(0).input()).isEqualTo(json("{\"x\":-121}"));
        assertThat(examples.get(0).expected()).isEqualTo(json("false"));
    }

    @Test
    void extra_inline_tags_inside_values_are_dropped() {
        var examples = parse("<pre><strong>Input:</strong> s = <code>\"ab\"</code>, t = <em>\"b\"</em>\n"
                + "<strong>Output:</strong> <u>1</u></pre>");

        assertThat(examples.get(0).input()).isEqualTo(json("{\"s\":\"ab\",\"t\":\"b\"}"));
        assertThat(examples.get(0).expected()).isEqualTo(json("1"));
    }

    @Test
    void floats_and_big_integers_keep_their_kind() {
        var examples = parse("Example 1:\nInput: x = 2.00000, n = 10\nOutput: 1024.00000\n"
                + "Example 2:\nInput: x = 123456789012345678901234567890, n = -1e3\nOutput: 0.5\n");

        assertThat(examples.get(0).expected().isDouble()).isTrue();
        assertThat(examples.get(0).input().get("n").isIntegralNumber()).isTrue();
        assertThat(examples.get(1).input().get("x").bigIntegerValue().toString())
                .isEqualTo("123456789012345678901234567890");
    }

    @Test
    void an_argument_given_twice_is_unsupported() {
        var examples = parse("Example 1:\nInput: a = 1, a = 2\nOutput: 3\n");

        assertThat(examples.get(0).status()).isEqualTo(Example.Status.UNSUPPORTED);
        assertThat(examples.get(0).reason()).contains("twice");
    }

    @Test
    void literal_reader_accepts_escapes_tuples_and_trailing_commas() {
        assertThat(Literals.parse("(1, 'it\\'s', \"a\\\"b\",)")).isEqualTo(json("[1,\"it's\",\"a\\\"b\"]"));
        assertThat(Literals.parse("{'k': [1, 2,]}")).isEqualTo(json("{\"k\":[1,2]}"));
    }

    @Test
    void splitting_respects_nesting_and_quotes() {
        assertThat(Literals.splitTopLevel("a = [1,[2,3]], b = \"x,y\"，c = {'p': 1, 'q': 2},"))
                .containsExactly("a = [1,[2,3]]", "b = \"x,y\"", "c = {'p': 1, 'q': 2}");
    }

    @Test
    void header_followed_by_its_first_label_on_the_same_line() {
        var examples = parse("Example 1: Input: n = 5\nOutput: 120\nExample 2: Input: n = 0\nOutput: 1\n");

        assertThat(examples).extracting(Example::expected).containsExactly(json("120"), json("1"));
    }

    @Test
    void labels_inside_example_io_spans_and_pre_on_the_label_line() {
        var examples = parse("""
                <p><strong class="example">示例 1：</strong></p>
                <div class="example-block">
                <p><span class="example-io"><b>输入：</b>word1 = "abc", word2 = "pqr"</span></p>
                <p><span class="example-io"><b>输出：</b>"apbqcr"</span></p>
                </div>
                <p><strong>示例 2：</strong></p>
                <pre><strong>输入：</strong><pre>word1 = "ab", word2 = "pqrs"</pre>
                <strong>输出：</strong>"apbqrs"</pre>
                """);

        assertThat(examples.get(0).input()).isEqualTo(json("{\"word1\":\"abc\",\"word2\":\"pqr\"}"));
        assertThat(examples.get(0).expected()).isEqualTo(json("\"apbqcr\""));
        assertThat(examples.get(1).input()).isEqualTo(json("{\"word1\":\"ab\",\"word2\":\"pqrs\"}"));
    }

    @Test
    void numeric_character_references_and_ideographic_spaces_are_decoded() {
        var examples = parse("<p>示例\u30001：</p><pre>输入：s = &#34;a&#x27;b&#34;\n输出：&#49;</pre>");

        assertThat(examples.get(0).input()).isEqualTo(json("{\"s\":\"a'b\"}"));
        assertThat(examples.get(0).expected()).isEqualTo(json("1"));
    }

    @Test
    void bilingual_description_yields_examples_of_both_languages() {
        var parsed = parser.parse("示例 1：\n输入：x = 1\n输出：2\n\nExample 1:\nInput: x = 1\nOutput: 2\n");

        assertThat(parsed.examples()).extracting(Example::label).containsExactly("示例 1", "Example 1");
        assertThat(parsed.status()).isEqualTo(ParsedExamples.Status.OK);
    }

    @Test
    void unterminated_string_is_unsupported_with_the_reason() {
        var example = parse("Example 1:\nInput: s = \"abc\nOutput: 1\n").get(0);

        assertThat(example.status()).isEqualTo(Example.Status.UNSUPPORTED);
        assertThat(example.reason()).startsWith("input:");
    }
}
