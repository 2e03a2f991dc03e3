package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.model.EndpointConcurrency;
import dev.assay.report.RunReport;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import dev.assay.result.TrialId;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SummaryTest {
    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");

    private static String table(RunStatus status, int total, List<ItemStatus> statuses) {
        return summary(status, total, statuses, "table");
    }

    private static String summary(RunStatus status, int total, List<ItemStatus> statuses, String format) {
        var items = new ArrayList<Item>();
        for (int i = 0; i < statuses.size(); i++) {
            items.add(item("c" + i, i, statuses.get(i)));
        }
        return print(run(status, null, Counts.of(total, statuses), 12.3), items, format);
    }

    private static Item item(String id, int seq, ItemStatus status) {
        return new Item("r1", id, seq, "common", status, 0, 1, 1, "p", "a", List.of(), null, null, null, T0, T0, 0);
    }

    private static Run run(RunStatus status, JsonNode config, Counts counts, double elapsedS) {
        return new Run(
                "r1",
                RunKind.CAPABILITY,
                "",
                "m",
                "",
                status,
                "s",
                "v",
                config,
                List.of(),
                Map.of(),
                null,
                counts,
                T0,
                T0,
                elapsedS,
                null);
    }

    private static String print(Run run, List<Item> items, String format) {
        var out = new StringWriter();
        Summary.print(new PrintWriter(out, true), new RunReport(run, items), format, null);
        return out.toString();
    }

    @Test
    void a_cancelled_run_says_what_ran_and_counts_cancelled_items_apart_from_skipped_ones() {
        var statuses = new ArrayList<ItemStatus>();
        statuses.addAll(java.util.Collections.nCopies(40, ItemStatus.PASSED));
        statuses.addAll(java.util.Collections.nCopies(4, ItemStatus.SKIPPED));
        statuses.addAll(java.util.Collections.nCopies(3, ItemStatus.CANCELLED));

        String table = table(RunStatus.CANCELLED, 200, statuses);

        assertThat(table)
                .contains("44 of 200 cases ran in 12.3 s, 3 cancelled while running, 153 not started")
                .doesNotContain("200 cases in");
        String header = table.lines()
                .filter(line -> line.startsWith("dimension"))
                .findFirst()
                .orElseThrow();
        String total = table.lines()
                .filter(line -> line.startsWith("TOTAL"))
                .findFirst()
                .orElseThrow();
        assertThat(header.split("\\s+")).endsWith("skipped", "cancelled");
        assertThat(total.split("\\s+")).endsWith("40", "0", "0", "0", "4", "3");
    }

    @Test
    void pass_at_k_of_many_samples_is_printed_for_a_few_k_and_the_last() {
        var items = new ArrayList<Item>();
        for (int k = 1; k <= 40; k++) {
            items.add(item("c#" + k, k - 1, k % 2 == 0 ? ItemStatus.PASSED : ItemStatus.FAILED)
                    .withTrial(new TrialId("c", k)));
        }
        Counts counts = Counts.of(40, items.stream().map(Item::status).toList());

        String summary = print(run(RunStatus.FINISHED, Json.parse("{\"samples\": 40}"), counts, 1.0), items, "table");

        String line = summary.lines()
                .filter(text -> text.startsWith("40 samples per case"))
                .findFirst()
                .orElseThrow();
        assertThat(line)
                .contains("pass@1 = ", "pass@5 = ", "pass@10 = ", "pass@20 = ", "pass@40 = ")
                .doesNotContain("pass@2 = ", "pass@39 = ")
                .endsWith("(every k in the reports)");
    }

    @Test
    void a_complete_run_prints_as_before_without_a_cancelled_column() {
        String table = table(RunStatus.FINISHED, 2, List.of(ItemStatus.PASSED, ItemStatus.SKIPPED));

        assertThat(table)
                .contains("2 cases in 12.3 s; skipped cases are left out")
                .doesNotContain("cancelled");
    }

    @Test
    void an_endpoint_that_answered_429_is_named_with_the_concurrency_assay_settled_on() throws Exception {
        String endpoint = "summary-test-" + java.util.UUID.randomUUID() + ":443";
        var concurrency = EndpointConcurrency.of(endpoint);
        var sent = new ArrayList<Long>();
        for (int i = 0; i < 10; i++) {
            sent.add(concurrency.acquire());
        }
        concurrency.refused(sent.getFirst(), null);
        sent.subList(1, 10).forEach(concurrency::answered);

        assertThat(table(RunStatus.FINISHED, 1, List.of(ItemStatus.PASSED)))
                .contains(endpoint + " answered 429 to 1 calls; Assay settled on 5 calls at once to it.");
        JsonNode json = Json.parse(summary(RunStatus.FINISHED, 1, List.of(ItemStatus.PASSED), "json"));
        assertThat(json.path("endpoints").path(endpoint).path("concurrency").asInt())
                .isEqualTo(5);
        assertThat(json.path("endpoints").path(endpoint).path("rate_limited").asInt())
                .isEqualTo(1);
    }
}
