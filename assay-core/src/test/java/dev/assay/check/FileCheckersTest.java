package dev.assay.check;

import static dev.assay.check.Judge.judge;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.transcript.Transcript;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code file_exists} and {@code file_contains}, which share the workspace rules. */
class FileCheckersTest {
    @TempDir
    Path root;

    @TempDir
    Path outside;

    private Path workspace() {
        return root.resolve("ws");
    }

    private void write(String relative, String content) throws IOException {
        Path file = workspace().resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.UTF_8);
    }

    private Verdict fileExists(String expected) {
        return judge("file_exists", expected, Transcript.EMPTY, workspace());
    }

    private Verdict fileContains(String expected) {
        return judge("file_contains", expected, Transcript.EMPTY, workspace());
    }

    @Test
    void an_existing_file_passes() throws IOException {
        write("out/report.txt", "done");

        Verdict verdict = fileExists("\"out/report.txt\"");

        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(verdict.detail().get("size").asLong()).isEqualTo(4);
    }

    @Test
    void a_missing_file_fails_as_not_found() {
        assertThat(fileExists("\"out/report.txt\"").errorType()).isEqualTo("file.not_found");
    }

    @Test
    void a_directory_is_not_a_file_by_default() throws IOException {
        Files.createDirectories(workspace().resolve("out/dir"));

        assertThat(fileExists("\"out/dir\"").errorType()).isEqualTo("file.not_regular");
    }

    @Test
    void type_directory_accepts_a_directory() throws IOException {
        Files.createDirectories(workspace().resolve("out/dir"));

        assertThat(fileExists("{\"path\": \"out/dir\", \"type\": \"directory\"}")
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void type_directory_refuses_a_file() throws IOException {
        write("out/file", "x");

        assertThat(fileExists("{\"path\": \"out/file\", \"type\": \"directory\"}")
                        .errorType())
                .isEqualTo("file.not_directory");
    }

    @Test
    void a_parent_escape_fails_as_workspace_escape() throws IOException {
        Files.writeString(root.resolve("secret.txt"), "s");

        assertThat(fileExists("\"../secret.txt\"").errorType()).isEqualTo("workspace.escape");
    }

    @Test
    void an_absolute_path_fails_as_workspace_escape() throws IOException {
        Path secret = Files.writeString(outside.resolve("secret.txt"), "s");

        assertThat(fileExists(dev.assay.Json.write(secret.toString())).errorType())
                .isEqualTo("workspace.escape");
    }

    @Test
    void a_symlink_pointing_outside_fails_as_workspace_escape() throws IOException {
        Path secret = Files.writeString(outside.resolve("secret.txt"), "password");
        Files.createDirectories(workspace());
        Files.createSymbolicLink(workspace().resolve("link.txt"), secret);

        assertThat(fileContains("{\"path\": \"link.txt\", \"contains\": \"password\"}")
                        .errorType())
                .isEqualTo("workspace.escape");
    }

    @Test
    void a_file_containing_the_text_passes() throws IOException {
        write("out/summary.txt", "alpha beta gamma\n");

        assertThat(fileContains("{\"path\": \"out/summary.txt\", \"contains\": \"beta\"}")
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void reference_text_field_is_accepted() throws IOException {
        write("out/summary.txt", "alpha beta gamma\n");

        assertThat(fileContains("{\"path\": \"out/summary.txt\", \"text\": \"beta\"}")
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void a_file_lacking_a_fragment_fails_as_missing() throws IOException {
        write("out/summary.txt", "alpha beta\n");
        Verdict verdict = fileContains("{\"path\": \"out/summary.txt\", \"contains\": [\"alpha\", \"gamma\"]}");

        assertThat(verdict.errorType()).isEqualTo("file_contains.missing");
        assertThat(verdict.detail().get("missing").get(0).asText()).isEqualTo("gamma");
    }

    @Test
    void a_missing_file_to_search_fails_as_not_found() {
        assertThat(fileContains("{\"path\": \"nope.txt\", \"contains\": \"x\"}").errorType())
                .isEqualTo("file.not_found");
    }

    @Test
    void a_binary_file_fails_as_binary() throws IOException {
        Files.createDirectories(workspace());
        Files.write(workspace().resolve("heart.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 0, 0, 13});

        assertThat(fileContains("{\"path\": \"heart.png\", \"contains\": \"PNG\"}")
                        .errorType())
                .isEqualTo("file.binary");
    }

    @Test
    void invalid_utf8_fails_as_binary() throws IOException {
        Files.createDirectories(workspace());
        Files.write(workspace().resolve("latin1.txt"), new byte[] {'c', 'a', 'f', (byte) 0xE9});

        assertThat(fileContains("{\"path\": \"latin1.txt\", \"contains\": \"caf\"}")
                        .errorType())
                .isEqualTo("file.binary");
    }

    @Test
    void a_directory_to_search_fails_as_not_regular() throws IOException {
        Files.createDirectories(workspace().resolve("out"));

        assertThat(fileContains("{\"path\": \"out\", \"contains\": \"x\"}").errorType())
                .isEqualTo("file.not_regular");
    }

    @Test
    void file_contains_without_path_is_rejected_at_create_time() {
        assertThatThrownBy(() -> Judge.checker("file_contains", "{\"contains\": \"x\"}"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().details()).containsEntry("field", "path"));
    }

    @Test
    void file_exists_with_unknown_type_is_rejected_at_create_time() {
        assertThatThrownBy(() -> Judge.checker("file_exists", "{\"path\": \"a\", \"type\": \"socket\"}"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().details()).containsEntry("field", "type"));
    }
}
