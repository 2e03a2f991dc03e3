package dev.assay.dialog;

import static dev.assay.dialog.Dialogs.assistant;
import static dev.assay.dialog.Dialogs.dialog;
import static dev.assay.dialog.Dialogs.user;
import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.run.ScoreOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DialogRunRecordsTest {
    @TempDir
    Path dir;

    private DialogEngine.Result outcome() {
        Dataset dataset = Dialogs.dataset(
                dialog(
                                "d1",
                                user("q"),
                                assistant("a", List.of("profile_gt.risk_level_gt"), List.of("波动风险"), List.of("信息依据")))
                        .toString(),
                "garbage");
        var config = new DialogRunConfig(
                "run-1", "data/test.jsonl", "scripted", "", 1, Duration.ofSeconds(5), 0, ScoreOptions.defaults(), null);
        return DialogEngine.run(
                dataset, new ChatModelSubject(ScriptedChatModel.answering(), "", null, null), config, dir);
    }

    @Test
    void the_run_is_a_dialog_run_with_the_five_metrics_as_dimensions() {
        Run run = outcome().run();

        assertThat(run.kind()).isEqualTo(RunKind.DIALOG);
        assertThat(run.dimensionScores()).containsOnlyKeys("m1", "m2", "m3", "m4", "m5");
        assertThat(run.caseSet()).isEqualTo("test.jsonl");
        assertThat(run.config().path("config_fingerprint").asText()).hasSize(64);
        assertThat(run.config().path("metrics_summary").path("metrics").has(Metrics.M3))
                .isTrue();
        assertThat(run.counts().passed()).isEqualTo(1);
        assertThat(run.counts().skipped()).isEqualTo(1);
    }

    @Test
    void each_dialog_becomes_an_item_with_its_turn_rows() {
        List<Item> items = outcome().items();

        assertThat(items).extracting(Item::caseId).containsExactly("d1", "invalid_json_line_2");
        assertThat(items.get(0)
                        .checkerDetail()
                        .path("turns")
                        .get(0)
                        .path("pred_assistant_text")
                        .asText())
                .isEqualTo("答复(1): q");
        assertThat(items.get(0).checkerDetail().path("turns").get(0).has("risk_tag_hits"))
                .isTrue();
        assertThat(items.get(1).status()).isEqualTo(ItemStatus.SKIPPED);
        assertThat(items.get(1).error().type()).isEqualTo("dialog.skipped.invalid_json");
    }
}
