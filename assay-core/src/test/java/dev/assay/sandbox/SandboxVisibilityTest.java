package dev.assay.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a sandboxed command can see of the host: only the system directories, a few harmless /etc files, the language
 * runtimes and its workspace. Secrets planted where a user keeps them (the home directory, the working directory, a
 * database next to the suites) must be neither readable nor findable.
 */
@Tag("security")
class SandboxVisibilityTest {
    private static BubblewrapSandbox sandbox;
    private final String marker = "assay-secret-" + UUID.randomUUID();
    private final List<Path> planted = new java.util.ArrayList<>();

    @TempDir
    Path work;

    @BeforeAll
    static void findSandbox() throws InterruptedException {
        sandbox = SandboxAvailability.require();
    }

    @AfterEach
    void removePlanted() throws IOException {
        for (Path path : planted) {
            Files.deleteIfExists(path);
        }
    }

    private SandboxResult sh(String script, List<Path> readOnly) throws InterruptedException {
        return sandbox.run(new SandboxRequest(
                List.of("/bin/sh", "-c", script), work, Map.of(), "", SandboxLimits.defaults(), readOnly));
    }

    private Path plant(Path dir) throws IOException {
        Path file = dir.resolve(marker + ".txt");
        Files.writeString(file, marker);
        planted.add(file);
        return file;
    }

    @Test
    void the_root_shows_only_system_directories_runtimes_and_the_workspace() throws InterruptedException {
        var result = sh("ls -A /", List.of());

        Set<String> allowed = new HashSet<>(Set.of(
                "bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr", "etc", "proc", "dev", "tmp", "workspace"));
        Runtimes.find()
                .prefixes()
                .forEach(prefix -> allowed.add(prefix.getName(0).toString()));
        assertThat(result.exitCode()).isZero();
        assertThat(Arrays.asList(result.stdout().split("\n")))
                .isSubsetOf(allowed)
                .doesNotContain("home", "var", "srv", "opt", "mnt", "work", "media");
    }

    @Test
    void no_process_inside_shows_the_hosts_paths_in_its_arguments() throws InterruptedException {
        // The sandbox's init is a copy of bubblewrap; its arguments would name the workspace's host directory.
        var result = sh("for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < $f; echo; done", List.of());

        assertThat(result.exitCode()).isZero();
        assertThat(result.stdout())
                .contains("bwrap")
                .doesNotContain(work.toString())
                .doesNotContain("--bind")
                .doesNotContain(System.getProperty("java.io.tmpdir") + "/assay");
    }

    @Test
    void the_mount_table_names_no_file_under_the_hosts_temporary_directory() throws InterruptedException {
        // A bind's source path is shown in /proc/self/mountinfo; the account files are copied in, not bound.
        var result = sh("cat /proc/self/mountinfo", List.of());

        assertThat(result.exitCode()).isZero();
        assertThat(result.stdout())
                .contains(" /workspace ")
                .doesNotContain(System.getProperty("java.io.tmpdir") + "/assay")
                .doesNotContain("/tmp/assay")
                .doesNotContain("bindfile");
    }

    @Test
    void files_in_the_home_the_working_directory_and_next_to_a_database_are_neither_readable_nor_findable()
            throws Exception {
        Path home = plant(Path.of(System.getProperty("user.home")));
        Path cwd = plant(Path.of(System.getProperty("user.dir")));
        Path database = Files.createTempDirectory("assay-home");
        Path db = plant(database);
        planted.add(database);

        for (Path secret : List.of(home, cwd, db)) {
            var read = sh("cat '" + secret + "'", List.of());
            assertThat(read.exitCode()).as(secret.toString()).isNotZero();
            assertThat(read.stdout()).doesNotContain(marker);
        }
        var search = sh(
                "grep -rls '" + marker + "' / 2>/dev/null; find / -name '" + marker + "*' 2>/dev/null; true",
                List.of());
        assertThat(search.stdout()).doesNotContain(marker);
    }

    @Test
    void account_secrets_are_absent_and_only_the_sandbox_users_are_known() throws InterruptedException {
        var result = sh(
                "for f in /etc/shadow /etc/gshadow /etc/ssh /etc/sudoers /etc/ssl/private; do "
                        + "test -e $f && echo present: $f; done; cat /etc/passwd",
                List.of());

        assertThat(result.stdout()).doesNotContain("present:");
        assertThat(result.stdout().lines().filter(line -> line.contains(":x:")).map(line -> line.split(":")[0]))
                .containsExactly("root", "nobody");
    }

    @Test
    void commands_run_as_an_unprivileged_user_who_cannot_read_root_only_files() throws Exception {
        Path dir = Files.createTempDirectory("assay-root-only");
        Path rootOnly = dir.resolve("key.txt");
        Files.writeString(rootOnly, marker);
        Files.setPosixFilePermissions(rootOnly, PosixFilePermissions.fromString("rw-------"));
        planted.add(rootOnly);
        planted.add(dir);

        var result = sh("id -u; cat " + rootOnly, List.of(dir));

        if (BubblewrapSandbox.runningAsRoot()) {
            assertThat(result.stdout()).startsWith("65534\n");
        }
        assertThat(result.stdout()).doesNotContain(marker);
        assertThat(result.stderr()).contains("Permission denied");
    }

    @Test
    void the_environment_holds_nothing_of_assays_own() throws InterruptedException {
        var result = sh("env", List.of());

        var names = result.stdout()
                .lines()
                .map(line -> line.substring(0, line.indexOf('=')))
                .toList();
        assertThat(names).isSubsetOf("PATH", "HOME", "LANG", "TMPDIR", "PWD", "SHLVL", "_");
    }

    @Test
    void a_read_only_path_under_the_hosts_tmp_stays_visible_and_read_only() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "assay-lib");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        Path jar = dir.resolve("lib.jar");
        Files.writeString(jar, marker);
        planted.add(jar);
        planted.add(dir);

        var result = sh("cat " + jar + " && ! echo x >> " + jar, List.of(jar));

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout()).isEqualTo(marker);
        assertThat(Files.readString(jar)).isEqualTo(marker);
    }
}
