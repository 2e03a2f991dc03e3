package dev.assay.check.internal;

import static dev.assay.check.Judge.judgeAnswer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.check.Judge;
import dev.assay.check.Verdict;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContainsCheckerTest {
    @TempDir
    Path workspace;

    @Test
    void present_fragment_passes() {
        assertThat(judgeAnswer("contains", "\"beta\"", "alpha beta gamma", workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void absent_fragment_fails_as_missing() {
        Verdict verdict = judgeAnswer("contains", "\"delta\"", "alpha beta gamma", workspace);

        assertThat(verdict.errorType()).isEqualTo("contains.missing");
        assertThat(verdict.detail().get("missing").get(0).asText()).isEqualTo("delta");
    }

    @Test
    void the_detail_gives_where_each_found_fragment_occurs_in_the_answer_as_written() {
        Verdict verdict = judgeAnswer(
                "contains",
                "{\"text\": [\"BETA  gamma\", \"delta\", \"alpha\"], \"ignore_case\": true, \"fold_whitespace\": true}",
                "alpha beta\r\n gamma",
                workspace);

        JsonNode spans = verdict.detail().get("spans");
        assertThat(spans).hasSize(2);
        assertThat(spans.get(0).get("fragment").asText()).isEqualTo("BETA  gamma");
        assertThat(spans.get(0).get("start").asInt()).isEqualTo(6);
        assertThat(spans.get(0).get("end").asInt()).isEqualTo(18);
        assertThat(spans.get(1).get("fragment").asText()).isEqualTo("alpha");
        assertThat(spans.get(1).get("start").asInt()).isZero();
    }

    @Test
    void a_line_break_of_a_fragment_marks_a_crlf_of_the_answer() {
        Verdict verdict = judgeAnswer("contains", "\"a\\nb\"", "x a\r\nb", workspace);

        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(verdict.detail().get("spans").get(0).get("start").asInt()).isEqualTo(2);
        assertThat(verdict.detail().get("spans").get(0).get("end").asInt()).isEqualTo(6);
    }

    @Test
    void every_fragment_of_a_list_is_required() {
        Verdict verdict = judgeAnswer("contains", "[\"alpha\", \"delta\"]", "alpha beta gamma", workspace);

        assertThat(verdict.errorType()).isEqualTo("contains.missing");
        assertThat(verdict.detail().get("missing")).hasSize(1);
    }

    @Test
    void a_list_whose_fragments_are_all_present_passes() {
        assertThat(judgeAnswer("contains", "[\"alpha\", \"gamma\"]", "alpha beta gamma", workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void matching_is_case_sensitive_by_default() {
        assertThat(judgeAnswer("contains", "\"Beta\"", "alpha beta", workspace).errorType())
                .isEqualTo("contains.missing");
    }

    @Test
    void ignore_case_option_matches_any_case() {
        assertThat(judgeAnswer("contains", "{\"text\": [\"Beta\"], \"ignore_case\": true}", "ALPHA BETA", workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    /** docs/checkers.md, difference A1: a fragment in the label is found in the answer as written. */
    @Test
    void a_fragment_that_is_the_answer_label_is_found() {
        assertThat(judgeAnswer("contains", "\"答案：\"", "答案：B", workspace).status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    /**
     * docs/checkers.md, difference A1: think blocks are not part of the answer (Assay's choice; the reference passes).
     */
    @Test
    void a_fragment_only_in_the_thinking_is_missing() {
        assertThat(judgeAnswer("contains", "\"beta\"", "<think>beta?</think>alpha", workspace)
                        .errorType())
                .isEqualTo("contains.missing");
    }

    @Test
    void empty_list_is_rejected_at_create_time() {
        assertThatThrownBy(() -> Judge.checker("contains", "[]"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("check.invalid_expected"));
    }
}
