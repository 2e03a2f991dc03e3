package dev.assay.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.transcript.TranscriptEvent.FinalAnswer;
import dev.assay.transcript.TranscriptEvent.ModelTurn;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnswerTextTest {
    @Test
    void null_text_gives_an_empty_answer() {
        assertThat(AnswerText.finalAnswer(null)).isEmpty();
    }

    @Test
    void plain_text_is_trimmed() {
        assertThat(AnswerText.finalAnswer("  Paris \n")).isEqualTo("Paris");
    }

    @Test
    void tool_call_block_is_removed() {
        assertThat(AnswerText.finalAnswer(
                        "Done.<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"a\"}}</tool_call>"))
                .isEqualTo("Done.");
    }

    @Test
    void tool_block_spanning_lines_is_removed() {
        assertThat(AnswerText.finalAnswer("<TOOL name=\"x\">\n{\"a\": 1}\n</TOOL>\nResult: 3"))
                .isEqualTo("Result: 3");
    }

    @Test
    void several_tool_call_blocks_are_removed_without_eating_the_text_between() {
        assertThat(AnswerText.finalAnswer("<tool_call>{}</tool_call>middle<tool_call>{}</tool_call>"))
                .isEqualTo("middle");
    }

    @Test
    void an_unclosed_tool_call_is_dropped_to_the_end() {
        assertThat(AnswerText.finalAnswer("Let me write it.\n<tool_call>{\"name\": \"write_file\", \"argum"))
                .isEqualTo("Let me write it.");
    }

    @Test
    void a_stray_closing_tool_tag_is_removed() {
        assertThat(AnswerText.finalAnswer("42</tool_call>")).isEqualTo("42");
    }

    @Test
    void think_block_is_removed() {
        assertThat(AnswerText.finalAnswer("<think>\nlet me think\n</think>\n\nParis"))
                .isEqualTo("Paris");
    }

    @Test
    void thinking_block_is_removed() {
        assertThat(AnswerText.finalAnswer("<thinking>hmm</thinking>Paris")).isEqualTo("Paris");
    }

    @Test
    void reasoning_before_a_lone_closing_think_tag_is_removed() {
        assertThat(AnswerText.finalAnswer("the template opened the tag, so this is reasoning</think>Paris"))
                .isEqualTo("Paris");
    }

    @Test
    void reasoning_after_a_lone_opening_think_tag_is_removed() {
        assertThat(AnswerText.finalAnswer("Paris<think>but maybe it is Lyon, let me chec"))
                .isEqualTo("Paris");
    }

    @Test
    void english_answer_label_is_removed() {
        assertThat(AnswerText.finalAnswer("Answer: 42")).isEqualTo("42");
    }

    @Test
    void final_answer_label_is_removed_case_insensitively() {
        assertThat(AnswerText.finalAnswer("FINAL ANSWER: 42")).isEqualTo("42");
    }

    @Test
    void the_answer_is_sentence_start_is_removed() {
        assertThat(AnswerText.finalAnswer("The answer is 42")).isEqualTo("42");
    }

    @Test
    void chinese_answer_label_with_full_width_colon_is_removed() {
        assertThat(AnswerText.finalAnswer("答案：巴黎")).isEqualTo("巴黎");
    }

    @Test
    void chinese_final_answer_label_is_removed() {
        assertThat(AnswerText.finalAnswer("最终答案是 巴黎")).isEqualTo("巴黎");
    }

    @Test
    void markdown_bold_label_is_removed() {
        assertThat(AnswerText.finalAnswer("**Answer:** 42")).isEqualTo("42");
    }

    @Test
    void markdown_heading_label_is_removed() {
        assertThat(AnswerText.finalAnswer("## Final Answer:\n42")).isEqualTo("42");
    }

    @Test
    void a_label_with_nothing_after_it_is_kept() {
        assertThat(AnswerText.finalAnswer("Answer:")).isEqualTo("Answer:");
    }

    @Test
    void a_label_in_the_middle_of_the_text_is_kept() {
        assertThat(AnswerText.finalAnswer("My answer: 42")).isEqualTo("My answer: 42");
    }

    @Test
    void a_word_starting_with_answer_is_not_a_label() {
        assertThat(AnswerText.finalAnswer("Answering is hard")).isEqualTo("Answering is hard");
    }

    @Test
    void markup_is_removed_before_the_label() {
        assertThat(AnswerText.finalAnswer("<think>x</think>\nAnswer: B<tool_call>{}</tool_call>"))
                .isEqualTo("B");
    }

    @Test
    void transcript_final_answer_prefers_the_final_answer_event() {
        var at = Instant.EPOCH;
        var transcript = new Transcript(List.of(
                new ModelTurn(at, "draft", "", null),
                new FinalAnswer(at, "Answer: 7"),
                new ModelTurn(at, "", "", null)));

        assertThat(transcript.finalAnswer()).isEqualTo("7");
    }
}
