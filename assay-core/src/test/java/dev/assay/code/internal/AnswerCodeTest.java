package dev.assay.code.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AnswerCodeTest {
    @Test
    void block_defining_the_entry_point_wins_over_a_usage_block() {
        String answer = """
                Solution:
                ```python
                def add(a, b):
                    return a + b
                ```
                Usage:
                ```python
                print(add(1, 2))  # a much longer line of usage text that would otherwise be the longest block
                ```
                """;

        assertThat(AnswerCode.extract(answer, "python", "add")).isEqualTo("def add(a, b):\n    return a + b\n");
    }

    @Test
    void block_in_the_question_language_wins_over_another_language() {
        String answer = "```java\nclass Solution { int f() { return 1; } }\n```\n```py\nclass Solution:\n    pass\n```";

        assertThat(AnswerCode.extract(answer, "python", "")).isEqualTo("class Solution:\n    pass\n");
    }

    @Test
    void answer_without_fences_is_taken_whole_with_its_indentation() {
        assertThat(AnswerCode.extract("    return x\n", "python", "f")).isEqualTo("    return x\n");
    }

    @Test
    void blank_answer_has_no_code() {
        assertThat(AnswerCode.extract("  \n", "python", "f")).isEmpty();
    }
}
