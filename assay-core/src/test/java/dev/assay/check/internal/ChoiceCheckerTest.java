package dev.assay.check.internal;

import static dev.assay.check.Judge.judgeAnswer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.check.CheckContext;
import dev.assay.check.CheckerRegistry;
import dev.assay.check.Judge;
import dev.assay.check.Verdict;
import dev.assay.score.Weights;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChoiceCheckerTest {
    @TempDir
    Path workspace;

    private Verdict choice(String expected, String answer) {
        return judgeAnswer("choice", expected, answer, workspace);
    }

    private String normalized(String answer) {
        return choice("\"A\"", answer).detail().get("normalized").asText(null);
    }

    @Test
    void a_bare_correct_letter_passes() {
        Verdict verdict = choice("\"B\"", "B");

        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(verdict.score()).isEqualTo(1.0);
    }

    @Test
    void a_wrong_letter_fails_as_wrong_answer() {
        Verdict verdict = choice("\"B\"", "C");

        assertThat(verdict.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(verdict.errorType()).isEqualTo("choice.wrong_answer");
        assertThat(verdict.score()).isZero();
    }

    @Test
    void detail_records_expected_actual_and_normalized() {
        Verdict verdict = choice("\"B\"", "答案：C");

        assertThat(verdict.detail().get("expected").get(0).asText()).isEqualTo("B");
        assertThat(verdict.detail().get("actual").asText()).isNotEmpty();
        assertThat(verdict.detail().get("normalized").asText()).isEqualTo("C");
    }

    @Test
    void any_letter_of_an_expected_list_passes() {
        assertThat(choice("[\"B\", \"C\"]", "C").status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void chinese_label_with_full_width_colon_is_read() {
        assertThat(normalized("答案：B")).isEqualTo("B");
    }

    @Test
    void chinese_label_with_bold_letter_is_read() {
        assertThat(normalized("答案是 **B**")).isEqualTo("B");
    }

    @Test
    void english_sentence_with_parenthesised_letter_is_read() {
        assertThat(normalized("The answer is (B).")).isEqualTo("B");
    }

    @Test
    void letter_followed_by_the_option_text_is_read() {
        assertThat(normalized("B. 4")).isEqualTo("B");
    }

    @Test
    void full_width_letter_is_read() {
        assertThat(normalized("Ｂ")).isEqualTo("B");
    }

    @Test
    void full_width_letter_after_a_label_is_read() {
        assertThat(normalized("答案：Ｃ")).isEqualTo("C");
    }

    @Test
    void letter_on_its_own_line_before_an_explanation_is_read() {
        assertThat(normalized("B\n\nExplanation: 2 + 2 = 4, which is option B's value."))
                .isEqualTo("B");
    }

    @Test
    void letter_then_comma_and_a_chinese_explanation_is_read() {
        assertThat(normalized("B，因为 2 加 2 等于 4，所以选这个。")).isEqualTo("B");
    }

    @Test
    void labelled_answer_followed_by_a_long_explanation_is_read() {
        assertThat(normalized("The answer is B because two plus two is four, and the others are wrong."))
                .isEqualTo("B");
    }

    @Test
    void think_block_is_ignored() {
        assertThat(normalized("<think>Maybe A? No, A is wrong.</think>\nB")).isEqualTo("B");
    }

    @Test
    void lower_case_letter_after_final_answer_label_is_upper_cased() {
        assertThat(normalized("Final Answer: a")).isEqualTo("A");
    }

    @Test
    void lone_lower_case_letter_is_read() {
        assertThat(normalized("d")).isEqualTo("D");
    }

    @Test
    void the_last_labelled_answer_wins() {
        assertThat(normalized("First I thought answer: A. After checking, the final answer is C."))
                .isEqualTo("C");
    }

    @Test
    void markdown_bold_label_is_read() {
        assertThat(normalized("Let me compute.\n\n**Answer**: D")).isEqualTo("D");
    }

    @Test
    void latex_boxed_letter_after_a_long_derivation_is_read() {
        assertThat(normalized("Summing both sides gives 4, which is the second option.\n\n$\\boxed{B}$"))
                .isEqualTo("B");
    }

    @Test
    void the_bottom_most_letter_line_wins() {
        assertThat(normalized("Options considered:\nA\nthen\nC")).isEqualTo("C");
    }

    @Test
    void a_long_run_of_wrappers_before_a_labelled_letter_is_read_without_exhausting_the_stack() {
        assertThat(normalized("Answer: " + "(".repeat(200_000) + "A")).isEqualTo("A");
    }

    @Test
    void a_long_run_of_wrappers_around_a_lone_letter_is_read_without_exhausting_the_stack() {
        assertThat(normalized("(".repeat(200_000) + "A" + ")".repeat(200_000))).isEqualTo("A");
    }

    @Test
    void an_echo_of_the_options_on_one_line_gives_no_answer() {
        Verdict verdict = choice("\"A\"", "A) 2 B) 3 C) 4 D) 5");

        assertThat(verdict.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(verdict.errorType()).isEqualTo("choice.no_answer");
    }

    @Test
    void an_echo_of_the_options_on_several_lines_gives_no_answer() {
        assertThat(choice("\"A\"", "A) 2\nB) 3\nC) 4\nD) 5").errorType()).isEqualTo("choice.no_answer");
    }

    @Test
    void the_instruction_with_slash_separated_letters_gives_no_answer() {
        assertThat(choice("\"A\"", "Please only output Answer: A/B/C/D.").errorType())
                .isEqualTo("choice.no_answer");
    }

    @Test
    void a_short_line_naming_two_letters_gives_no_answer() {
        assertThat(choice("\"A\"", "A or B").errorType()).isEqualTo("choice.no_answer");
    }

    @Test
    void a_short_line_with_one_standalone_letter_is_read() {
        assertThat(normalized("I pick C")).isEqualTo("C");
    }

    /** docs/checkers.md, difference C3: the reference's short-line rule reads either case. */
    @Test
    void a_short_line_with_one_lower_case_letter_is_read() {
        assertThat(normalized("I pick b")).isEqualTo("B");
    }

    /** C3, Assay's reading kept: the article "a" beside one upper-case letter does not hide it. */
    @Test
    void a_short_line_with_the_article_a_and_one_upper_case_letter_is_read() {
        assertThat(normalized("It is a C")).isEqualTo("C");
        assertThat(choice("\"A\"", "a or b").errorType()).isEqualTo("choice.no_answer");
    }

    /** docs/checkers.md, difference C9: a lower-case "a" followed by a word is the English article. */
    @Test
    void the_article_a_in_a_short_sentence_is_no_answer() {
        assertThat(choice("\"A\"", "This is a mock answer.").errorType()).isEqualTo("choice.no_answer");
        assertThat(normalized("I pick a")).isEqualTo("A");
        assertThat(normalized("Option a.")).isEqualTo("A");
    }

    /** C9 under {@code --scoring reference}: the reference's reading takes the article as the letter. */
    @Test
    void under_the_reference_scoring_the_article_a_is_read_as_the_letter() throws InterruptedException {
        Check check = Check.of("choice", Json.parse("\"A\""));
        var context = new CheckContext(
                Case.of("case_1", "logic", "prompt", check),
                Judge.answer("This is a mock answer."),
                "This is a mock answer.",
                null,
                null,
                "",
                Weights.Scoring.REFERENCE);

        Verdict verdict = CheckerRegistry.builtins().create(check).check(context);

        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(verdict.detail().get("rule").asText()).isEqualTo("short_line");
    }

    /** docs/checkers.md, difference C7: spaces may stand among the wrappers of a line that is only the letter. */
    @Test
    void a_letter_line_with_spaces_inside_its_parentheses_is_read() {
        assertThat(normalized("After comparing the options carefully:\n( A )")).isEqualTo("A");
        assertThat(normalized("经过分析：\n（ B ）")).isEqualTo("B");
    }

    @Test
    void a_long_run_of_spaced_wrappers_around_a_lone_letter_is_read_without_exhausting_the_stack() {
        assertThat(normalized("( ".repeat(100_000) + "A" + " )".repeat(100_000)))
                .isEqualTo("A");
    }

    /** docs/checkers.md, difference C5: the reference's `is` needs no word boundary after it. */
    @Test
    void answer_is_glued_to_the_letter_is_read() {
        assertThat(normalized("So the answer isB")).isEqualTo("B");
    }

    /** docs/checkers.md, difference C1, C2, C4, C5, C6: readings Assay keeps where the reference finds no letter. */
    @Test
    void readings_assay_adds_to_the_reference_are_kept() {
        assertThat(normalized("Ｂ")).isEqualTo("B");
        assertThat(normalized("我选C")).isEqualTo("C");
        assertThat(normalized("B. H2O\nWater is the compound formed from hydrogen and oxygen."))
                .isEqualTo("B");
        assertThat(normalized("After checking all options, the answer is: C")).isEqualTo("C");
        assertThat(normalized("经过仔细分析，**最终答案**：B")).isEqualTo("B");
        assertThat(normalized("经过分析，本题的正确答案：【C】")).isEqualTo("C");
    }

    /**
     * docs/checkers.md, difference C6, C8: Assay's think and tool-call handling, where the reference reads another
     * letter.
     */
    @Test
    void reasoning_and_unfinished_tool_calls_are_not_read_as_the_answer() {
        assertThat(normalized("<thinking>answer: A?</thinking>\nB")).isEqualTo("B");
        assertThat(normalized("Let me think, the answer: A maybe\n</think>\nD")).isEqualTo("D");
        assertThat(normalized("B\n<think>maybe the answer: C")).isEqualTo("B");
        assertThat(choice("\"A\"", "<tool_call>{\"x\":1} Answer: A").errorType())
                .isEqualTo("choice.no_answer");
    }

    @Test
    void an_empty_answer_gives_no_answer() {
        assertThat(choice("\"A\"", "   ").errorType()).isEqualTo("choice.no_answer");
    }

    @Test
    void a_letter_inside_a_tool_call_block_is_ignored() {
        assertThat(choice("\"A\"", "<tool_call>{\"name\":\"final\",\"arguments\":{\"x\":\"B\"}}</tool_call>")
                        .errorType())
                .isEqualTo("choice.no_answer");
    }

    @Test
    void letters_option_widens_the_range() {
        assertThat(choice("{\"answer\": \"E\", \"letters\": \"ABCDE\"}", "答案：E").status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void a_letter_outside_the_default_range_is_not_a_choice() {
        assertThat(choice("\"A\"", "E").errorType()).isEqualTo("choice.no_answer");
    }

    @Test
    void reference_object_form_with_answer_field_is_accepted() {
        assertThat(choice("{\"answer\": \"B\"}", "B").status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void expected_that_is_not_a_letter_is_rejected_at_create_time_naming_the_field_as_the_case_gives_it() {
        assertThatThrownBy(() -> Judge.checker("choice", "\"BC\"")).isInstanceOfSatisfying(AssayException.class, e -> {
            assertThat(e.problem().type()).isEqualTo("check.invalid_expected");
            assertThat(e.problem().details()).containsEntry("field", "expected");
        });
        assertThatThrownBy(() -> Judge.checker("choice", "{\"answer\": \"BC\"}"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().details()).containsEntry("field", "answer"));
    }

    @Test
    void expected_letter_outside_the_options_is_rejected_at_create_time() {
        assertThatThrownBy(() -> Judge.checker("choice", "\"E\""))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("check.invalid_expected"));
    }

    @Test
    void unknown_option_in_object_form_is_rejected_at_create_time() {
        assertThatThrownBy(() -> Judge.checker("choice", "{\"answer\": \"B\", \"letter\": \"ABCDE\"}"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().details()).containsEntry("field", "letter"));
    }
}
