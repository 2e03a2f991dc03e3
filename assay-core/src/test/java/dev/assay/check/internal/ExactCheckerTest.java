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

class ExactCheckerTest {
    @TempDir
    Path workspace;

    @Test
    void equal_text_passes() {
        assertThat(judgeAnswer("exact", "\"Paris\"", "Paris", workspace).status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void surrounding_whitespace_is_ignored() {
        assertThat(judgeAnswer("exact", "\" Paris \"", "\n Paris\n", workspace).status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void different_text_fails_as_mismatch() {
        Verdict verdict = judgeAnswer("exact", "\"Paris\"", "London", workspace);

        assertThat(verdict.errorType()).isEqualTo("exact.mismatch");
        assertThat(verdict.detail().get("actual").asText()).isEqualTo("London");
    }

    @Test
    void comparison_is_case_sensitive_by_default() {
        assertThat(judgeAnswer("exact", "\"Paris\"", "paris", workspace).errorType())
                .isEqualTo("exact.mismatch");
    }

    @Test
    void ignore_case_option_compares_without_case() {
        assertThat(judgeAnswer("exact", "{\"answer\": \"Paris\", \"ignore_case\": true}", "PARIS", workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void crlf_line_endings_equal_lf() {
        assertThat(judgeAnswer("exact", "\"line1\\nline2\"", "line1\r\nline2", workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void decomposed_accent_equals_precomposed_accent() {
        assertThat(judgeAnswer("exact", "\"caf\u00e9\"", "cafe\u0301", workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void fold_whitespace_option_treats_runs_of_spaces_as_one() {
        assertThat(judgeAnswer("exact", "{\"answer\": \"a b c\", \"fold_whitespace\": true}", "a  b\n\tc", workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void answer_label_is_not_part_of_the_answer() {
        assertThat(judgeAnswer("exact", "\"42\"", "Final Answer: 42", workspace).status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    /** docs/checkers.md, difference A1: an expectation that includes the label is met by the answer as written. */
    @Test
    void an_expectation_that_includes_the_label_matches_the_labelled_answer() {
        Verdict verdict = judgeAnswer("exact", "\"答案：B\"", "答案：B", workspace);

        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(verdict.detail().get("actual").asText()).isEqualTo("答案：B");
    }

    @Test
    void a_label_kept_reading_does_not_let_thinking_in() {
        assertThat(judgeAnswer("exact", "\"Paris\"", "<think>Paris?</think>Answer: Lyon", workspace)
                        .errorType())
                .isEqualTo("exact.mismatch");
    }

    @Test
    void expected_that_is_not_a_string_is_rejected_at_create_time() {
        assertThatThrownBy(() -> Judge.checker("exact", "42"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("check.invalid_expected"));
    }
}
