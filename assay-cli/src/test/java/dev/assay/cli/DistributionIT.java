package dev.assay.cli;

import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.testing.ScriptedOpenAiServer;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution archive that {@code ./mvnw package} builds (assay-cli/target/assay-&lt;version&gt;.tar.gz), unpacked
 * into an empty directory and run as a user runs it: its own {@code bin/assay}, a Java found through JAVA_HOME, a home
 * directory of its own, a working directory outside the source tree, no Maven.
 */
class DistributionIT {
    @TempDir
    Path install;

    @TempDir
    Path home;

    @TempDir
    Path work;

    private Path dist;

    @BeforeEach
    void unpack() throws Exception {
        String built = System.getProperty("assay.dist.archive");
        // Failsafe names the archive (assay-cli/pom.xml); a surefire run picked up by -Dtest=... has none yet.
        assumeTrue(built != null, "runs in the verify phase, after package has built the archive");
        Path archive = Path.of(built);
        assertThat(archive).as("built by the package phase").isRegularFile();
        Result untar = exec(
                List.of("tar", "-xzf", archive.toString(), "-C", install.toString()), Map.of("PATH", path()), work);
        assertThat(untar.code()).as(untar.output()).isZero();
        dist = install.resolve(System.getProperty("assay.dist.name"));
    }

    @Test
    void the_archive_holds_the_launcher_the_jars_and_the_documents() throws Exception {
        Path launcher = dist.resolve("bin/assay");
        assertThat(Files.getPosixFilePermissions(launcher))
                .contains(
                        PosixFilePermission.OWNER_EXECUTE,
                        PosixFilePermission.GROUP_EXECUTE,
                        PosixFilePermission.OTHERS_EXECUTE);
        assertThat(dist.resolve("README.md")).isRegularFile();
        assertThat(dist.resolve("LICENSE")).isRegularFile();
        assertThat(dist.resolve("docs/extending.md")).isRegularFile();
        assertThat(dist.resolve("examples/capability")).isDirectory();

        List<String> jars;
        try (Stream<Path> files = Files.list(dist.resolve("lib"))) {
            jars = files.map(file -> file.getFileName().toString()).sorted().toList();
        }
        // A plain classpath: the CLI's jar next to each dependency's own jar, none of them shaded together; and the
        // search for a Java that bin/assay shares with ./assay.
        assertThat(jars)
                .allMatch(name -> name.endsWith(".jar") || name.equals("launcher.sh"))
                .contains("launcher.sh")
                .contains("assay-cli.jar")
                .anyMatch(name -> name.startsWith("assay-core-"))
                .anyMatch(name -> name.startsWith("picocli-"))
                .anyMatch(name -> name.startsWith("sqlite-jdbc-"))
                .anyMatch(name -> name.startsWith("assay-postgres-"))
                .anyMatch(name -> name.startsWith("postgresql-"));
        assertThat(jars.size()).isGreaterThan(20);
        try (var cli = new JarFile(dist.resolve("lib/assay-cli.jar").toFile())) {
            assertThat(cli.getEntry("dev/assay/cli/build.properties")).isNotNull();
            assertThat(cli.getEntry("dev/assay/cli/AssayCli.class")).isNotNull();
            assertThat(cli.getEntry("dev/assay/store/Store.class"))
                    .as("assay-core stays its own jar")
                    .isNull();
        }
        String core = jars.stream()
                .filter(name -> name.startsWith("assay-core-"))
                .findFirst()
                .orElseThrow();
        try (var jar = new JarFile(dist.resolve("lib").resolve(core).toFile())) {
            assertThat(jar.stream().map(entry -> entry.getName()))
                    .as("ServiceLoader files intact")
                    .anyMatch(name -> name.startsWith("META-INF/services/") && !name.endsWith("/"));
        }
    }

    @Test
    void version_and_help_answer() throws Exception {
        Result version = assay("--version");
        assertThat(version.code()).as(version.output()).isZero();
        assertThat(version.output().strip()).startsWith("assay ").doesNotContain("development build");

        // The launcher's quick answer (read from the jar without a JVM) is the CLI's own line.
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Result fromJvm = exec(
                List.of(java, "-cp", dist.resolve("lib") + File.separator + "*", AssayCli.class.getName(), "--version"),
                Map.of("PATH", path()),
                work);
        assertThat(fromJvm.code()).as(fromJvm.output()).isZero();
        assertThat(version.output().strip()).isEqualTo(fromJvm.output().strip());

        Result help = assay("--help");
        assertThat(help.code()).as(help.output()).isZero();
        assertThat(help.output()).contains("Usage: assay", "run");
    }

