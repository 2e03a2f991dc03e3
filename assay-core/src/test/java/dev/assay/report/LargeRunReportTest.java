package dev.assay.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.report.internal.HtmlReporter;
import dev.assay.report.internal.StoredItems;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import dev.assay.result.ToolCallView;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reports of a run too large to hold or to show whole: read from the store as written, the page summarised. */
class LargeRunReportTest {
    private static final int ITEMS = 2_500;
    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");
    private static final List<ItemStatus> STATUSES =
            List.of(ItemStatus.PASSED, ItemStatus.FAILED, ItemStatus.SKIPPED, ItemStatus.ERROR);

    @TempDir
    static Path temp;

    static Store store;

    @BeforeAll
    static void storeLargeRuns() {
        store = Stores.open("jdbc:sqlite:" + temp.resolve("assay.db"));
        storeRun("big", seq -> seq % 10 == 9 ? ItemStatus.FAILED : ItemStatus.PASSED);
        storeRun("whole", seq -> ItemStatus.PASSED);
    }

    private static void storeRun(String runId, IntFunction<ItemStatus> statusOf) {
        var items = new ArrayList<Item>();
        for (int seq = 0; seq < ITEMS; seq++) {
            items.add(item(runId, seq, statusOf.apply(seq)));
        }
        storeRun(runId, List.of(), items);
    }

    /** Stores a finished run of these items, which offered these tools. */
    private static Run storeRun(String runId, List<String> tools, List<Item> items) {
        Counts counts = Counts.of(items.size(), items.stream().map(Item::status).toList());
        store.createRun(new Run(
                runId,
                RunKind.CAPABILITY,
                "",
                "openai:bench",
                "",
                RunStatus.FINISHED,
                "large",
                "",
                null,
                tools,
                Map.of("logic", (double) counts.passed() / items.size()),
                (double) counts.passed() / items.size(),
                counts,
                T0,
                T0.plusSeconds(60),
                60,
                null));
        store.saveAll(List.of(), items);
        return store.findRun(runId).orElseThrow();
    }

    @AfterAll
    static void close() {
        store.close();
    }

    @Test
    void a_loaded_report_reads_its_items_from_the_store_in_order() {
        RunReport report = RunReport.load(store, "big");

        assertThat(report.items()).isInstanceOf(StoredItems.class).hasSize(ITEMS);
        assertThat(report.items().stream().map(Item::seq).toList())
                .isEqualTo(java.util.stream.IntStream.range(0, ITEMS).boxed().toList());
        assertThat(report.items().get(ITEMS - 1).caseId()).isEqualTo("c" + (ITEMS - 1));
        assertThat(report.items().get(3).caseId()).isEqualTo("c3");
    }

    @Test
    void every_report_of_a_large_run_is_written_and_the_page_lists_what_did_not_pass_first() throws Exception {
        Path out = temp.resolve("out");
        Reporters.builtins().writeAll(RunReport.load(store, "big"), out);

        JsonNode json = Json.parse(Files.readString(out.resolve("report.json")));
        assertThat(json.path("items")).hasSize(ITEMS);
        assertThat(json.path("run_id").asText()).isEqualTo("big");
        assertThat(json.path("items").get(ITEMS - 1).path("case_id").asText()).isEqualTo("c" + (ITEMS - 1));

        String junit = Files.readString(out.resolve("junit.xml"));
        assertThat(count(junit, "<testcase ")).isEqualTo(ITEMS);
        assertThat(junit).contains("tests=\"" + ITEMS + "\" failures=\"" + ITEMS / 10 + "\"");

        String html = Files.readString(out.resolve("report.html"));
        assertThat(count(html, "<tr><td>c")).isEqualTo(HtmlReporter.LISTED);
        assertThat(html)
                .contains(HtmlReporter.LISTED + " of " + ITEMS + " items are listed")
                .contains("<a href=\"report.json\">");
        // All 250 failed items are on the page, ahead of the passed ones.
        assertThat(count(html, "<td class=\"failed\">")).isEqualTo(ITEMS / 10);
        assertThat(html.indexOf("<td>c9</td>")).isLessThan(html.indexOf("<td>c0</td>"));

        String markdown = Files.readString(out.resolve("report.md"));
        assertThat(count(markdown, "| failed |")).isEqualTo(ITEMS / 10);
    }

