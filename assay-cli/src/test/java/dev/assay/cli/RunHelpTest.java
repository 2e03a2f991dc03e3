package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code assay run --help} lists its options in {@link RunHelp#ORDER}, although mixins hold most of them. */
class RunHelpTest {
    /** An option's first line in the usage help: its short name or four spaces, then its long name. */
    private static final Pattern OPTION_LINE = Pattern.compile("^  (?:-\\w, |    )(--[a-z-]+)");

    @TempDir
    Path home;

    @Test
    void the_order_names_every_option_of_run_once() {
        var options = new CommandLine(new RunCommand())
                .getCommandSpec().options().stream()
                        .map(CommandLine.Model.OptionSpec::longestName)
                        .toList();

        assertThat(RunHelp.ORDER).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(options);
    }

    @Test
    void the_help_lists_the_options_in_that_order() {
        var help = new CliRunner(home).run("run", "--help");

        assertThat(help.code()).isZero();
        assertThat(help.out()
                        .lines()
                        .map(OPTION_LINE::matcher)
                        .filter(java.util.regex.Matcher::find)
                        .map(option -> option.group(1))
                        .toList())
                .containsExactlyElementsOf(RunHelp.ORDER);
    }
}
