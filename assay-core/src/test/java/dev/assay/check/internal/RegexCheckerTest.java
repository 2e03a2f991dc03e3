package dev.assay.check.internal;

import static dev.assay.check.Judge.judgeAnswer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.check.Judge;
import dev.assay.check.Verdict;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegexCheckerTest {
    @TempDir
    Path workspace;

    @Test
    void pattern_found_anywhere_passes() {
        Verdict verdict = judgeAnswer("regex", "\"\\\\d{3}\"", "the code is 123 today", workspace);

        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(verdict.detail().get("match").asText()).isEqualTo("123");
    }

    @Test
    void the_detail_gives_the_matched_span_as_offsets_into_the_actual_answer() {
        Verdict verdict = judgeAnswer("regex", "\"\\\\d{3}\"", "the code is 123 today", workspace);

        assertThat(verdict.detail().get("match_start").asInt()).isEqualTo(12);
        assertThat(verdict.detail().get("match_end").asInt()).isEqualTo(15);
        assertThat(verdict.detail().get("actual").asText().substring(12, 15)).isEqualTo("123");
    }

    @Test
    void pattern_absent_fails_as_no_match() {
        assertThat(judgeAnswer("regex", "\"\\\\d{3}\"", "no digits", workspace).errorType())
                .isEqualTo("regex.no_match");
    }

    @Test
    void matching_is_case_sensitive_by_default() {
        assertThat(judgeAnswer("regex", "\"hello\"", "HELLO", workspace).errorType())
                .isEqualTo("regex.no_match");
    }

    @Test
    void inline_case_insensitive_flag_is_honoured() {
        assertThat(judgeAnswer("regex", "\"(?i)hello\"", "HELLO", workspace).status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void dot_does_not_cross_lines_without_dotall() {
        assertThat(judgeAnswer("regex", "\"a.b\"", "a\nb", workspace).errorType())
                .isEqualTo("regex.no_match");
    }

    @Test
    void inline_dotall_flag_lets_dot_cross_lines() {
        assertThat(judgeAnswer("regex", "\"(?s)^标题：.*主送机关：.*$\"", "标题：通知\n主送机关：各部门", workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void anchors_match_the_whole_answer_without_multiline() {
        assertThat(judgeAnswer("regex", "\"^second$\"", "first\nsecond", workspace)
                        .errorType())
                .isEqualTo("regex.no_match");
    }

    @Test
    void inline_multiline_flag_anchors_at_lines() {
        assertThat(judgeAnswer("regex", "\"(?m)^second$\"", "first\nsecond\nthird", workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void object_form_with_pattern_field_is_accepted() {
        assertThat(judgeAnswer("regex", "{\"pattern\": \"ok\"}", "ok", workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void catastrophic_backtracking_fails_with_timeout() {
        String answer = "a".repeat(200);

        assertThat(judgeAnswer("regex", "\"(.*a){12}b\"", answer, workspace).errorType())
                .isEqualTo("regex.timeout");
    }

    @Test
    void stack_exhausting_pattern_fails_as_too_complex() {
        String answer = "ab".repeat(200_000);

        assertThat(judgeAnswer("regex", "\"^(a|b)*$\"", answer, workspace).errorType())
                .isEqualTo("regex.too_complex");
    }

    @Test
    void invalid_pattern_is_rejected_at_create_time() {
        assertThatThrownBy(() -> Judge.checker("regex", "\"(unclosed\""))
                .isInstanceOfSatisfying(AssayException.class, e -> {
                    assertThat(e.problem().type()).isEqualTo("check.invalid_expected");
                    assertThat(e.problem().details()).containsEntry("field", "pattern");
                });
    }

    /** docs/checkers.md, difference R1: Rust's classes are Unicode; Java's are ASCII unless asked. */
    @Test
    void word_class_matches_chinese_text_as_in_the_reference() {
        assertThat(judgeAnswer("regex", "\"^\\\\w+$\"", "标题", workspace).status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void case_insensitive_flag_folds_accented_letters() {
        assertThat(judgeAnswer("regex", "\"(?i)^ÉTÉ$\"", "été", workspace).status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void digit_class_matches_full_width_digits_as_in_the_reference() {
        assertThat(judgeAnswer("regex", "\"^\\\\d+$\"", "１２３", workspace).status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void word_boundary_and_space_class_are_unicode_aware() {
        assertThat(judgeAnswer("regex", "\"\\\\bété\\\\b\"", "l'été", workspace).status())
                .isEqualTo(Verdict.Status.PASSED);
        assertThat(judgeAnswer("regex", "\"^a\\\\sb$\"", "a\u3000b", workspace).status())
                .isEqualTo(Verdict.Status.PASSED);
        assertThat(judgeAnswer("regex", "\"^\\\\w+$\"", "标题！", workspace).errorType())
                .isEqualTo("regex.no_match");
    }

    /** docs/checkers.md, difference R2: look-around is kept (an Assay extension the reference's Rust regex lacks). */
    @Test
    void look_ahead_is_supported() {
        assertThat(judgeAnswer("regex", "\"^(?=.*ok).+$\"", "ok", workspace).status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void an_invalid_pattern_with_on_invalid_fail_fails_only_its_case() {
        Verdict verdict =
                judgeAnswer("regex", "{\"pattern\": \"(unclosed\", \"on_invalid\": \"fail\"}", "unclosed", workspace);

        assertThat(verdict.errorType()).isEqualTo("regex.invalid_pattern");
        assertThat(verdict.detail().get("valid").asBoolean()).isFalse();
    }

    @Test
    void on_invalid_accepts_only_reject_or_fail() {
        assertThatThrownBy(() -> Judge.checker("regex", "{\"pattern\": \"x\", \"on_invalid\": \"skip\"}"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().details()).containsEntry("field", "on_invalid"));
    }

    /** docs/checkers.md, difference A1: a pattern that spells out the answer label matches the answer as written. */
    @Test
    void a_pattern_that_includes_the_answer_label_matches_the_labelled_answer() {
        Verdict verdict = judgeAnswer("regex", "\"^答案：B$\"", "答案：B", workspace);

        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(verdict.detail().get("actual").asText()).isEqualTo("答案：B");
        assertThat(judgeAnswer("regex", "\"^B$\"", "答案：B", workspace).status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void thinking_stays_out_of_every_reading() {
        assertThat(judgeAnswer("regex", "\"beta\"", "<think>beta?</think>Answer: alpha", workspace)
                        .errorType())
                .isEqualTo("regex.no_match");
    }
}
