package dev.assay.tools.internal;

import static dev.assay.tools.ToolTesting.call;
import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import dev.assay.tools.ToolResult;
import dev.assay.tools.ToolTesting;
import dev.assay.tools.Workspace;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteFileToolTest {
    @TempDir
    Path root;

    Workspace workspace;

    @BeforeEach
    void setUp() {
        workspace = new Workspace(root.resolve("ws"));
    }

    @Test
    void creates_the_file_and_its_parent_directories() throws Exception {
        ToolResult result = call("write_file", workspace, "{'path': 'out/deep/report.md', 'content': '# 标题'}");

        assertThat(result.ok()).isTrue();
        assertThat(workspace.root().resolve("out/deep/report.md")).hasContent("# 标题");
    }

    @Test
    void overwrites_an_existing_file() throws Exception {
        Files.writeString(workspace.root().resolve("a.txt"), "old content that is longer");

        call("write_file", workspace, "{'path': 'a.txt', 'content': 'new'}");

        assertThat(workspace.root().resolve("a.txt")).hasContent("new");
    }

    @Test
    void empty_content_writes_an_empty_file() throws Exception {
        ToolResult result = call("write_file", workspace, "{'path': 'empty.txt', 'content': ''}");

        assertThat(result.ok()).isTrue();
        assertThat(workspace.root().resolve("empty.txt")).isEmptyFile();
    }

    @Test
    void content_given_as_a_json_object_is_written_as_json_text() throws Exception {
        var arguments = Json.object().put("path", "data.json");
        arguments.putObject("content").put("total", 3);

        ToolTesting.tool("write_file").call(arguments, workspace);

        assertThat(Json.parse(Files.readString(workspace.root().resolve("data.json")))
                        .get("total")
                        .asInt())
                .isEqualTo(3);
    }

    @Test
    void missing_content_fails_naming_it() throws Exception {
        ToolResult result = call("write_file", workspace, "{'path': 'a.txt'}");

        assertThat(result.error().type()).isEqualTo("tool.invalid_args");
        assertThat(result.error().details()).containsEntry("argument", "content");
        assertThat(workspace.root().resolve("a.txt")).doesNotExist();
    }

    @Test
    void writing_onto_a_directory_fails() throws Exception {
        Files.createDirectories(workspace.root().resolve("dir"));

        ToolResult result = call("write_file", workspace, "{'path': 'dir', 'content': 'x'}");

        assertThat(result.error().type()).isEqualTo("file.is_directory");
    }

    @Test
    void writing_outside_with_dot_dot_is_refused_and_writes_nothing() throws Exception {
        ToolResult result = call("write_file", workspace, "{'path': 'sub/../../evil.txt', 'content': 'x'}");

        assertThat(result.error().type()).isEqualTo("workspace.escape");
        assertThat(root.resolve("evil.txt")).doesNotExist();
    }

    @Test
    void writing_through_a_symlinked_directory_pointing_out_is_refused() throws Exception {
        Path outside = Files.createDirectories(root.resolve("outside"));
        Files.createSymbolicLink(workspace.root().resolve("out"), outside);

        ToolResult result = call("write_file", workspace, "{'path': 'out/new/evil.txt', 'content': 'x'}");

        assertThat(result.error().type()).isEqualTo("workspace.escape");
        assertThat(outside.resolve("new")).doesNotExist();
    }
}
