package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a run prints while it goes: a bar on a terminal, a few plain lines in a log, a line per case on request. */
class ProgressOutputTest {
    private static final int CASES = 300;

    @TempDir
    Path home;

    @Test
    void off_a_terminal_a_run_prints_a_few_plain_lines_not_one_per_case() throws Exception {
        var result = new CliRunner(home)
                .run(
                        "run",
                        suite().toString(),
                        "--model",
                        "mock",
                        "--out",
                        home.resolve("out").toString());

        assertThat(result.code()).as(result.err()).isZero();
        List<String> lines = result.err().lines().toList();
        assertThat(lines).noneMatch(line -> line.startsWith("[1/" + CASES + "]"));
        assertThat(lines).hasSizeLessThanOrEqualTo(3);
        assertThat(lines.getLast())
                .startsWith("[" + CASES + "/" + CASES + "] 100% in ")
                .contains("cases/s", "0 passed, " + CASES + " failed");
        assertThat(result.err()).doesNotContain("\r");
    }

    @Test
    void verbose_prints_a_line_per_case() throws Exception {
        var result = new CliRunner(home)
                .run(
                        "run",
                        suite().toString(),
                        "--model",
                        "mock",
                        "--verbose",
                        "--out",
                        home.resolve("out").toString());

        assertThat(result.code()).as(result.err()).isZero();
        assertThat(result.err().lines().filter(line -> line.matches("\\[\\d+/" + CASES + "] failed .*")))
                .hasSize(CASES);
    }

    @Test
    void quiet_prints_no_progress() throws Exception {
        var result = new CliRunner(home)
                .run(
                        "run",
                        suite().toString(),
                        "--model",
                        "mock",
                        "--quiet",
                        "--out",
                        home.resolve("out").toString());

        assertThat(result.code()).as(result.err()).isZero();
        assertThat(result.err().lines().toList()).hasSize(1).allMatch(line -> line.startsWith("run "));
    }

    @Test
    void on_a_terminal_a_run_draws_one_bar_with_its_rate() throws Exception {
        Path script = Path.of("/usr/bin/script");
        assumeTrue(Files.isExecutable(script), "util-linux's script(1) makes the pseudo-terminal; it is not here");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String command = String.join(
                " ",
                java,
                "-cp",
                System.getProperty("java.class.path"),
                AssayCli.class.getName(),
                "run",
                suite().toString(),
                "--model",
                "mock",
                "--out",
                home.resolve("out").toString(),
                "--format",
                "json");
        var builder = new ProcessBuilder(script.toString(), "-qec", command, "/dev/null");
        builder.environment().put("ASSAY_HOME", home.toString());
        builder.environment().put("TERM", "xterm");
        builder.environment().put("LANG", "C.UTF-8");
        builder.redirectErrorStream(true);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).contains("\r", CASES + "/" + CASES, "cases/s", "0 passed, " + CASES + " failed");
        assertThat(output.lines()).noneMatch(line -> line.startsWith("[1/" + CASES + "]"));
    }

    @Test
    void a_terminal_is_told_by_the_device_stderr_is_open_on() {
        assertThat(List.of("/dev/pts/3", "/dev/tty1", "/dev/ttyS0", "/dev/console"))
                .allMatch(ProgressPrinter::isTerminalDevice);
        assertThat(List.of("pipe:[40213]", "/dev/null", "/tmp/assay.log", "socket:[77]"))
                .noneMatch(ProgressPrinter::isTerminalDevice);
    }

    private Path suite() throws Exception {
        var lines = new StringBuilder();
        for (int i = 0; i < CASES; i++) {
            lines.append("{\"id\": \"case")
                    .append(i)
                    .append("\", \"dimension\": \"common\", \"prompt\": \"say x\", ")
                    .append("\"checker\": \"exact\", \"expected\": \"x\"}\n");
        }
        return Files.writeString(home.resolve("suite.jsonl"), lines);
    }
}