    @Test
    void a_real_evaluation_runs_and_writes_its_report() throws Exception {
        try (var model = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("Paris")))) {
            Path out = work.resolve("report");

            Result run = assay(
                    "run",
                    dist.resolve("examples/capability").toString(),
                    "--model",
                    "openai:scripted",
                    "--base-url",
                    model.baseUrl(),
                    "--api-key-env",
                    "NONE",
                    "--limit",
                    "4",
                    "--format",
                    "json",
                    "--out",
                    out.toString(),
                    "--quiet");

            assertThat(run.code()).as(run.output()).isZero();
            assertThat(model.requests()).isNotEmpty();
            JsonNode report = Json.MAPPER.readTree(out.resolve("report.json").toFile());
            assertThat(report.path("status").asText()).isEqualTo("finished");
            assertThat(report.path("counts").path("total").asInt()).isEqualTo(4);
            assertThat(report.path("items").size()).isEqualTo(4);
            assertThat(home.resolve(".assay/assay.db"))
                    .as("the run is stored in ASSAY_HOME")
                    .isRegularFile();
        }
    }

    @Test
    void a_symbolic_link_to_the_launcher_finds_the_installation() throws Exception {
        Path bin = Files.createDirectories(home.resolve("bin"));
        Path link = Files.createSymbolicLink(bin.resolve("assay"), dist.resolve("bin/assay"));

        Result help = exec(List.of(link.toString(), "--help"), environment(), work);

        assertThat(help.code()).as(help.output()).isZero();
        assertThat(help.output()).contains("Usage: assay");
    }

    @Test
    void a_java_older_than_21_is_refused_with_a_clear_message() throws Exception {
        Path fakeJdk = oldJava();
        var env = new HashMap<>(environment());
        env.put("JAVA_HOME", fakeJdk.getParent().toString());
        env.put("PATH", fakeJdk + File.pathSeparator + path());
        // No installation directory to fall back on (this machine's /usr/lib/jvm may hold a newer one).
        env.put(
                "ASSAY_JDK_DIRS",
                Files.createDirectories(home.resolve("no-jdks")).toString());

        Result run = exec(List.of(dist.resolve("bin/assay").toString(), "--help"), env, work);

        assertThat(run.code()).isEqualTo(3);
        assertThat(run.output()).contains("Java 21 or newer", "version 17", "JAVA_HOME");
    }

    @Test
    void a_java_17_on_the_path_does_not_hide_a_newer_jdk_installed_beside_it_as_for_the_source_launcher()
            throws Exception {
        Path fakeJdk = oldJava();
        // An installation directory like /usr/lib/jvm, holding the JDK this test runs on.
        Path jvms = Files.createDirectories(home.resolve("jvm"));
        Files.createSymbolicLink(jvms.resolve("jdk-new"), Path.of(System.getProperty("java.home")));
        var env = new HashMap<>(environment());
        env.remove("JAVA_HOME");
        env.put("PATH", fakeJdk + File.pathSeparator + path());
        env.put("ASSAY_JDK_DIRS", jvms.toString());

        Result help = exec(List.of(dist.resolve("bin/assay").toString(), "--help"), env, work);

        assertThat(help.code()).as(help.output()).isZero();
        assertThat(help.output()).contains("Usage: assay");
    }

    @Test
    void an_empty_entry_in_assay_plugins_does_not_put_the_working_directory_on_the_class_path() throws Exception {
        // An untrusted checkout as the working directory, registering a checker of its own.
        Path services = Files.createDirectories(work.resolve("META-INF/services"));
        Files.writeString(services.resolve("dev.assay.check.CheckerFactory"), "planted.Evil\n");
        var env = new HashMap<>(environment());
        env.put("ASSAY_PLUGINS", ":" + home.resolve("missing.jar"));

        Result validate = exec(
                List.of(
                        dist.resolve("bin/assay").toString(),
                        "cases",
                        "validate",
                        dist.resolve("examples/capability").toString()),
                env,
                work);

        assertThat(validate.code()).as(validate.output()).isZero();
        assertThat(validate.output()).doesNotContain("planted.Evil");
    }

    @Test
    void a_plugin_folder_anyone_may_write_is_named_in_one_warning() throws Exception {
        Path plugins = Files.createDirectories(home.resolve(".assay/plugins"));
        Files.setPosixFilePermissions(plugins, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path jar = Files.createFile(home.resolve("open.jar"));
        Files.setPosixFilePermissions(jar, PosixFilePermissions.fromString("rw-rw-rw-"));
        var env = new HashMap<>(environment());
        env.put("ASSAY_PLUGINS", jar.toString());

        Result help = exec(List.of(dist.resolve("bin/assay").toString(), "--help"), env, work);

        assertThat(help.code()).as(help.output()).isZero();
        assertThat(help.output().lines().filter(line -> line.startsWith("assay: warning:")))
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .contains(plugins.toString(), jar.toString());
    }

    /** {@return the bin directory of a fake Java 17, which says its version as a real one does} */
    private Path oldJava() throws IOException {
        Path fakeJdk = Files.createDirectories(home.resolve("old-jdk/bin"));
        Path fakeJava = Files.writeString(
                fakeJdk.resolve("java"),
                "#!/bin/sh\necho '    java.specification.version = 17' >&2\necho 'openjdk version \"17\"' >&2\n");
        Files.setPosixFilePermissions(fakeJava, PosixFilePermissions.fromString("rwx------"));
        return fakeJdk;
    }

    private Result assay(String... args) throws Exception {
        var command = new ArrayList<String>();
        command.add(dist.resolve("bin/assay").toString());
        command.addAll(List.of(args));
        return exec(command, environment(), work);
    }

    /** A user's environment, none of the build's: the test's Java as JAVA_HOME, empty home directories. */
    private Map<String, String> environment() {
        return Map.of(
                "PATH", path(),
                "HOME", home.toString(),
                "ASSAY_HOME", home.resolve(".assay").toString(),
                "JAVA_HOME", System.getProperty("java.home"),
                "LANG", "C.UTF-8");
    }

    private static String path() {
        return System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    }

    private static Result exec(List<String> command, Map<String, String> env, Path directory)
            throws IOException, InterruptedException {
        var builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(env);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as(output).isTrue();
        return new Result(process.exitValue(), output);
    }

    private record Result(int code, String output) {}
}
