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

class ReplaceTextToolTest {
    @TempDir
    Path root;

    Workspace workspace;
    Path file;

    @BeforeEach
    void setUp() throws Exception {
        workspace = new Workspace(root.resolve("ws"));
        file = Files.writeString(workspace.root().resolve("replace.txt"), "hello world, hello moon\n");
    }

    @Test
    void replaces_every_match_and_reports_the_count() throws Exception {
        ToolResult result =
                call("replace_text", workspace, "{'path': 'replace.txt', 'pattern': 'hello', 'replacement': 'bye'}");

        assertThat(result.ok()).isTrue();
        assertThat(result.output()).startsWith("replaced 2 occurrences");
        assertThat(file).hasContent("bye world, bye moon\n");
    }

    @Test
    void replacement_can_use_captured_groups() throws Exception {
        call("replace_text", workspace, "{'path': 'replace.txt', 'pattern': 'hello (\\\\w+)', 'replacement': '$1!'}");

        assertThat(file).hasContent("world!, moon!\n");
    }

    @Test
    void no_match_reports_zero_and_leaves_the_file() throws Exception {
        long modified = Files.getLastModifiedTime(file).toMillis();

        ToolResult result =
                call("replace_text", workspace, "{'path': 'replace.txt', 'pattern': 'absent', 'replacement': 'x'}");

        assertThat(result.ok()).isTrue();
        assertThat(result.output()).startsWith("replaced 0 occurrences");
        assertThat(Files.getLastModifiedTime(file).toMillis()).isEqualTo(modified);
    }

    @Test
    void invalid_pattern_fails_and_leaves_the_file() throws Exception {
        ToolResult result =
                call("replace_text", workspace, "{'path': 'replace.txt', 'pattern': 'hello(', 'replacement': 'x'}");

        assertThat(result.error().type()).isEqualTo("replace.invalid_pattern");
        assertThat(file).hasContent("hello world, hello moon\n");
    }

    @Test
    void replacement_naming_a_missing_group_fails() throws Exception {
        ToolResult result =
                call("replace_text", workspace, "{'path': 'replace.txt', 'pattern': 'hello', 'replacement': '$3'}");

        assertThat(result.error().type()).isEqualTo("replace.invalid_replacement");
        assertThat(file).hasContent("hello world, hello moon\n");
    }

    @Test
    void missing_pattern_fails_naming_it() throws Exception {
        ToolResult result = call("replace_text", workspace, "{'path': 'replace.txt', 'replacement': 'x'}");

        assertThat(result.error().type()).isEqualTo("tool.invalid_args");
        assertThat(result.error().details()).containsEntry("argument", "pattern");
    }

    @Test
    void escaping_path_is_refused() throws Exception {
        ToolResult result =
                call("replace_text", workspace, "{'path': '../replace.txt', 'pattern': 'a', 'replacement': 'b'}");

        assertThat(result.error().type()).isEqualTo("workspace.escape");
    }

    @Test
    @Timeout(60)
    void catastrophic_pattern_fails_with_timeout_and_leaves_the_file_untouched() throws Exception {
        Files.writeString(file, "a".repeat(200));

        ToolResult result = new ReplaceTextTool(Duration.ofMillis(200))
                .call(
                        ToolTesting.args("{'path': 'replace.txt', 'pattern': '(.*a){12}b', 'replacement': 'x'}"),
                        workspace);

        assertThat(result.error().type()).isEqualTo("replace.timeout");
        assertThat(file).hasContent("a".repeat(200));
    }

    @Test
    void stack_exhausting_pattern_fails_as_too_complex() throws Exception {
        Files.writeString(file, "ab".repeat(200_000));

        ToolResult result =
                call("replace_text", workspace, "{'path': 'replace.txt', 'pattern': '^(a|b)*$', 'replacement': 'x'}");

        assertThat(result.error().type()).isEqualTo("replace.too_complex");
    }
}
