package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile and mistaken options of every command: each is a usage error (exit 2) in one line naming the option, found
 * before anything runs, never a stack trace; a port that is taken is "could not run" (exit 3), named as such.
 */
@Tag("fault")
class OptionValidationTest {
    private static final String SUITE = Path.of("..", "examples", "capability").toString();

    @TempDir
    Path home;

    static Stream<Arguments> bad_options() {
        return Stream.of(
                run("--concurrency", "--concurrency", "0"),
                run("--limit", "--limit", "-1"),
                run("--max-steps", "--max-steps", "0"),
                run("--samples", "--samples", "0"),
                run("--timeout", "--timeout", "0"),
                run("--timeout", "--timeout", "soon"),
                run("--format", "--format", "xml"),
                run("--threshold", "--threshold", "2"),
                run("--threshold", "--threshold", "-0.1"),
                run("--max-tokens", "--max-tokens", "0"),
                run("--retries", "--retries", "-1"),
                run("--max-retry-wait", "--max-retry-wait", "-5"),
                run("--temperature", "--temperature", "3"),
                run("--tool-mode", "--tool-mode", "telepathy"),
                Arguments.of("--base-url", List.of("run", SUITE, "--model", "openai:x", "--base-url", "notaurl")),
                Arguments.of("--base-url", List.of("run", SUITE, "--model", "openai:x", "--base-url", "ftp://host/v1")),
                Arguments.of("--agent", List.of("run", SUITE, "--agent", "localhost:8000")),
                Arguments.of(
                        "--agent-tools-url",
                        List.of(
                                "run",
                                SUITE,
                                "--agent",
                                "http://127.0.0.1:9/a",
                                "--agent-tools-url",
                                "file:///etc/passwd")),
                Arguments.of(
                        "--workers-dialog",
                        List.of("dialog", "run", "d.jsonl", "--model", "mock", "--workers-dialog", "0")),
                Arguments.of(
                        "--turn-timeout",
                        List.of("dialog", "run", "d.jsonl", "--model", "mock", "--turn-timeout", "0")),
                Arguments.of(
                        "--turn-retries",
                        List.of("dialog", "run", "d.jsonl", "--model", "mock", "--turn-retries", "-1")),
                Arguments.of(
                        "--judge-base-url",
                        List.of(
                                "dialog",
                                "score",
                                "--traces",
                                "t.jsonl",
                                "--judge-model",
                                "openai:j",
                                "--judge-base-url",
                                "nohost")),
                Arguments.of(
                        "--workspace-dir",
                        List.of(
                                "run",
                                SUITE,
                                "--model",
                                "mock",
                                "--workspace-dir",
                                Path.of("pom.xml").toAbsolutePath().toString())),
                // A continued run runs as it was started: an option that would change it is refused, not dropped.
                Arguments.of("--concurrency", List.of("run", "--resume", "0123abcd", "-c", "8")),
                Arguments.of("--limit", List.of("run", "--retry-errors", "0123abcd", "--out", "r", "--limit", "5")),
                // A directory that cannot be made where it is asked for: named with the reason, no exception's name.
                run("--out", "--out", "/proc/x"),
                Arguments.of("--out", List.of("runs", "show", "abc", "--out", "/proc/x")),
                Arguments.of("--kind", List.of("runs", "list", "--kind", "weird")),
                Arguments.of("--limit", List.of("runs", "list", "--limit", "0")),
                Arguments.of("--offset", List.of("runs", "list", "--offset", "-1")),
                Arguments.of("--format", List.of("runs", "list", "--format", "xml")),
                Arguments.of("--format", List.of("runs", "show", "abc", "--format", "xml")),
                Arguments.of("--format", List.of("runs", "compare", "a", "b", "--format", "csv")),
                Arguments.of("--format", List.of("cases", "validate", SUITE, "--format", "yaml")),
                Arguments.of("--port", List.of("serve", "--port", "-1")),
                Arguments.of("--port", List.of("serve", "--port", "70000")),
                Arguments.of("--token", List.of("serve", "--token", "short")),
                Arguments.of("--suites", List.of("serve", "--port", "0", "--suites", "/nonexistent/suites")),
                Arguments.of("--host", List.of("serve", "--port", "0", "--host", "no-such-host.invalid")),
                // TEST-NET-3 (RFC 5737): a valid address that is on no machine's interface.
                Arguments.of("--host", List.of("serve", "--port", "0", "--host", "203.0.113.7")));
    }

