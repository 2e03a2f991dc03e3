package dev.assay.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.report.internal.JsonReporter;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** report.json copies a stored run's transcripts out as stored: the same document as writing them from trees. */
class StoredTranscriptsReportTest {
    private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");
    private static final int ITEMS = 1_234;

    @TempDir
    Path temp;

    private static JsonNode transcript(int seq) {
        if (seq % 97 == 0) {
            return null;
        }
        var transcript = Json.object();
        var events = transcript.putArray("events");
        events.addObject()
                .put("type", "model")
                .put("text", "答案 " + seq + " \"quoted\" \\ back\nline\ttab \u0001 🚀")
                .put("latency_s", seq / 7.0)
                .put("tiny", 1e-7 * seq)
                .put("large", 12_345_678_901L * seq)
                .put("whole", 2.0)
                .putNull("nothing")
                .put("ok", seq % 2 == 0);
        events.addObject()
                .put("type", "tool")
                .putObject("args")
                .put("z", 1)
                .put("a", List.of(1, 2).size());
        transcript.putArray("empty");
        transcript.putObject("none");
        return transcript;
    }

    private static Item item(int seq) {
        return new Item(
                "r",
                "c" + seq,
                seq,
                seq % 3 == 0 ? "tool" : "logic",
                seq % 5 == 0 ? ItemStatus.FAILED : ItemStatus.PASSED,
                seq % 5 == 0 ? 0 : 1,
                1,
                1,
                "prompt " + seq,
                "answer " + seq,
                List.of(),
                Json.object().put("reason", "r" + seq),
                null,
                transcript(seq),
                T0,
                T0.plusMillis(seq),
                seq / 1000.0,
                false);
    }

    private static Run run(RunStatus status, Counts counts) {
        boolean ended = status != RunStatus.RUNNING;
        return new Run(
                "r",
                RunKind.CAPABILITY,
                "",
                "openai:bench",
                "",
                status,
                "s",
                "",
                null,
                List.of(),
                Map.of(),
                null,
                counts,
                T0,
                ended ? T0.plusSeconds(60) : null,
                ended ? 60 : 0,
                null);
    }

    private static byte[] reportJson(RunReport report) throws IOException {
        var out = new ByteArrayOutputStream();
        new JsonReporter().write(report, out);
        return out.toByteArray();
    }

    @Test
    void transcripts_copied_as_stored_write_the_same_report_as_their_trees() throws IOException {
        try (Store store = Stores.open("jdbc:sqlite:" + temp.resolve("assay.db"))) {
            store.createRun(run(RunStatus.FINISHED, new Counts(ITEMS, ITEMS - ITEMS / 5, ITEMS / 5, 0, 0, 0, 0)));
            var items = new ArrayList<Item>();
            for (int seq = 0; seq < ITEMS; seq++) {
                items.add(item(seq));
            }
            store.saveAll(List.of(), items);

            RunReport stored = RunReport.load(store, "r");
            RunReport fromTrees = new RunReport(stored.run(), store.listItems("r", 0, ITEMS), Map.of());
            byte[] copied = reportJson(stored);

            assertThat(new String(copied, StandardCharsets.UTF_8))
                    .isEqualTo(new String(reportJson(fromTrees), StandardCharsets.UTF_8));
            JsonNode written = Json.MAPPER.readTree(copied).path("items");
            assertThat(written).hasSize(ITEMS);
            for (int seq : new int[] {0, 1, 500, 501, ITEMS - 1}) {
                JsonNode expected = transcript(seq);
                assertThat(written.get(seq).path("transcript"))
                        .isEqualTo(expected == null ? Json.MAPPER.nullNode() : expected);
            }
        }
    }

    @Test
    void an_item_stored_while_the_report_is_written_does_not_pair_transcripts_with_the_wrong_items()
            throws IOException {
        try (Store store = Stores.open("jdbc:sqlite:" + temp.resolve("assay.db"))) {
            store.createRun(run(RunStatus.RUNNING, new Counts(20, 0, 0, 0, 0, 0, 0)));
            var items = new ArrayList<Item>();
            for (int seq = 1; seq < 20; seq += 2) {
                items.add(item(seq));
            }
            store.saveAll(List.of(), items);
            RunReport report = RunReport.load(store, "r");
            // The brief items are read (and kept) first; a case of a running run then ends before the transcripts are.
            assertThat(report.briefItems().get(0).caseId()).isEqualTo("c1");
            store.saveAll(List.of(), List.of(item(4)));

            JsonNode written = Json.MAPPER.readTree(reportJson(report)).path("items");

            assertThat(written).hasSize(10);
            for (JsonNode item : written) {
                int seq = item.path("seq").asInt();
                assertThat(item.path("case_id").asText()).isEqualTo("c" + seq);
                assertThat(item.path("transcript")).isEqualTo(transcript(seq));
            }
        }
    }
}
