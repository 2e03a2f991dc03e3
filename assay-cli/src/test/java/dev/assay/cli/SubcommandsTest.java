package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.model.ChatModel;
import dev.assay.model.ModelOptions;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Only the subcommand a command line names is built; the usage, help and a mistyped word still see every one. */
class SubcommandsTest {
    private static ChatModel noModel(ModelOptions options) {
        throw new AssertionError("no model is made here");
    }

    @TempDir
    Path home;

    @Test
    void a_command_line_that_names_a_subcommand_builds_that_one_alone() {
        assertThat(AssayCli.commandLine(Map.of(), SubcommandsTest::noModel, "run", "suite", "--model", "mock")
                        .getSubcommands())
                .containsKey("run")
                .doesNotContainKeys("runs", "dialog");
        assertThat(AssayCli.commandLine(Map.of(), SubcommandsTest::noModel, "eval", "suite", "--model", "mock")
                        .getSubcommands())
                .containsKeys("run", "eval")
                .doesNotContainKeys("runs", "dialog");
        assertThat(AssayCli.commandLine(Map.of(), SubcommandsTest::noModel, "dialog", "run")
                        .getSubcommands())
                .containsOnlyKeys("dialog");
        assertThat(AssayCli.commandLine(Map.of(), SubcommandsTest::noModel, "--help")
                        .getSubcommands())
                .containsOnlyKeys(
                        "init", "run", "eval", "runs", "cases", "code", "cache", "plan", "review", "judges", "serve",
                        "view", "worker", "dialog", "help");
        assertThat(AssayCli.commandLine(Map.of(), SubcommandsTest::noModel, "help", "run")
                        .getSubcommands())
                .hasSize(15);
        assertThat(AssayCli.commandLine(Map.of(), SubcommandsTest::noModel, "rnu")
                        .getSubcommands())
                .hasSize(15);
    }

    @Test
    void the_usage_lists_every_subcommand_in_order_and_each_one_still_answers() {
        var cli = new CliRunner(home);

        var usage = cli.run("--help");
        assertThat(usage.code()).isZero();
        assertThat(usage.out())
                .containsSubsequence(
                        "  init ",
                        "  run, eval ",
                        "  runs ",
                        "  cases ",
                        "  code ",
                        "  cache ",
                        "  review ",
                        "  judges ",
                        "  serve ",
                        "  view ",
                        "  worker ",
                        "  dialog ",
                        "  help ");

        var help = cli.run("help", "runs");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("Usage: assay runs");

        var runHelp = cli.run("run", "--help");
        assertThat(runHelp.code()).isZero();
        assertThat(runHelp.out()).contains("Usage: assay run ");

        var eval = cli.run("eval", "--help");
        assertThat(eval.code()).isZero();
        assertThat(eval.out()).contains("Usage: assay run ");

        var mistyped = cli.run("rnu");
        assertThat(mistyped.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(mistyped.err()).contains("'rnu'", "see 'assay --help'");
    }
}