    private static Arguments run(String option, String... args) {
        var line = new ArrayList<>(List.of("run", SUITE, "--model", "mock", "--quiet"));
        line.addAll(List.of(args));
        return Arguments.of(option, line);
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource
    void bad_options(String option, List<String> args) {
        var result = new CliRunner(home).run(args.toArray(String[]::new));

        assertThat(result.code()).as(result.err()).isEqualTo(ExitCodes.USAGE);
        List<String> errors =
                result.err().lines().filter(line -> line.startsWith("error:")).toList();
        assertThat(errors).as(result.err()).hasSize(1);
        assertThat(errors.getFirst()).contains(option);
        assertThat(result.err())
                .doesNotContain("\tat ")
                .doesNotContain("Exception")
                .doesNotContain("Usage:");
        assertThat(result.out()).isEmpty();
    }

    @Test
    void a_recording_that_is_not_there_and_a_database_url_of_no_database_are_usage_errors() {
        var cli = new CliRunner(home);

        var replay =
                cli.run("run", SUITE, "--replay", home.resolve("missing.jsonl").toString());
        var database = cli.run("runs", "list", "--db", "notajdbc");

        assertThat(replay.code()).as(replay.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(replay.err()).contains("replay.unreadable").doesNotContain("\tat ");
        assertThat(database.code()).as(database.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(database.err()).contains("store.unsupported_url");
    }

    @Test
    void a_bad_suite_is_said_before_a_bad_database_and_a_bad_database_after_a_good_suite() {
        // The database opens on its own thread while the suite is read; the user still hears of the suite first.
        var cli = new CliRunner(home);

        var both = cli.run(
                "run", home.resolve("no-such-suite").toString(), "--model", "mock", "--quiet", "--db", "notajdbc");
        var database = cli.run("run", SUITE, "--model", "mock", "--quiet", "--db", "notajdbc");

        assertThat(both.code()).as(both.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(both.err()).contains("no-such-suite").doesNotContain("store.unsupported_url");
        assertThat(database.code()).as(database.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(database.err()).contains("store.unsupported_url").doesNotContain("\tat ");
    }

    @Test
    void a_short_token_from_the_environment_is_refused_too() {
        var result = new CliRunner(home).withEnv("ASSAY_TOKEN", "1234").run("serve", "--port", "0");

        assertThat(result.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err())
                .contains("$ASSAY_TOKEN")
                .contains("at least 16 characters")
                .doesNotContain("\tat ");
    }

    @Test
    void a_port_in_use_is_named_as_such_in_one_line_and_cannot_run() throws IOException {
        try (var taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            var result = new CliRunner(home)
                    .run(
                            "serve",
                            "--port",
                            Integer.toString(taken.getLocalPort()),
                            "--token",
                            "a-token-long-enough-0123");

            assertThat(result.code()).as(result.err()).isEqualTo(ExitCodes.CANNOT_RUN);
            assertThat(result.err().strip().lines().toList()).as(result.err()).hasSize(1);
            assertThat(result.err())
                    .contains("port " + taken.getLocalPort())
                    .contains("in use")
                    .contains("server.cannot_listen")
                    .doesNotContain("\tat ");
        }
    }

    @Test
    void dialog_score_on_a_file_that_is_not_a_trace_names_the_file_and_line() throws IOException {
        Path notATrace = Files.writeString(home.resolve("cases.jsonl"), """

                {"id": "capital", "prompt": "Capital of France?"}
                """);
        Path empty = Files.writeString(home.resolve("empty.jsonl"), "");
        var cli = new CliRunner(home);

        var result = cli.run("dialog", "score", "--traces", notATrace.toString(), "--out", home.toString());
        var none = cli.run("dialog", "score", "--traces", empty.toString(), "--out", home.toString());

        assertThat(result.code()).as(result.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err())
                .contains(notATrace + ":2")
                .contains("no dialog trace")
                .doesNotContain("\tat ");
        assertThat(Files.exists(home.resolve("metrics_summary.json"))).isFalse();
        assertThat(none.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(none.err()).contains(empty.toString()).contains("empty");
    }
}
