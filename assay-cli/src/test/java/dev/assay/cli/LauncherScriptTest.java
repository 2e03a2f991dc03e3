package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/launcher.sh, which both launchers source (./assay through scripts/jdk.sh, the archive's bin/assay as
 * lib/launcher.sh): its plug-in class path and its search for a Java, called as the launchers call them.
 */
class LauncherScriptTest {
    private static final Path SCRIPT =
            Path.of("../scripts/launcher.sh").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    private Result bash(String script, Map<String, String> env) throws IOException, InterruptedException {
        var builder = new ProcessBuilder("bash", "-c", ". '" + SCRIPT + "'; " + script).directory(dir.toFile());
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/bin:/bin");
        builder.environment().put("HOME", dir.toString());
        builder.environment().putAll(env);
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(process.exitValue(), out, err);
    }

    private record Result(int code, String out, String err) {}

    @Test
    void empty_entries_of_assay_plugins_are_dropped_so_the_working_directory_is_never_on_the_class_path()
            throws Exception {
        var result = bash("plugin_classpath " + dir.resolve("home"), Map.of("ASSAY_PLUGINS", ":/p/a.jar::/p/b.jar:"));

        assertThat(result.code()).isZero();
        assertThat(result.out()).isEqualTo("/p/a.jar:/p/b.jar:");
        assertThat(result.err()).isEmpty();
    }

    @Test
    void jars_in_the_plugins_folder_come_first_and_a_class_path_wildcard_is_left_to_java() throws Exception {
        Path plugins = Files.createDirectories(dir.resolve("home/plugins"));
        Files.createFile(plugins.resolve("one.jar"));
        Files.createDirectories(dir.resolve("more"));
        Files.createFile(dir.resolve("more/x.jar"));

        var result =
                bash("plugin_classpath " + dir.resolve("home"), Map.of("ASSAY_PLUGINS", dir.resolve("more") + "/*"));

        assertThat(result.out()).isEqualTo(plugins.resolve("one.jar") + ":" + dir.resolve("more") + "/*:");
    }

    @Test
    void a_plugins_folder_or_jar_anyone_may_write_is_named_in_one_warning() throws Exception {
        Path plugins = Files.createDirectories(dir.resolve("home/plugins"));
        Files.setPosixFilePermissions(plugins, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path jar = Files.createFile(plugins.resolve("open.jar"));
        Files.setPosixFilePermissions(jar, PosixFilePermissions.fromString("rw-rw-rw-"));
        Path closed = Files.createFile(dir.resolve("closed.jar"));

        var result = bash("plugin_classpath " + dir.resolve("home"), Map.of("ASSAY_PLUGINS", closed.toString()));

        assertThat(result.err().lines().toList())
                .singleElement()
                .asString()
                .startsWith("assay: warning:")
                .contains(plugins.toString(), jar.toString())
                .doesNotContain(closed.toString());
    }

    @Test
    void a_java_17_on_the_path_does_not_hide_a_newer_jdk_in_an_installation_directory() throws Exception {
        Path old = Files.createDirectories(dir.resolve("old/bin"));
        Files.writeString(old.resolve("java"), "#!/bin/sh\necho '    java.specification.version = 17' >&2\n");
        Files.setPosixFilePermissions(old.resolve("java"), PosixFilePermissions.fromString("rwx------"));
        Path jvms = Files.createDirectories(dir.resolve("jvm"));
        Path jdk = Path.of(System.getProperty("java.home"));
        Files.createSymbolicLink(jvms.resolve("jdk"), jdk);

        for (String need : List.of("jdk", "runtime")) {
            var result = bash(
                    "PATH=" + old + ":$PATH; find_java " + need + " && echo \"$java_home $java_home_major\"",
                    Map.of("ASSAY_JDK_DIRS", jvms.toString()));

            assertThat(result.code()).as(need + ": " + result.err()).isZero();
            assertThat(result.out().strip())
                    .isEqualTo(jdk.toRealPath() + " " + Runtime.version().feature());
        }
    }

    @Test
    void the_launcher_packages_the_command_line_without_installing_it_and_only_when_sources_changed() throws Exception {
        Path repository = SCRIPT.getParent().getParent();
        Path checkout = Files.createDirectories(dir.resolve("checkout"));
        Files.createDirectories(checkout.resolve("scripts"));
        Files.copy(repository.resolve("assay"), checkout.resolve("assay"));
        Files.copy(repository.resolve("scripts/jdk.sh"), checkout.resolve("scripts/jdk.sh"));
        Files.copy(SCRIPT, checkout.resolve("scripts/launcher.sh"));
        Files.writeString(checkout.resolve("pom.xml"), "<project/>\n");
        Files.writeString(
                Files.createDirectories(checkout.resolve("assay-cli/src/main")).resolve("A.java"), "class A {}\n");
        // A Maven that notes its arguments and leaves what a build leaves: the jar, lib/ and the build's record.
        Path maven = Files.writeString(checkout.resolve("mvnw"), """
                #!/bin/sh
                echo "$@" >> maven-calls
                mkdir -p assay-cli/target/lib assay-cli/target/classes/dev/assay/cli
                touch assay-cli/target/assay-cli.jar
                echo git.build.version=1.0 > assay-cli/target/classes/dev/assay/cli/build.properties
                """);
        Files.setPosixFilePermissions(maven, PosixFilePermissions.fromString("rwx------"));
        var env = Map.of("JAVA_HOME", System.getProperty("java.home"));

        var first = bash("bash '" + checkout.resolve("assay") + "' --version", env);
        var second = bash("bash '" + checkout.resolve("assay") + "' --version", env);

        assertThat(first.code()).as(first.err()).isZero();
        assertThat(first.out().strip()).isEqualTo("assay 1.0");
        assertThat(second.code()).as(second.err()).isZero();
        List<String> calls = Files.readAllLines(checkout.resolve("maven-calls"));
        assertThat(calls).as("nothing changed before the second command").hasSize(1);
        assertThat(List.of(calls.getFirst().split(" ")))
                .contains("package", "-pl", "assay-cli", "-am")
                .doesNotContain("install", "deploy");
    }
}
