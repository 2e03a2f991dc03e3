package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

class OutputDirectoriesTest {
    @TempDir
    Path dir;

    @Test
    void an_out_directory_a_command_makes_is_owner_only_whatever_the_umask() throws IOException {
        Path out = dir.resolve("reports/today");

        OutputDirectories.requireWritable(new CommandLine(CommandSpec.create()), "--out", out);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out)))
                .isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out.getParent())))
                .isEqualTo("rwx------");
    }

    @Test
    void an_out_directory_that_exists_keeps_the_mode_its_owner_gave_it() throws IOException {
        Path out = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rwxr-xr-x"));

        OutputDirectories.requireWritable(new CommandLine(CommandSpec.create()), "--out", out);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out)))
                .isEqualTo("rwxr-xr-x");
    }
}
