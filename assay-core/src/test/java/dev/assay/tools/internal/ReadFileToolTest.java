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

class ReadFileToolTest {
    @TempDir
    Path root;

    Workspace workspace;

    @BeforeEach
    void setUp() {
        workspace = new Workspace(root.resolve("ws"));
    }

    @Test
    void returns_the_content_of_a_text_file() throws Exception {
        Files.writeString(workspace.root().resolve("notes.txt"), "alpha beta gamma\n中文\n");

        ToolResult result = call("read_file", workspace, "{'path': 'notes.txt'}");

        assertThat(result.ok()).isTrue();
        assertThat(result.output()).isEqualTo("alpha beta gamma\n中文\n");
    }

    @Test
    void missing_file_fails_with_not_found() throws Exception {
        ToolResult result = call("read_file", workspace, "{'path': 'nope.txt'}");

        assertThat(result.ok()).isFalse();
        assertThat(result.error().type()).isEqualTo("file.not_found");
        assertThat(result.error().details()).containsEntry("path", "nope.txt");
    }

    @Test
    void directory_fails_with_is_directory() throws Exception {
        Files.createDirectories(workspace.root().resolve("sub"));

        ToolResult result = call("read_file", workspace, "{'path': 'sub'}");

        assertThat(result.error().type()).isEqualTo("file.is_directory");
    }

    @Test
    void file_with_nul_bytes_is_refused_as_binary() throws Exception {
        Files.write(workspace.root().resolve("image.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 0, 1});

        ToolResult result = call("read_file", workspace, "{'path': 'image.png'}");

        assertThat(result.error().type()).isEqualTo("file.binary");
    }

    @Test
    void file_that_is_not_utf8_is_refused_as_binary() throws Exception {
        Files.write(workspace.root().resolve("latin1.txt"), new byte[] {'c', 'a', 'f', (byte) 0xE9});

        ToolResult result = call("read_file", workspace, "{'path': 'latin1.txt'}");

        assertThat(result.error().type()).isEqualTo("file.binary");
    }

    @Test
    void large_file_is_cut_at_64_kib_with_a_truncation_note() throws Exception {
        Files.writeString(workspace.root().resolve("big.txt"), "x".repeat(100_000));

        ToolResult result = call("read_file", workspace, "{'path': 'big.txt'}");

        assertThat(result.ok()).isTrue();
        assertThat(result.output())
                .startsWith("x".repeat(65_536))
                .doesNotContain("x".repeat(65_537))
                .endsWith("[truncated: showing the first 65536 of 100000 bytes]");
    }

    @Test
    void cut_through_a_multibyte_character_still_reads_as_text() throws Exception {
        // 65535 ASCII bytes then a 3-byte character: the 64 KiB cut splits it.
        Files.writeString(workspace.root().resolve("cut.txt"), "a".repeat(65_535) + "中中");

        ToolResult result = call("read_file", workspace, "{'path': 'cut.txt'}");

        assertThat(result.ok()).isTrue();
        assertThat(result.output()).contains("[truncated: showing the first 65535 of 65541 bytes]");
    }

    @Test
    void missing_path_argument_fails_naming_it() throws Exception {
        ToolResult result = call("read_file", workspace, "{}");

        assertThat(result.error().type()).isEqualTo("tool.invalid_args");
        assertThat(result.error().details()).containsEntry("argument", "path");
    }

    @Test
    void path_that_is_an_object_fails_with_invalid_args() throws Exception {
        ToolResult result = call("read_file", workspace, "{'path': {'name': 'a.txt'}}");

        assertThat(result.error().type()).isEqualTo("tool.invalid_args");
        assertThat(result.error().details()).containsEntry("argument", "path");
    }

    @Test
    void arguments_that_are_not_an_object_fail_with_invalid_args() throws Exception {
        ToolResult result = ToolTesting.tool("read_file").call(ToolTesting.args("'notes.txt'"), workspace);

        assertThat(result.error().type()).isEqualTo("tool.invalid_args");
    }

    @Test
    void null_arguments_fail_with_invalid_args() throws Exception {
        ToolResult result = ToolTesting.tool("read_file").call(null, workspace);

        assertThat(result.error().type()).isEqualTo("tool.invalid_args");
    }

    @Test
    void parent_directory_escape_is_refused() throws Exception {
        Files.writeString(root.resolve("secret.txt"), "secret");

        ToolResult result = call("read_file", workspace, "{'path': '../secret.txt'}");

        assertThat(result.error().type()).isEqualTo("workspace.escape");
    }

    @Test
    void absolute_path_is_refused() throws Exception {
        Path secret = Files.writeString(root.resolve("secret.txt"), "secret");

        ToolResult result = ToolTesting.tool("read_file").call(Json.object().put("path", secret.toString()), workspace);

        assertThat(result.error().type()).isEqualTo("workspace.escape");
    }

    @Test
    void symlink_pointing_out_of_the_workspace_is_refused() throws Exception {
        Path secret = Files.writeString(root.resolve("secret.txt"), "secret");
        Files.createSymbolicLink(workspace.root().resolve("link.txt"), secret);

        ToolResult result = call("read_file", workspace, "{'path': 'link.txt'}");

        assertThat(result.error().type()).isEqualTo("workspace.escape");
    }

    @Test
    void file_below_a_symlinked_directory_pointing_out_is_refused() throws Exception {
        Files.writeString(Files.createDirectories(root.resolve("outside")).resolve("secret.txt"), "secret");
        Files.createSymbolicLink(workspace.root().resolve("dir"), root.resolve("outside"));

        ToolResult result = call("read_file", workspace, "{'path': 'dir/secret.txt'}");

        assertThat(result.error().type()).isEqualTo("workspace.escape");
    }

    @Test
    void symlink_inside_the_workspace_is_followed() throws Exception {
        Files.writeString(workspace.root().resolve("real.txt"), "inside");
        Files.createSymbolicLink(
                workspace.root().resolve("alias.txt"), workspace.root().resolve("real.txt"));

        ToolResult result = call("read_file", workspace, "{'path': 'alias.txt'}");

        assertThat(result.output()).isEqualTo("inside");
    }
}
