package dev.assay.check;

import static dev.assay.check.Judge.call;
import static dev.assay.check.Judge.judge;
import static dev.assay.check.Judge.judgeAnswer;
import static dev.assay.check.Judge.transcript;
import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.check.internal.WorkspaceFiles;
import dev.assay.transcript.Transcript;
import dev.assay.transcript.TranscriptEvent.ModelTurn;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The differences from the reference server where Assay keeps its own verdict (docs/checkers.md, "Differences from the
 * reference server"), each with the input from docs/checkers.md, "Differences from the reference server" that flips it.
 * The differences where Assay follows the reference are pinned in the tests of their checkers.
 */
class ReferenceDifferencesTest {
    @TempDir
    Path workspace;

    private void write(String relative, byte[] content) throws IOException {
        Path file = workspace.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.write(file, content);
    }

    private void write(String relative, String content) throws IOException {
        write(relative, content.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void a2_a_trailing_line_break_does_not_defeat_an_anchored_pattern() {
        assertThat(judgeAnswer("regex", "\"(?s)^标题：.+。$\"", "标题：通知。\n", workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void a3_without_a_final_event_an_empty_last_turn_does_not_hide_the_answer_before_it() {
        Instant at = Instant.EPOCH;
        Transcript turns = transcript(new ModelTurn(at, "B", "", null), new ModelTurn(at, "", "", null));

        assertThat(judge("choice", "\"B\"", turns, workspace).status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void t1_common_names_and_other_spellings_of_a_tool_are_that_tool() {
        var calls = transcript(call("c1", "read", "{}"), call("c2", "bash", "{}"), call("c3", "Write_File", "{}"));

        assertThat(judge("tool_called", "[\"read_file\", \"execute_command\", \"write_file\"]", calls, workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void f2_a_colon_and_a_dot_dot_that_stays_inside_are_valid_paths() throws IOException {
        write("out/a:b.txt", "x");
        write("out/k.txt", "x");

        assertThat(judge("file_exists", "\"out/a:b.txt\"", Transcript.EMPTY, workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
        assertThat(judge("file_exists", "\"out/../out/k.txt\"", Transcript.EMPTY, workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void f3_a_text_file_over_16_mib_is_not_read() throws IOException {
        write("big.txt", "x");
        try (var file = new RandomAccessFile(workspace.resolve("big.txt").toFile(), "rw")) {
            file.setLength(WorkspaceFiles.MAX_TEXT_BYTES + 1);
        }

        assertThat(judge("file_contains", "{\"path\": \"big.txt\", \"contains\": \"x\"}", Transcript.EMPTY, workspace)
                        .errorType())
                .isEqualTo("file.too_large");
    }

    @Test
    void f4_text_with_a_nul_byte_is_binary() throws IOException {
        write("nul.txt", "a\0b beta");

        assertThat(judge(
                                "file_contains",
                                "{\"path\": \"nul.txt\", \"contains\": \"beta\"}",
                                Transcript.EMPTY,
                                workspace)
                        .errorType())
                .isEqualTo("file.binary");
    }

    @Test
    void f5_a_leading_byte_order_mark_does_not_spoil_a_json_file() throws IOException {
        write("r.json", "\uFEFF{\"a\": 1}");

        assertThat(judge(
                                "json_contains",
                                "{\"path\": \"r.json\", \"required\": {\"a\": 1}}",
                                Transcript.EMPTY,
                                workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void f6_large_integers_are_compared_exactly_and_three_equals_three_point_zero() throws IOException {
        write("n.json", "{\"n\": 18446744073709551615, \"m\": 3}");

        assertThat(judge(
                                "json_contains",
                                "{\"path\": \"n.json\", \"required\": {\"n\": 18446744073709551614}}",
                                Transcript.EMPTY,
                                workspace)
                        .status())
                .isNotEqualTo(Verdict.Status.PASSED);
        assertThat(judge(
                                "json_contains",
                                "{\"path\": \"n.json\", \"required\": {\"m\": 3.0}}",
                                Transcript.EMPTY,
                                workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }
}
