package dev.assay.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WholeFilesTest {
    @TempDir
    Path dir;

    @Test
    void a_file_is_written_whole_in_directories_made_for_it_and_replaced_whole() throws IOException {
        Path file = dir.resolve("a/b/report.json");

        WholeFiles.write(file, out -> out.write("first".getBytes(StandardCharsets.UTF_8)));
        WholeFiles.writeSynced(file, out -> out.write("second".getBytes(StandardCharsets.UTF_8)));

        assertThat(file).hasContent("second");
        try (var files = Files.list(file.getParent())) {
            assertThat(files).containsExactly(file);
        }
    }

    @Test
    void the_directories_made_for_a_file_and_the_file_are_owner_only_whatever_the_umask() throws IOException {
        Path file = dir.resolve("out/nested/report.json");

        WholeFiles.write(file, out -> out.write("x".getBytes(StandardCharsets.UTF_8)));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("out"))))
                .isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())))
                .isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
    }

    @Test
    void a_write_that_fails_half_way_leaves_the_file_as_it_was_and_no_part_of_it() throws IOException {
        Path file = dir.resolve("report.json");
        WholeFiles.write(file, out -> out.write("whole".getBytes(StandardCharsets.UTF_8)));

        assertThatThrownBy(() -> WholeFiles.write(file, out -> {
                    out.write("half".getBytes(StandardCharsets.UTF_8));
                    throw new IOException("disk full");
                }))
                .hasMessage("disk full");

        assertThat(file).hasContent("whole");
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(file);
        }
    }
}
