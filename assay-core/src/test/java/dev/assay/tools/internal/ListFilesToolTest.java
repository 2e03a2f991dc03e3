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

class ListFilesToolTest {
    @TempDir
    Path root;

    Workspace workspace;

    @BeforeEach
    void setUp() throws Exception {
        workspace = new Workspace(root.resolve("ws"));
        Path list = Files.createDirectories(workspace.root().resolve("fixtures/list"));
        Files.writeString(workspace.root().resolve("fixtures/alpha.txt"), "alpha\n");
        Files.writeString(list.resolve("b.txt"), "b\n");
        Files.writeString(list.resolve("a.txt"), "a\n");
        Files.createDirectories(workspace.root().resolve("outputs"));
    }

    @Test
    void lists_everything_below_the_workspace_sorted_with_directories_marked() throws Exception {
        ToolResult result = call("list_files", workspace, "{}");

        assertThat(result.output().lines())
                .containsExactly(
                        "fixtures/",
                        "fixtures/alpha.txt",
                        "fixtures/list/",
                        "fixtures/list/a.txt",
                        "fixtures/list/b.txt",
                        "outputs/");
    }

    @Test
    void lists_below_a_given_directory_with_workspace_relative_paths() throws Exception {
        ToolResult result = call("list_files", workspace, "{'path': 'fixtures/list'}");

        assertThat(result.output().lines()).containsExactly("fixtures/list/a.txt", "fixtures/list/b.txt");
    }

    @Test
    void empty_directory_says_so() throws Exception {
        ToolResult result = call("list_files", workspace, "{'path': 'outputs'}");

        assertThat(result.ok()).isTrue();
        assertThat(result.output()).isEqualTo("(empty directory)");
    }

    @Test
    void directories_deeper_than_the_limit_are_listed_but_not_entered() throws Exception {
        Files.createDirectories(workspace.root().resolve("d1/d2/d3/d4/d5"));
        Files.writeString(workspace.root().resolve("d1/d2/d3/d4/d5/deep.txt"), "x");

        ToolResult result = call("list_files", workspace, "{'path': 'd1'}");

        assertThat(result.output().lines()).containsExactly("d1/d2/", "d1/d2/d3/", "d1/d2/d3/d4/", "d1/d2/d3/d4/d5/");
    }

    @Test
    void git_directory_is_listed_but_not_entered() throws Exception {
        Files.createDirectories(workspace.root().resolve("repo/.git/objects"));

        ToolResult result = call("list_files", workspace, "{'path': 'repo'}");

        assertThat(result.output().lines()).containsExactly("repo/.git/");
    }

    @Test
    void symlinked_directory_is_listed_but_not_followed() throws Exception {
        Files.writeString(Files.createDirectories(root.resolve("outside")).resolve("secret.txt"), "s");
        Files.createSymbolicLink(workspace.root().resolve("outputs/link"), root.resolve("outside"));

        ToolResult result = call("list_files", workspace, "{'path': 'outputs'}");

        assertThat(result.output().lines()).containsExactly("outputs/link");
    }

    @Test
    void entries_are_capped_with_a_truncation_note() throws Exception {
        Path many = Files.createDirectories(workspace.root().resolve("many"));
        for (int i = 0; i < ListFilesTool.MAX_ENTRIES + 10; i++) {
            Files.writeString(many.resolve("f%04d.txt".formatted(i)), "");
        }

        ToolResult result = call("list_files", workspace, "{'path': 'many'}");

        assertThat(result.output().lines().filter(line -> line.startsWith("many/")))
                .hasSize(ListFilesTool.MAX_ENTRIES);
        assertThat(result.output()).contains("[truncated: showing the first 500 of 510 entries]");
    }

    @Test
    void a_file_is_not_a_directory() throws Exception {
        ToolResult result = call("list_files", workspace, "{'path': 'fixtures/alpha.txt'}");

        assertThat(result.error().type()).isEqualTo("file.not_directory");
    }

    @Test
    void missing_directory_fails_with_not_found() throws Exception {
        ToolResult result = call("list_files", workspace, "{'path': 'nowhere'}");

        assertThat(result.error().type()).isEqualTo("file.not_found");
    }

    @Test
    void absolute_path_is_refused() throws Exception {
        ToolResult result = call("list_files", workspace, "{'path': '/etc'}");

        assertThat(result.error().type()).isEqualTo("workspace.escape");
    }
}
