package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The {@code --help} of every command prints its usage and nothing on stderr: picocli formats each description, and a
 * bare {@code %} in one makes it print {@code [picocli WARN]} lines. picocli writes them to the {@code System.err} it
 * saw when first loaded, so the helps are printed by a process of their own.
 */
class HelpTextTest {
    @TempDir
    Path home;

    @Test
    void every_help_prints_its_usage_and_no_warning() throws Exception {
        var commands = new ArrayList<>(List.of("")); // the root's own
        collect(AssayCli.commandLine(Map.of(), options -> null), "", commands);
        var builder = new ProcessBuilder(new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                EveryHelp.class.getName())));
        builder.command().addAll(commands);
        builder.environment().put("ASSAY_HOME", home.toString());
        builder.redirectError(home.resolve("stderr").toFile());
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String err = java.nio.file.Files.readString(home.resolve("stderr"));

        assertThat(commands).contains("run", "runs list", "dialog run", "judges calibrate");
        assertThat(process.exitValue()).as(out + err).isZero();
        assertThat(err).isEmpty();
        // What the escaped % print as.
        assertThat(out).contains("(5 % false-decision rate", "standard errors and 95%", "95 % Wilson interval");
    }

    /** Adds the path of every command under {@code command} ({@code runs list}), {@code help} aside. */
    private static void collect(CommandLine command, String path, List<String> commands) {
        command.getSubcommands().forEach((name, sub) -> {
            if (name.equals("help") || !sub.getCommandName().equals(name)) {
                return; // picocli lists a command under each alias too
            }
            String subPath = path.isEmpty() ? name : path + " " + name;
            commands.add(subPath);
            collect(sub, subPath, commands);
        });
    }

    /**
     * Prints the {@code --help} of each command given (its path, words separated by spaces) to stdout; exits 1 when one
     * fails or prints on its own stderr.
     */
    static final class EveryHelp {
        public static void main(String[] commands) {
            int status = 0;
            for (String command : commands) {
                var args = new ArrayList<String>(command.isEmpty() ? List.of() : Arrays.asList(command.split(" ")));
                args.add("--help");
                var out = new StringWriter();
                var err = new StringWriter();
                int code = AssayCli.run(
                        new PrintWriter(out), new PrintWriter(err), System.getenv(), args.toArray(String[]::new));
                System.out.println("== " + command + " (exit " + code + ")" + System.lineSeparator() + out);
                if (code != 0 || !err.toString().isEmpty()) {
                    System.out.println("failed: " + err);
                    status = 1;
                }
            }
            System.exit(status);
        }

        private EveryHelp() {}
    }
}
