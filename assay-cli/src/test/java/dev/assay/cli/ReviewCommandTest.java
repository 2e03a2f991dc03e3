package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Label;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code assay review} labels checks from the keyboard; {@code assay judges calibrate} weighs the judge by them. */
class ReviewCommandTest {
    private static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");

    @TempDir
    Path home;

    private static Item item(int seq, boolean judgePassed) {
        ObjectNode check = Json.object();
        check.put("checker", "judge");
        check.put("status", judgePassed ? "passed" : "failed");
        check.putObject("detail").put("judge_model", "openai:j").put("reasoning", "because \u001b]52;c;x\u0007");
        ObjectNode detail = Json.object();
        detail.putArray("checks").add(check);
        return new Item(
                "run-review",
                "c" + seq,
                seq,
                "common",
                judgePassed ? ItemStatus.PASSED : ItemStatus.FAILED,
                judgePassed ? 1 : 0,
                1,
                1,
                "prompt " + seq,
                "answer " + seq,
                List.of(),
                detail,
                null,
                null,
                T0,
                T0,
                0);
    }

    @Test
    void keys_label_the_checks_and_calibrate_reads_the_kappa_they_give() throws Exception {
        try (Store store = Stores.open("jdbc:sqlite:" + home.resolve("assay.db"))) {
            store.createRun(new Run(
                    "run-review",
                    RunKind.CAPABILITY,
                    "",
                    "openai:m",
                    "",
                    RunStatus.FINISHED,
                    "s",
                    "",
                    null,
                    List.of(),
                    Map.of(),
                    null,
                    new Counts(4, 2, 2, 0, 0, 0, 0),
                    T0,
                    T0,
                    1,
                    null));
            boolean[] judge = {true, false, true, false};
            for (int seq = 0; seq < 4; seq++) {
                store.upsertItem(item(seq, judge[seq]));
            }
        }
        // c0 pass, c1 fail, c2 a note then fail, c3 skipped, then the input ends.
        InputStream stdin = System.in;
        try {
            System.setIn(new ByteArrayInputStream("p\nf\nn reads wrong\nf\nk\n".getBytes(StandardCharsets.UTF_8)));
            var review = new CliRunner(home).run("review", "run-review", "--by", "bob");
            assertThat(review.code()).as(review.err()).isZero();
            assertThat(review.out())
                    .contains("prompt 0", "answer 0", "machine: passed", "3 label(s) given, 4 check(s)");
            // A judge's reasoning reaches the terminal escaped.
            assertThat(review.out()).doesNotContain("\u001b").contains("\\u001b");
        } finally {
            System.setIn(stdin);
        }
        try (Store store = Stores.open("jdbc:sqlite:" + home.resolve("assay.db"))) {
            List<Label> labels = store.listLabels("run-review");
            assertThat(labels).extracting(Label::caseId).containsExactly("c0", "c1", "c2");
            assertThat(labels.get(2).note()).isEqualTo("reads wrong");
            assertThat(labels).allSatisfy(label -> assertThat(label.by()).isEqualTo("bob"));
        }
        // Judge / bob: c0 pass/pass, c1 fail/fail, c2 pass/fail. po = 2/3; the judge passes 2/3, bob 1/3: pe = 2/3 *
        // 1/3 + 1/3 * 2/3 = 4/9, kappa = (6/9 - 4/9) / (5/9) = 0.4.
        var calibrate = new CliRunner(home).run("judges", "calibrate", "run-review", "--format", "json");
        assertThat(calibrate.code()).as(calibrate.err()).isZero();
        JsonNode judge = Json.parse(calibrate.out()).path("judges").path("openai:j");
        assertThat(judge.path("n").asInt()).isEqualTo(3);
        assertThat(judge.path("kappa").asDouble()).isEqualTo(0.4, offset(1e-12));
        assertThat(judge.path("accuracy").asDouble()).isEqualTo(2.0 / 3, offset(1e-12));
        var text = new CliRunner(home).run("judges", "calibrate", "run-review");
        assertThat(text.out()).contains("openai:j: n=3, accuracy 0.667", "kappa 0.400");
    }
}
