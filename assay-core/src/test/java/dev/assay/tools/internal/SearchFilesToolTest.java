package dev.assay.tools.internal;

import static dev.assay.tools.ToolTesting.call;
import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.tools.ToolResult;
import dev.assay.tools.ToolTesting;
import dev.assay.tools.Workspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class SearchFilesToolTest {
    @TempDir
    Path root;

    Workspace workspace;

    @BeforeEach
    void setUp() throws Exception {
        workspace = new Workspace(root.resolve("ws"));
        Path list = Files.createDirectories(workspace.root().resolve("fixtures/list"));
        Files.writeString(workspace.root().resolve("fixtures/alpha.txt"), "alpha beta gamma\n");
        Files.writeString(list.resolve("a.txt"), "alpha\nnothing\n");
        Files.writeString(list.resolve("b.txt"), "beta\n");
    }

    @Test
    void lists_matching_lines_as_path_line_text_in_path_order() throws Exception {
        ToolResult result = call("search_files", workspace, "{'pattern': 'alpha'}");

        assertThat(result.ok()).isTrue();
        assertThat(result.output().lines())
                .containsExactly("fixtures/alpha.txt:1: alpha beta gamma", "fixtures/list/a.txt:1: alpha");
    }

    @Test
    void pattern_is_a_regular_expression() throws Exception {
        ToolResult result = call("search_files", workspace, "{'pattern': '^b.ta$'}");

        assertThat(result.output().lines()).containsExactly("fixtures/list/b.txt:1: beta");
    }

    @Test
    void search_is_limited_to_the_given_directory() throws Exception {
        ToolResult result = call("search_files", workspace, "{'pattern': 'h', 'path': 'fixtures/list'}");

        assertThat(result.output().lines())
                .containsExactly("fixtures/list/a.txt:1: alpha", "fixtures/list/a.txt:2: nothing");
    }

    @Test
    void path_may_name_a_single_file() throws Exception {
        ToolResult result = call("search_files", workspace, "{'pattern': 'nothing', 'path': 'fixtures/list/a.txt'}");

        assertThat(result.output().lines()).containsExactly("fixtures/list/a.txt:2: nothing");
    }

    @Test
    void no_match_is_a_successful_empty_search() throws Exception {
        ToolResult result = call("search_files", workspace, "{'pattern': 'omega'}");

        assertThat(result.ok()).isTrue();
        assertThat(result.output()).isEqualTo("no matches");
    }

    @Test
    void binary_files_are_skipped() throws Exception {
        Files.write(workspace.root().resolve("blob.bin"), new byte[] {'a', 'l', 'p', 'h', 'a', 0, 1});

        ToolResult result = call("search_files", workspace, "{'pattern': 'alpha'}");

        assertThat(result.output()).doesNotContain("blob.bin");
    }

    @Test
    void files_behind_symlinks_are_not_searched() throws Exception {
        Path outside = Files.writeString(root.resolve("secret.txt"), "alpha secret\n");
        Files.createSymbolicLink(workspace.root().resolve("leak.txt"), outside);

        ToolResult result = call("search_files", workspace, "{'pattern': 'secret'}");

        assertThat(result.output()).isEqualTo("no matches");
    }

    @Test
    void matches_are_capped_with_a_truncation_note() throws Exception {
        Files.writeString(workspace.root().resolve("many.txt"), "hit\n".repeat(SearchFilesTool.MAX_MATCHES + 50));

        ToolResult result = call("search_files", workspace, "{'pattern': 'hit', 'path': 'many.txt'}");

        assertThat(result.output().lines().filter(line -> line.startsWith("many.txt:")))
                .hasSize(SearchFilesTool.MAX_MATCHES);
        assertThat(result.output()).contains("[truncated: stopped after 200 matches]");
    }

    @Test
    void long_lines_are_shortened() throws Exception {
        Files.writeString(workspace.root().resolve("long.txt"), "hit" + "x".repeat(1000) + "\n");

        ToolResult result = call("search_files", workspace, "{'pattern': 'hit', 'path': 'long.txt'}");

        assertThat(result.output().strip())
                .hasSize("long.txt:1: ".length() + SearchFilesTool.MAX_LINE_CHARS + 6)
                .endsWith(" [...]");
    }

    @Test
    void invalid_pattern_fails() throws Exception {
        ToolResult result = call("search_files", workspace, "{'pattern': '[unclosed'}");

        assertThat(result.error().type()).isEqualTo("search.invalid_pattern");
    }

    @Test
    void missing_pattern_fails_naming_it() throws Exception {
        ToolResult result = call("search_files", workspace, "{'path': 'fixtures'}");

        assertThat(result.error().details()).containsEntry("argument", "pattern");
    }

    @Test
    void missing_directory_fails_with_not_found() throws Exception {
        ToolResult result = call("search_files", workspace, "{'pattern': 'a', 'path': 'nowhere'}");

        assertThat(result.error().type()).isEqualTo("file.not_found");
    }

    @Test
    void escaping_path_is_refused() throws Exception {
        ToolResult result = call("search_files", workspace, "{'pattern': 'a', 'path': '..'}");

        assertThat(result.error().type()).isEqualTo("workspace.escape");
    }

    @Test
    @Timeout(60)
    void catastrophic_pattern_fails_with_timeout_instead_of_holding_the_case() throws Exception {
        Files.writeString(workspace.root().resolve("long.txt"), "a".repeat(200) + "\n");

        ToolResult result = new SearchFilesTool(Duration.ofMillis(200))
                .call(ToolTesting.args("{'pattern': '(.*a){12}b', 'path': 'long.txt'}"), workspace);

        assertThat(result.error().type()).isEqualTo("search.timeout");
    }

    @Test
    void stack_exhausting_pattern_fails_as_too_complex() throws Exception {
        Files.writeString(workspace.root().resolve("long.txt"), "ab".repeat(200_000) + "\n");

        ToolResult result = call("search_files", workspace, "{'pattern': '^(a|b)*$', 'path': 'long.txt'}");

        assertThat(result.error().type()).isEqualTo("search.too_complex");
    }
}
