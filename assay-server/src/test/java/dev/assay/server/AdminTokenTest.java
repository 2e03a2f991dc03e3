package dev.assay.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdminTokenTest {
    @TempDir
    Path home;

    @Test
    void a_new_token_file_is_readable_by_its_owner_only() throws Exception {
        AdminToken.loadOrCreate(home);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve(AdminToken.FILE_NAME))))
                .isEqualTo("rw-------");
    }

    @Test
    void a_home_it_creates_is_owner_only_and_one_that_exists_keeps_its_mode() throws Exception {
        Path created = home.resolve("created");
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-x---"));

        AdminToken.loadOrCreate(created);
        AdminToken.loadOrCreate(home);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(created)))
                .isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home)))
                .isEqualTo("rwxr-x---");
    }

    @Test
    void an_empty_token_file_gets_a_token_which_later_starts_read_back() throws Exception {
        Files.writeString(home.resolve(AdminToken.FILE_NAME), "\n");

        String token = AdminToken.loadOrCreate(home);

        assertThat(token).hasSize(48);
        assertThat(AdminToken.loadOrCreate(home)).isEqualTo(token);
    }
}
