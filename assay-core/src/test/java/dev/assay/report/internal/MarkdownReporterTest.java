package dev.assay.report.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import dev.assay.report.RunReport;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * report.md is rendered (a CI job summary, a merge request comment), so model output in it must stay literal text: no
 * link, remote image, emphasis or code fence it wrote comes alive, and its row keeps its six cells.
 */
@Tag("security")
class MarkdownReporterTest {
    private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");

    private static final String INJECTION = "[click](javascript:alert(1)) ![img](http://evil.example/x.png)\n```";

    @Test
    void links_images_and_code_fences_in_a_final_answer_are_escaped_into_literal_text() throws Exception {
        String markdown = markdown(item("c1", INJECTION, "exact", "expected 4"));

        assertThat(row(markdown, "c1"))
                .isEqualTo("| c1 | logic | failed | 0.00 | exact: expected 4 | "
                        + "\\[click\\]\\(javascript:alert\\(1\\)\\) \\!\\[img\\]\\(http://evil.example/x.png\\) "
                        + "\\`\\`\\` |");
    }

    @Test
    void every_mark_that_opens_markdown_or_html_in_model_output_is_escaped_wherever_it_is_shown() throws Exception {
        String hostile = "*a* _b_ ~~c~~ `d` # e $f$ <img src=x> &lt; \\ |";
        String markdown = markdown(item("case_" + hostile, hostile, "exact", hostile));

        String escaped = "\\*a\\* \\_b\\_ \\~\\~c\\~\\~ \\`d\\` \\# e \\$f\\$ &lt;img src=x&gt; &amp;lt; \\\\ \\|";
        assertThat(row(markdown, "case"))
                .isEqualTo("| case\\_" + escaped + " | logic | failed | 0.00 | exact: " + escaped + " | " + escaped
                        + " |");
    }

    @Test
    void a_row_of_hostile_model_output_keeps_its_six_cells() throws Exception {
        String hostile = "a | b \\| c \\\\| d \\";
        String markdown = markdown(item("c1|x", INJECTION + hostile, "exact", hostile));

        String row = row(markdown, "c1");
        assertThat(unescapedPipes(row)).isEqualTo(7);
        assertThat(row).doesNotContain("](").doesNotContain("![");
    }

    private static String markdown(Item item) throws Exception {
        var out = new ByteArrayOutputStream();
        new MarkdownReporter().write(new RunReport(run(), List.of(item)), out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** {@return the line of the items table that starts with the case id} */
    private static String row(String markdown, String caseIdStart) {
        return markdown.lines()
                .filter(line -> line.startsWith("| " + caseIdStart))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no row for " + caseIdStart + " in\n" + markdown));
    }

    /** {@return the pipes a GFM table splits cells at: those not escaped by an odd run of backslashes} */
    private static int unescapedPipes(String line) {
        int pipes = 0;
        int backslashes = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '|' && backslashes % 2 == 0) {
                pipes++;
            }
            backslashes = c == '\\' ? backslashes + 1 : 0;
        }
        return pipes;
    }

    private static Run run() {
        return new Run(
                "r",
                RunKind.CAPABILITY,
                "",
                "openai:bench",
                "",
                RunStatus.FINISHED,
                "bench",
                "",
                null,
                List.of(),
                Map.of("logic", 0.0),
                0.0,
                new Counts(1, 0, 1, 0, 0, 0, 0),
                T0,
                T0.plusSeconds(1),
                1,
                null);
    }

    private static Item item(String caseId, String finalAnswer, String checker, String message) {
        var check =
                Json.object().put("checker", checker).put("status", "failed").put("message", message);
        var detail = Json.object();
        detail.putArray("checks").add(check);
        return new Item(
                "r",
                caseId,
                0,
                "logic",
                ItemStatus.FAILED,
                0,
                1,
                1,
                "question",
                finalAnswer,
                List.of(),
                detail,
                null,
                Json.MAPPER.createArrayNode(),
                T0,
                T0.plusMillis(5),
                0.005);
    }
}
