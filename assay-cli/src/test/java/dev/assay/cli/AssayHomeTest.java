package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AssayHomeTest {
    @TempDir
    Path temp;

    @Test
    void assay_home_names_it() {
        assertThat(AssayHome.of(Map.of("ASSAY_HOME", "/srv/assay", "HOME", "/home/ci")))
                .isEqualTo(Path.of("/srv/assay"));
    }

    @Test
    void otherwise_it_is_dot_assay_in_the_home_the_environment_names_as_in_the_shell() {
        assertThat(AssayHome.of(Map.of("HOME", "/home/ci"))).isEqualTo(Path.of("/home/ci/.assay"));
        assertThat(AssayHome.of(Map.of("ASSAY_HOME", " ", "HOME", "/home/ci"))).isEqualTo(Path.of("/home/ci/.assay"));
    }

    @Test
    void without_a_home_in_the_environment_it_is_in_the_accounts_home() {
        assertThat(AssayHome.of(Map.of())).isEqualTo(Path.of(System.getProperty("user.home"), ".assay"));
    }

    @Test
    @Tag("security")
    void a_home_a_command_creates_is_owner_only_and_so_is_its_database() throws IOException {
        assumeTrue(posix());
        Path home = temp.resolve("home");

        var listed = new CliRunner(home).run("runs", "list");

        assertThat(listed.code()).as(listed.err()).isZero();
        assertThat(mode(home)).isEqualTo("rwx------");
        assertThat(mode(home.resolve("assay.db"))).isEqualTo("rw-------");
    }

    @Test
    @Tag("security")
    void a_home_that_exists_keeps_the_mode_its_owner_gave_it() throws IOException {
        assumeTrue(posix());
        Path home = Files.createDirectory(temp.resolve("home"));
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-x---"));

        var listed = new CliRunner(home).run("runs", "list");

        assertThat(listed.code()).as(listed.err()).isZero();
        assertThat(mode(home)).isEqualTo("rwxr-x---");
        assertThat(mode(home.resolve("assay.db"))).isEqualTo("rw-------");
    }

    private boolean posix() {
        return temp.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
