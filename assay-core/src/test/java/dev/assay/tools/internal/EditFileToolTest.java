package dev.assay.tools.internal;

import static dev.assay.tools.ToolTesting.call;
import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.tools.ToolResult;
import dev.assay.tools.Workspace;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EditFileToolTest {
    @TempDir
    Path root;

    Workspace workspace;
    Path file;

    @BeforeEach
    void setUp() throws Exception {
        workspace = new Workspace(root.resolve("ws"));
        file = Files.writeString(workspace.root().resolve("edit.txt"), "line1\nline2\nline2 again\n");
    }

    @Test
    void replaces_a_unique_snippet() throws Exception {
        ToolResult result =
                call("edit_file", workspace, "{'path': 'edit.txt', 'old_text': 'line1', 'new_text': 'first'}");

        assertThat(result.ok()).isTrue();
        assertThat(file).hasContent("first\nline2\nline2 again\n");
    }

    @Test
    void snippet_that_does_not_occur_fails_with_no_match() throws Exception {
        ToolResult result = call("edit_file", workspace, "{'path': 'edit.txt', 'old_text': 'line9', 'new_text': 'x'}");

        assertThat(result.error().type()).isEqualTo("edit.no_match");
        assertThat(result.error().details()).containsEntry("occurrences", 0);
    }

    @Test
    void snippet_that_occurs_several_times_fails_as_ambiguous_and_leaves_the_file() throws Exception {
        ToolResult result = call("edit_file", workspace, "{'path': 'edit.txt', 'old_text': 'line2', 'new_text': 'x'}");

        assertThat(result.error().type()).isEqualTo("edit.ambiguous");
        assertThat(result.error().details()).containsEntry("occurrences", 2);
        assertThat(file).hasContent("line1\nline2\nline2 again\n");
    }

    @Test
    void overlapping_occurrences_count_as_ambiguous() throws Exception {
        Files.writeString(file, "aaa");

        ToolResult result = call("edit_file", workspace, "{'path': 'edit.txt', 'old_text': 'aa', 'new_text': 'b'}");

        assertThat(result.error().type()).isEqualTo("edit.ambiguous");
    }

    @Test
    void snippet_made_unique_with_context_is_replaced() throws Exception {
        ToolResult result =
                call("edit_file", workspace, "{'path': 'edit.txt', 'old_text': 'line2\\n', 'new_text': 'second\\n'}");

        assertThat(result.ok()).isTrue();
        assertThat(file).hasContent("line1\nsecond\nline2 again\n");
    }

    @Test
    void empty_new_text_deletes_the_snippet() throws Exception {
        call("edit_file", workspace, "{'path': 'edit.txt', 'old_text': 'line1\\n', 'new_text': ''}");

        assertThat(file).hasContent("line2\nline2 again\n");
    }

    @Test
    void empty_old_text_fails_with_invalid_args() throws Exception {
        ToolResult result = call("edit_file", workspace, "{'path': 'edit.txt', 'old_text': '', 'new_text': 'x'}");

        assertThat(result.error().type()).isEqualTo("tool.invalid_args");
        assertThat(result.error().details()).containsEntry("argument", "old_text");
    }

    @Test
    void missing_new_text_fails_naming_it() throws Exception {
        ToolResult result = call("edit_file", workspace, "{'path': 'edit.txt', 'old_text': 'line1'}");

        assertThat(result.error().details()).containsEntry("argument", "new_text");
    }

    @Test
    void missing_file_fails_with_not_found() throws Exception {
        ToolResult result = call("edit_file", workspace, "{'path': 'gone.txt', 'old_text': 'a', 'new_text': 'b'}");

        assertThat(result.error().type()).isEqualTo("file.not_found");
    }

    @Test
    void binary_file_is_not_edited() throws Exception {
        Files.write(file, new byte[] {'a', 0, 'b'});

        ToolResult result = call("edit_file", workspace, "{'path': 'edit.txt', 'old_text': 'a', 'new_text': 'b'}");

        assertThat(result.error().type()).isEqualTo("file.binary");
    }

    @Test
    void file_over_the_text_size_limit_is_not_edited() throws Exception {
        Files.write(file, new byte[(int) TextFiles.MAX_TEXT_BYTES + 1]);

        ToolResult result = call("edit_file", workspace, "{'path': 'edit.txt', 'old_text': 'a', 'new_text': 'b'}");

        assertThat(result.error().type()).isEqualTo("file.too_large");
    }
}
