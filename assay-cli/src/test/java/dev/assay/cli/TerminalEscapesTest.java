package dev.assay.cli;

import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.result.Counts;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import dev.assay.store.Stores;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.ScriptedOpenAiServer.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a hostile model, endpoint or file says reaches the terminal with its control characters shown, not obeyed: clear
 * screen, window title, an OSC 52 clipboard write, a bell, a carriage return that overwrites the line, C1 and DEL.
 */
@Tag("security")
class TerminalEscapesTest {
    private static final String HOSTILE =
            "ans \u001b[2J\u001b]0;MODEL-TITLE\u0007\u001b]52;c;ZXZpbA==\u0007\rX\u009b1m\u007f end";

    @TempDir
    Path home;

    /** Fails on any character a terminal would act on: C0 but line feed and tab, a lone carriage return, DEL, C1. */
    private static void assertObeysNothing(String printed) {
        for (int index = 0; index < printed.length(); index++) {
            char c = printed.charAt(index);
            boolean lineBreak =
                    c == '\n' || (c == '\r' && index + 1 < printed.length() && printed.charAt(index + 1) == '\n');
            assertThat((c < 0x20 && c != '\t' && !lineBreak) || (c >= 0x7f && c <= 0x9f))
                    .as("U+%04X at %d in: %s", (int) c, index, printed)
                    .isFalse();
        }
    }

    private Path suite() throws Exception {
        return Files.writeString(
                home.resolve("s.jsonl"),
                "{\"id\": \"c1\", \"dimension\": \"common\", \"prompt\": \"q\", \"checker\": \"contains\", "
                        + "\"expected\": \"ans\"}\n");
    }

    private CliRunner.Result run(ScriptedOpenAiServer model, String... extra) throws Exception {
        var args = new java.util.ArrayList<>(java.util.List.of(
                "run",
                suite().toString(),
                "--model",
                "openai:scripted",
                "--base-url",
                model.baseUrl(),
                "--retries",
                "0"));
        args.addAll(java.util.List.of(extra));
        return new CliRunner(home).run(args.toArray(String[]::new));
    }

    @Test
    void bidirectional_formatting_characters_are_shown_as_escapes_and_other_scripts_as_they_are() {
        assertThat(TerminalText.line("ok \u202edessap\u202c \u2066x\u2069 \u200f"))
                .isEqualTo("ok \\u202edessap\\u202c \\u2066x\\u2069 \\u200f");
        assertThat(TerminalText.escape("نعم 通过 ✓\n", 0, 9, true)).isEqualTo("نعم 通过 ✓\n");
    }

    @Test
    void a_models_answer_is_escaped_in_runs_show_and_kept_exact_in_its_json() throws Exception {
        String runId;
        try (var model = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text(HOSTILE)))) {
            var run = run(model, "--format", "json", "--verbose");
            assertThat(run.code()).as(run.err()).isZero();
            assertObeysNothing(run.err());
            runId = Json.parse(run.out()).path("run_id").asText();
        }
        var cli = new CliRunner(home);

        var table = cli.run("runs", "show", runId);
        var json = cli.run("runs", "show", runId, "--format", "json");

        assertThat(table.code()).as(table.err()).isZero();
        assertObeysNothing(table.out());
        assertThat(table.out()).contains("ans \\u001b[2J\\u001b]0;MODEL-TITLE\\u0007");
        assertObeysNothing(json.out());
        JsonNode item = Json.parse(json.out()).path("items").get(0);
        assertThat(item.path("final_answer").asText()).isEqualTo(HOSTILE);
    }

    @Test
    void an_endpoints_error_body_on_stderr_is_escaped() throws Exception {
        try (var model = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(new Reply.Saying(401, HOSTILE)))) {
            var run = run(model, "--format", "json");

            assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.CANNOT_RUN);
            assertThat(run.err()).contains("target.auth_failed", "\\u001b]0;MODEL-TITLE\\u0007");
            assertObeysNothing(run.err());
        }
    }

    @Test
    void names_from_a_shared_database_are_escaped_in_runs_list_and_runs_show() throws Exception {
        Instant started = Instant.parse("2026-11-27T08:00:00Z");
        try (var store = Stores.open(Stores.defaultUrl(home))) {
            store.createRun(new Run(
                    "hostile",
                    RunKind.CAPABILITY,
                    null,
                    "m\u001b]0;T\u0007\nforged",
                    null,
                    RunStatus.FINISHED,
                    "s\u001b[2J",
                    "v",
                    null,
                    null,
                    null,
                    null,
                    new Counts(1, 1, 0, 0, 0, 0, 0),
                    started,
                    started.plusSeconds(1),
                    1,
                    null));
        }
        var cli = new CliRunner(home);

        var list = cli.run("runs", "list");
        var show = cli.run("runs", "show", "hostile");

        assertThat(list.code()).as(list.err()).isZero();
        assertObeysNothing(list.out());
        assertThat(list.out().lines()).noneMatch(line -> line.startsWith("forged"));
        assertObeysNothing(show.out());
        assertThat(show.out()).contains("m\\u001b]0;T\\u0007\\u000aforged");
    }

    @Test
    void a_case_files_text_echoed_by_cases_validate_is_escaped() throws Exception {
        Path suite = Files.writeString(
                home.resolve("bad.jsonl"),
                "{\"id\": \"c1\", \"dimension\": \"common\", \"prompt\": \"q\", \"checker\": \"no\\u001b]0;T\\u0007\", "
                        + "\"expected\": \"x\"}\n");

        var validate = new CliRunner(home).run("cases", "validate", suite.toString());

        assertThat(validate.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(validate.out()).contains("no\\u001b]0;T\\u0007");
        assertObeysNothing(validate.out());
        assertObeysNothing(validate.err());
    }
}
