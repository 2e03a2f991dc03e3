package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plug-in folder whose service file names a class that is not there (a jar left out, a typo) is a user's mistake the
 * CLI names in one line, as {@code ASSAY_PLUGINS} puts it on the class path: never a stack trace.
 */
class BrokenPluginTest {
    @TempDir
    Path home;

    @Test
    void a_service_file_naming_a_missing_class_is_one_error_line_naming_the_file_and_the_class() throws Exception {
        Path plugins = brokenPlugins("dev.assay.check.CheckerFactory");
        Path suite = Files.writeString(home.resolve("s.jsonl"), """
                {"id": "c1", "dimension": "common", "prompt": "say", "checker": "contains", "expected": "ans"}
                """);

        Result validated = assay(plugins, "cases", "validate", suite.toString());

        assertThat(validated.code()).as(validated.output()).isEqualTo(ExitCodes.USAGE);
        assertThat(validated.lines())
                .as(validated.output())
                .singleElement()
                .satisfies(line -> assertThat(line)
                        .startsWith("error: ")
                        .contains(plugins.resolve("META-INF/services/dev.assay.check.CheckerFactory")
                                .toString())
                        .contains("'Evil'"));
    }

    @Test
    void a_broken_service_of_a_kind_loaded_once_per_process_is_one_error_line_too() throws Exception {
        // Model kinds are found once per process: the failure surfaces while a class is initialised.
        Path plugins = brokenPlugins("dev.assay.model.ModelProvider");
        Path suite = Files.writeString(home.resolve("s.jsonl"), """
                {"id": "c1", "dimension": "common", "prompt": "say", "checker": "contains", "expected": "ans"}
                """);

        Result ran = assay(plugins, "run", suite.toString(), "--model", "mock", "--quiet");

        assertThat(ran.code()).as(ran.output()).isEqualTo(ExitCodes.USAGE);
        assertThat(ran.lines())
                .as(ran.output())
                .singleElement()
                .satisfies(line -> assertThat(line)
                        .startsWith("error: ")
                        .contains("META-INF/services/dev.assay.model.ModelProvider")
                        .contains("'Evil'"));
    }

    /** {@return a plug-in folder whose service file for {@code service} names a class that does not exist} */
    private Path brokenPlugins(String service) throws Exception {
        Path plugins = home.resolve("plugins");
        Files.createDirectories(plugins.resolve("META-INF/services"));
        Files.writeString(plugins.resolve("META-INF/services/" + service), "# a typo\nEvil\n");
        return plugins;
    }

    private record Result(int code, String output) {
        List<String> lines() {
            return output.lines().filter(line -> !line.isBlank()).toList();
        }
    }

    /** Runs the CLI in a JVM of its own with {@code plugins} on its class path, as the launcher puts them. */
    private Result assay(Path plugins, String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        var command = new ArrayList<>(List.of(
                java,
                // As the launcher: the database's native library loads without a warning.
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path") + File.pathSeparator + plugins,
                AssayCli.class.getName()));
        command.addAll(List.of(args));
        var builder = new ProcessBuilder(command).redirectErrorStream(true).directory(home.toFile());
        builder.environment().putAll(Map.of("ASSAY_HOME", home.toString()));
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(process.exitValue(), output);
    }
}