    @Test
    void a_run_too_large_to_keep_counts_the_same_figures_from_items_read_with_only_the_fields_they_need() {
        var items = new ArrayList<Item>();
        for (int seq = 0; seq < 1_200; seq++) {
            ItemStatus status = STATUSES.get(seq % STATUSES.size());
            Item item = item("mixed", seq, status);
            items.add(new Item(
                    item.runId(),
                    item.caseId(),
                    item.seq(),
                    seq % 3 == 0 ? "tool_use" : "logic",
                    status,
                    (seq % 7) / 6.0,
                    1,
                    1 + seq % 2,
                    item.prompt(),
                    item.finalAnswer(),
                    seq % 5 == 0
                            ? List.of(new ToolCallView(seq % 2 == 0 ? "read_file" : "write_file", Json.object(), true))
                            : List.of(),
                    item.checkerDetail(),
                    status == ItemStatus.SKIPPED
                            ? Problem.of("tools.missing", "no such tool").withDetail("missing_tools", List.of("grep"))
                            : item.error(),
                    item.transcript(),
                    item.startedAt(),
                    item.finishedAt(),
                    item.elapsedS(),
                    false));
        }
        Run run = storeRun("mixed", List.of("read_file", "write_file", "list_files"), items);
        Map<String, List<String>> tags = Map.of("c0", List.of("plan:files"), "c5", List.of("smoke"));

        var whole = new RunReport(run, items, tags);
        var readForFigures = new RunReport(run, new StoredItems(store, "mixed", 1, 0), tags);
        var readBrief = new RunReport(run, new StoredItems(store, "mixed", 1), tags);

        assertThat(new StoredItems(store, "mixed", 1, 0).forFigures().get(0))
                .satisfies(item -> assertThat(item.prompt()).isEmpty())
                .satisfies(item -> assertThat(item.checkerDetail().isNull()).isTrue());
        for (RunReport report : List.of(readForFigures, readBrief)) {
            assertThat(report.spreads()).isEqualTo(whole.spreads());
            assertThat(report.countsByDimension()).isEqualTo(whole.countsByDimension());
            assertThat(report.coverage()).isEqualTo(whole.coverage());
            assertThat(report.passAtK()).isEqualTo(whole.passAtK());
        }
        assertThat(whole.coverage().calls()).containsEntry("read_file", 120).containsEntry("write_file", 120);
        assertThat(whole.coverage().skipped()).isNotEmpty();
    }

    @Test
    void the_page_of_a_large_run_that_passed_whole_lists_its_first_items() throws Exception {
        Path out = temp.resolve("whole");
        Reporters.builtins().writeAll(RunReport.load(store, "whole"), out);

        String html = Files.readString(out.resolve("report.html"));
        assertThat(count(html, "<td class=\"passed\">")).isEqualTo(HtmlReporter.LISTED);
        assertThat(html).contains("<td>c0</td>").contains("<td>c999</td>").doesNotContain("<td>c1000</td>");
    }

    private static int count(String text, String part) {
        return (int)
                Pattern.compile(Pattern.quote(part)).matcher(text).results().count();
    }

    private static Item item(String runId, int seq, ItemStatus status) {
        return new Item(
                runId,
                "c" + seq,
                seq,
                "logic",
                status,
                status == ItemStatus.PASSED ? 1 : 0,
                1,
                1,
                "token-" + seq + ": what is 6 x 7?",
                status == ItemStatus.PASSED ? "token-" + seq + ": 42" : "no idea",
                List.of(),
                Json.object().put("reason", status == ItemStatus.PASSED ? "ok" : "missing the token"),
                status == ItemStatus.ERROR ? Problem.of("model.failed", "down") : null,
                Json.MAPPER.createArrayNode(),
                T0,
                T0.plusMillis(5),
                0.005,
                false);
    }
}
