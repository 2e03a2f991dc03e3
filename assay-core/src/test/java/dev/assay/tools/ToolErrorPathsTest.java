package dev.assay.tools;

import static dev.assay.tools.ToolTesting.call;
import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A failing file operation tells the model what failed, relative to the workspace, never where it lives. */
class ToolErrorPathsTest {
    @TempDir
    Path dir;

    private Workspace workspace;

    @BeforeEach
    void seed() throws Exception {
        workspace = new Workspace(dir.resolve("case-workspace"));
        Files.writeString(workspace.root().resolve("plain.txt"), "text\n");
        Files.createDirectories(workspace.root().resolve("folder"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', textBlock = """
            read_file    | {'path': 'folder'}
            read_file    | {'path': 'plain.txt/inner.txt'}
            write_file   | {'path': 'plain.txt/inner.txt', 'content': 'x'}
            write_file   | {'path': 'folder', 'content': 'x'}
            edit_file    | {'path': 'folder', 'old_text': 'a', 'new_text': 'b'}
            edit_file    | {'path': 'plain.txt/inner.txt', 'old_text': 'a', 'new_text': 'b'}
            replace_text | {'path': 'folder', 'pattern': 'a', 'replacement': 'b'}
            replace_text | {'path': 'plain.txt/inner.txt', 'pattern': 'a', 'replacement': 'b'}
            list_files   | {'path': 'plain.txt/inner'}
            search_files | {'pattern': 'a', 'path': 'plain.txt/inner'}
            """)
    void a_failed_file_operation_names_no_host_path(String tool, String arguments) throws Exception {
        ToolResult result = call(tool, workspace, arguments);

        assertThat(result.ok()).as("%s %s should fail", tool, arguments).isFalse();
        String shown = result.output() + Json.write(result.error());
        assertThat(shown)
                .doesNotContain(workspace.root().toString())
                .doesNotContain(dir.toString())
                .doesNotContain("Exception");
    }

    @Test
    void an_io_error_names_the_file_relative_to_the_workspace() throws Exception {
        ToolResult result = call("write_file", workspace, "{'path': 'plain.txt/inner.txt', 'content': 'x'}");

        assertThat(result.error().type()).isEqualTo("file.io_error");
        assertThat(result.error().message()).startsWith("plain.txt").doesNotContain(dir.toString());
    }
}
