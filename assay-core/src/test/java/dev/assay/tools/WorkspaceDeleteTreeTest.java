package dev.assay.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkspaceDeleteTreeTest {
    @TempDir
    Path temp;

    @Test
    void a_tree_is_deleted_and_a_link_out_of_it_is_removed_not_followed() throws Exception {
        Path outside = Files.writeString(temp.resolve("outside.txt"), "keep me");
        Path tree = temp.resolve("tree");
        Files.createDirectories(tree.resolve("a/b"));
        Files.writeString(tree.resolve("a/b/file.txt"), "x");
        Files.createSymbolicLink(tree.resolve("a/link"), outside);

        Workspace.deleteTree(tree);

        assertThat(tree).doesNotExist();
        assertThat(outside).hasContent("keep me");
    }

    @Test
    void a_missing_directory_is_nothing_to_do() {
        Workspace.deleteTree(temp.resolve("absent"));
        assertThat(temp.resolve("absent")).doesNotExist();
    }
}
