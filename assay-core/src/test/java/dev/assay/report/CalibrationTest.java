package dev.assay.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Label;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import dev.assay.score.Agreement;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** People's labels kept in the store, beside the judges' verdicts, and the judges' agreement with them. */
class CalibrationTest {
    private static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");

    @TempDir
    Path temp;

    /** One judge check on the scale [1, 5] with threshold 4, by judge model {@code openai:j}. */
    private static Item item(int seq, boolean judgePassed) {
        ObjectNode check = Json.object();
        check.put("checker", "judge");
        check.put("status", judgePassed ? "passed" : "failed");
        check.putObject("detail")
                .put("judge", "default")
                .put("judge_model", "openai:j")
                .put("threshold", 4.0)
                .set("scale", Json.tree(List.of(1.0, 5.0)));
        ObjectNode detail = Json.object();
        detail.putArray("checks").add(check);
        return new Item(
                "r",
                "c" + seq,
                seq,
                "logic",
                judgePassed ? ItemStatus.PASSED : ItemStatus.FAILED,
                judgePassed ? 1 : 0,
                1,
                1,
                "prompt",
                "answer",
                List.of(),
                detail,
                null,
                null,
                T0,
                T0,
                0);
    }

    private static Label label(int seq, Boolean pass, Double score) {
        return new Label("r", "c" + seq, 0, "judge", pass, score, "", "ann", T0.plusSeconds(seq));
    }

    @Test
    void labels_sit_beside_the_verdicts_and_give_each_judge_model_its_agreement() {
        // judge / person: c0-c2 and c7 pass/pass, c3 pass/fail, c4 fail/pass, c9 fail/pass (a score of 4 reaches the
        // threshold), c5 c6 c8 fail/fail. n = 10, po = 7/10; the judge passes 5/10, people 6/10, pe = 0.5 * 0.6 + 0.5 *
        // 0.4 = 0.5, kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4.
        boolean[] judge = {true, true, true, true, false, false, false, true, false, false};
        boolean[] person = {true, true, true, false, true, false, false, true, false};
        try (Store store = Stores.open("jdbc:sqlite:" + temp.resolve("assay.db"))) {
            store.createRun(new Run(
                    "r",
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
                    new Counts(10, 5, 5, 0, 0, 0, 0),
                    T0,
                    T0,
                    1,
                    null));
            for (int seq = 0; seq < 10; seq++) {
                store.upsertItem(item(seq, judge[seq]));
            }
            // Ann changes her mind about c3: her second label replaces her first.
            store.saveLabel(label(3, true, null));
            for (int seq = 0; seq < 9; seq++) {
                store.saveLabel(label(seq, person[seq], null));
            }
            store.saveLabel(label(9, null, 4.0));

            assertThat(store.listLabels("r")).hasSize(10);
            assertThat(store.listLabels("r").get(3).pass()).isFalse();
            assertThat(store.labelledRuns()).containsExactly("r");
            // The machine verdict is left as it was.
            assertThat(store.findItem("r", 3).orElseThrow().status()).isEqualTo(ItemStatus.PASSED);

            Calibration calibration = Calibration.of(store, List.of("r"));
            assertThat(calibration.byJudgeModel()).containsOnlyKeys("openai:j");
            Agreement agreement = calibration.byJudgeModel().get("openai:j");
            assertThat(agreement).isEqualTo(new Agreement(4, 1, 2, 3));
            assertThat(agreement.kappa()).isEqualTo(0.4, offset(1e-12));
            assertThat(calibration.below(0.6, List.of("openai:j", "openai:unlabelled")))
                    .containsExactly("openai:j");
            assertThat(calibration.below(0.3, List.of("openai:j"))).isEmpty();
            assertThat(calibration
                            .toJson()
                            .path("judges")
                            .path("openai:j")
                            .path("kappa")
                            .asDouble())
                    .isEqualTo(0.4, offset(1e-12));
        }
    }

    @Test
    void each_member_of_a_panel_is_weighed_on_its_own() {
        ObjectNode check = Json.object();
        check.put("checker", "judge");
        check.put("status", "passed");
        var members = check.putObject("detail").putArray("judges");
        members.addObject().put("judge_model", "openai:a").put("status", "passed");
        members.addObject().put("judge_model", "openai:b").put("status", "failed");
        members.addObject().put("judge_model", "openai:c").put("status", "error");
        assertThat(Calibration.votes(check))
                .containsExactly(new Calibration.Vote("openai:a", true), new Calibration.Vote("openai:b", false));
    }
}
